// Client text quoted in a message, cut to a length that keeps the message readable.
export const clip = (s: string, max = 60): string => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
