// Sort keys that embed client text (lib/store/keys.ts keyText): the text itself while the key fits
// in DynamoDB's 1024 bytes, its SHA-256 past that.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as keys from '#lib/store/keys.ts';

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

describe('keyText', () => {
  it('keeps a text whose key is exactly 1024 bytes; one byte more is hashed', () => {
    const head = 'TEAMNAME#';
    const fits = 'a'.repeat(1024 - head.length);
    expect(keys.keyText(head, fits)).toBe(head + fits);
    expect(keys.keyText(head, `${fits}a`)).toBe(head + sha256(`${fits}a`));
    // Bytes, not characters: 😀 is four of them.
    const emoji = '😀'.repeat(253);
    expect(keys.keyText(head, emoji)).toBe(head + emoji);
    expect(keys.keyText(head, `${emoji}😀`)).toBe(head + sha256(`${emoji}😀`));
    // The bytes that follow the text count too.
    expect(keys.keyText(head, fits, 1)).toBe(head + sha256(fits));
  });

  it("a customer e-mail's keys begin with its prefix, and fit, on either side of the bound", () => {
    const room = 1024 - 'CUSTEMAIL#'.length - 37;
    const userId = '00000000-0000-4000-8000-000000000000';
    for (const email of [`${'a'.repeat(room - 5)}@a.co`, `${'a'.repeat(room - 4)}@a.co`, `${'😀'.repeat(249)}@a.co`]) {
      const { sk } = keys.customerEmail('ws', email, userId);
      expect(sk.startsWith(keys.customerEmailPrefix(email))).toBe(true);
      expect(Buffer.byteLength(sk)).toBeLessThanOrEqual(1024);
    }
    expect(keys.customerEmail('ws', `${'a'.repeat(room - 5)}@a.co`, userId).sk).toBe(`CUSTEMAIL#${'a'.repeat(room - 5)}@a.co#${userId}`);
    expect(keys.customerEmailPrefix(`${'a'.repeat(room - 4)}@a.co`)).toBe(`CUSTEMAIL#${sha256(`${'a'.repeat(room - 4)}@a.co`)}#`);
  });
});
