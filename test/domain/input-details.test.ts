// A refusal's detail says what was wrong in the terms of the rule that refused it.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { parseInput } from '#lib/domain/input.ts';
import { Email, nonBlank } from '#lib/domain/schemas/common.ts';

describe('a length refusal', () => {
  it('counts characters as the rule does: code points, an emoji one character', () => {
    const Name = z.strictObject({ name: nonBlank(255) });
    expect(() => parseInput(Name, { name: '😀'.repeat(255) }, 'body')).not.toThrow();
    expect(() => parseInput(Name, { name: '😀'.repeat(256) }, 'body')).toThrow("'/name' must be at most 255 characters long (got 256).");
    expect(() => parseInput(Name, { name: 'x'.repeat(256) }, 'body')).toThrow("'/name' must be at most 255 characters long (got 256).");
  });
});

describe('an e-mail address', () => {
  const Address = z.strictObject({ email: Email });
  it('takes internationalized mailboxes (RFC 6531) and refuses what no mail system delivers to: controls, format characters, quotes, stray dots and hyphens', () => {
    for (const email of ['a@x.co', "o'neil+tag@mail.x-y.example", 'jürgen@müller.de', '😀@a.co', 'a@x--y.co']) {
      expect(parseInput(Address, { email }, 'body'), email).toEqual({ email });
    }
    for (const email of [
      'a\u0001b@x.co',
      'a\u200bb@x.co',
      'a\u00a0b@x.co',
      '"@x.co',
      'a..b@x.co',
      '.a@x.co',
      'a@x',
      'a@-x.co',
      'a@x-.co',
      'a@b@c.co',
      'a b@x.co',
    ]) {
      expect(() => parseInput(Address, { email }, 'body'), JSON.stringify(email)).toThrow(`'/email' must be an e-mail address (got `);
    }
  });

  it('refuses a long address that fails only at its end at once (no backtracking blow-up)', () => {
    const started = performance.now();
    expect(() => parseInput(Address, { email: `a@${'b-'.repeat(100_000)}` }, 'body')).toThrow("'/email' must be");
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
