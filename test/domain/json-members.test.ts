// lostInParsing (lib/domain/input.ts) against JSON.stringify: text it writes never repeats a member
// in one object, whatever the values, names and spacing; a member appended to an object is found at
// its exact pointer, however deep, with names compared decoded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pointer } from '#lib/domain/errors.ts';
import { lostInParsing } from '#lib/domain/input.ts';

const spacing = fc.constantFrom<string | number>(0, 2, '\t');

describe('lostInParsing', () => {
  it('finds nothing in what JSON.stringify writes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), spacing, (value, space) => {
        expect(lostInParsing(JSON.stringify(value, null, space))).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('finds a name given again in one object, at its pointer, inside arrays and objects', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }),
        fc.nat(),
        fc.jsonValue(),
        fc.string(),
        fc.nat({ max: 3 }),
        (object, pick, again, outer, before) => {
          const names = Object.keys(object);
          const name = names[pick % names.length]!;
          const text = `${JSON.stringify(object).slice(0, -1)},${JSON.stringify(name)}:${JSON.stringify(again)}}`;
          const wrapped = `{${JSON.stringify(outer)}:[${'0,'.repeat(before)}${text}]}`;
          expect(lostInParsing(wrapped)?.location).toEqual(pointer([outer, before, name]));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('compares names decoded: an escaped spelling is the same member', () => {
    expect(lostInParsing('{"a\\"b":1,"a\\u0022b":2}')?.location).toEqual(pointer(['a"b']));
    expect(lostInParsing('{"x":{"k":1},"y":{"k":1}}')).toBeUndefined();
  });

  it('finds a number JSON.parse would read as 0, and only such a number', () => {
    expect(lostInParsing('{"a":[1,{"b":1e-400}]}')).toMatchObject({
      detail: "'/a/1/b' is the number 1e-400, which is too small to be represented: it would read as 0.",
      location: pointer(['a', 1, 'b']),
    });
    expect(lostInParsing('[0, 2.5E-999]')?.location).toEqual(pointer([1]));
    expect(lostInParsing('-0.001e-400')?.location).toEqual(pointer([]));
    for (const text of ['0', '-0', '0.000e-999', '[5e-324, 1e-323, -0.0]', '{"x":"1e-400"}', '1e400']) expect(lostInParsing(text)).toBeUndefined();
  });
});
