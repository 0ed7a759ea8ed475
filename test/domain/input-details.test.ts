// A refusal's detail says what was wrong in the terms of the rule that refused it.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { parseInput } from '#lib/domain/input.ts';
import { nonBlank } from '#lib/domain/schemas/common.ts';

describe('a length refusal', () => {
  it('counts characters as the rule does: code points, an emoji one character', () => {
    const Name = z.strictObject({ name: nonBlank(255) });
    expect(() => parseInput(Name, { name: '😀'.repeat(255) }, 'body')).not.toThrow();
    expect(() => parseInput(Name, { name: '😀'.repeat(256) }, 'body')).toThrow("'/name' must be at most 255 characters long (got 256).");
    expect(() => parseInput(Name, { name: 'x'.repeat(256) }, 'body')).toThrow("'/name' must be at most 255 characters long (got 256).");
  });
});
