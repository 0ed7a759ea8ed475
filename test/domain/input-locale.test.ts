// A refusal's detail is the service's own words in every process: zod classic (which the MCP SDK
// imports) registers its English locale globally on its first schema, and zod/mini's issues would
// then carry that locale's messages ("Invalid input: expected number, received string") instead.
import { describe, expect, it } from 'vitest';
import * as classic from 'zod';
import * as z from 'zod/mini';
import { parseInput } from '#lib/domain/input.ts';
import { ENTITY_STANDARD_FIELDS } from '#lib/domain/schemas/field-values.ts';
import { patchOf } from '#lib/domain/schemas/patch.ts';

describe("validation details after zod classic's locale is installed", () => {
  it('stay the ones the service writes, for a body and for a patch operation', () => {
    classic.string();
    expect(classic.config().localeError).toBeDefined();
    const Body = z.strictObject({ n: z.number() });
    expect(() => parseInput(Body, { n: 'x' }, 'body')).toThrow("'/n' must be a number (got 'x').");
    expect(() => parseInput(Body, {}, 'body')).toThrow("'/n' is required.");
    const Patch = z.strictObject({ patch: patchOf(ENTITY_STANDARD_FIELDS) });
    expect(() => parseInput(Patch, { patch: [{ op: 'set', path: 'description' }] }, 'body')).toThrow("'/patch/0/value' is required.");
    expect(() => parseInput(Patch, { patch: [{ op: 'set', path: 'archived', value: 'yes' }] }, 'body')).toThrow(
      "'/patch/0/value' must be a boolean (got 'yes').",
    );
  });
});
