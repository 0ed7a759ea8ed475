import { describe, expect, it } from 'vitest';
import { lacksScopes } from '#lib/auth/errors.ts';
import { wordList } from '#lib/domain/word-lists.ts';

describe('wordList', () => {
  it('joins one, two and more words the way a sentence does', () => {
    expect([0, 1, 2, 3].map((n) => wordList(['a', 'b', 'c'].slice(0, n), 'and'))).toEqual(['', 'a', 'a and b', 'a, b and c']);
    expect(wordList(['product', 'component', 'feature'], 'or')).toBe('product, component or feature');
  });

  it('names three missing scopes with one "and"', () => {
    expect(lacksScopes('Registering it', ['notes:write', 'webhooks:write', 'members:pii:read']).message).toBe(
      'Registering it needs the scopes notes:write, webhooks:write and members:pii:read, which the token does not carry.',
    );
  });
});
