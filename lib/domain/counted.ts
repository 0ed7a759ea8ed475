// A count with its noun, in the English of every message: "1 second", "3 seconds".
export const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
