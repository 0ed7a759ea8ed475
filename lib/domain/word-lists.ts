// Lists in the service's sentences: "a", "a and b", "a, b and c" (or "or"), so a detail naming
// several things reads the same wherever it is written.
export const wordList = (words: readonly string[], conjunction: 'and' | 'or'): string =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)!}` : words.join('');
