// lib/domain/schemas/build.ts builds each schema once, without zod's clone per `.check(...)` and with
// one catchall for every strict object: the schemas must be the ones zod's own calls give, in what
// they accept, the issues they raise and the JSON Schema they publish.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { _isoDateTime } from 'zod/v4/core';
import {
  checkedArray,
  checkedFormat,
  checkedInt,
  checkedString,
  checkedUrl,
  isoDateTime,
  objectWithCatchall,
  strictObject,
} from '#lib/domain/schemas/build.ts';

const refuseAll = z.superRefine((v: { a: string }, ctx) => {
  if (v.a === 'no') ctx.addIssue({ code: 'custom', message: 'says no', path: ['a'], input: v.a });
});
const upper = /^[A-Z]+$/;

/** Each pair: zod's own calls, then the builder; each input is parsed by both. */
const pairs: Array<[string, z.ZodMiniType, z.ZodMiniType, unknown[]]> = [
  [
    'a string with checks',
    z.string().check(z.minLength(1), z.maxLength(3), z.regex(/\S/)),
    checkedString(z.minLength(1), z.maxLength(3), z.regex(/\S/)),
    ['', ' ', 'ab', 'abcd', 3, null],
  ],
  [
    'a string with a refinement',
    z.string().check(z.refine((s) => s !== 'x', { error: 'is x' })),
    checkedString(z.refine((s) => s !== 'x', { error: 'is x' })),
    ['x', 'y', 1],
  ],
  ['a strict object', z.strictObject({ a: z.string() }), strictObject({ a: z.string() }), [{ a: 'x' }, { a: 'x', b: 1 }, {}, 'x', null]],
  [
    'a strict object with a check',
    z.strictObject({ a: z.string() }).check(refuseAll),
    strictObject({ a: z.string() }, refuseAll),
    [{ a: 'no' }, { a: 'yes' }, { a: 'no', b: 1 }],
  ],
  [
    'an object with a catchall and a check',
    z.catchall(z.object({ a: z.string() }), z.number()).check(refuseAll),
    objectWithCatchall({ a: z.string() }, z.number(), refuseAll as never),
    [{ a: 'no' }, { a: 'x', b: 1 }, { a: 'x', b: 'y' }],
  ],
  ['an integer with checks', z.int().check(z.minimum(1), z.maximum(100)), checkedInt(z.minimum(1), z.maximum(100)), [0, 1, 100, 101, 1.5, '1']],
  [
    'an array with checks',
    z.array(z.string()).check(z.minLength(1), z.maxLength(2)),
    checkedArray(z.string(), z.minLength(1), z.maxLength(2)),
    [[], ['a'], ['a', 'b', 'c'], [1], 'a'],
  ],
  [
    'a string format with checks',
    z.stringFormat('upper', upper).check(z.maxLength(3), z.toLowerCase()),
    checkedFormat('upper', upper, z.maxLength(3), z.toLowerCase()),
    ['ABC', 'ABCD', 'abc', 1],
  ],
  ['a url with checks', z.url().check(z.maxLength(20)), checkedUrl(z.maxLength(20)), ['https://a.example', `https://${'a'.repeat(30)}.example`, 'nope']],
  [
    'a date-time with checks',
    _isoDateTime(z.ZodMiniISODateTime, { offset: true }).check(z.refine((v) => !v.startsWith('1999'), { error: 'is 1999' })),
    isoDateTime(
      { offset: true },
      z.refine((v) => !v.startsWith('1999'), { error: 'is 1999' }),
    ),
    ['2024-01-31T00:00:00Z', '1999-01-31T00:00:00+01:00', '2024-01-31', 5],
  ],
];

describe('schemas built once', () => {
  it.each(pairs)('%s: the same parse results and issues as zod built it', (_, zod, built, inputs) => {
    for (const input of inputs) expect(built.safeParse(input)).toEqual(zod.safeParse(input));
    expect(inputs.some((input) => !zod.safeParse(input).success)).toBe(true);
  });

  it.each(pairs)('%s: the same JSON Schema, input and output', (_, zod, built) => {
    for (const io of ['input', 'output'] as const)
      expect(z.toJSONSchema(built, { io, unrepresentable: 'any' })).toEqual(z.toJSONSchema(zod, { io, unrepresentable: 'any' }));
  });

  it('strict objects share one catchall, and a check builds no second object', () => {
    const a = strictObject({ a: z.string() });
    const b = strictObject({ b: z.string() }, refuseAll as never);
    expect(a._zod.def.catchall).toBe(b._zod.def.catchall);
    expect(b._zod.parent).toBeUndefined();
    expect(b._zod.def.checks).toHaveLength(1);
  });
});
