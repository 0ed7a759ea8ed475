import { describe, expect, it } from 'vitest';
import { customValueCheck, customValueRead, type CustomFieldDef } from '#lib/domain/configurations.ts';
import { selectValuesOf } from '#lib/domain/field-values.ts';
import { apiErrorOf } from '#lib/http/error-map.ts';
import { ApiError } from '#lib/http/errors.ts';

const defs: CustomFieldDef[] = [
  { id: '11111111-1111-4111-8111-111111111111', entityType: 'feature', name: 'Notes', fieldKind: 'text' },
  { id: '22222222-2222-4222-8222-222222222222', entityType: 'feature', name: 'Effort', fieldKind: 'number' },
  { id: '33333333-3333-4333-8333-333333333333', entityType: 'feature', name: 'Due', fieldKind: 'date' },
  { id: '44444444-4444-4444-8444-444444444444', entityType: 'feature', name: 'Size', fieldKind: 'select', options: ['S', 'M'] },
  { id: '55555555-5555-4555-8555-555555555555', entityType: 'product', name: 'Other', fieldKind: 'text' },
];
const check = customValueCheck(defs, 'feature');
const path = ['data', 'fields', 'x'];

function refusal(fieldId: string, value: unknown): ApiError {
  try {
    check(fieldId, value, path);
  } catch (e) {
    const refusal = apiErrorOf(e);
    expect(refusal).toBeInstanceOf(ApiError);
    return refusal!;
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
}

describe('custom field values are validated against their kind', () => {
  it.each<[string, unknown]>([
    ['11111111-1111-4111-8111-111111111111', 'free text'],
    ['22222222-2222-4222-8222-222222222222', 3.5],
    ['33333333-3333-4333-8333-333333333333', '2031-02-28'],
  ])('%s accepts %j', (id, value) => {
    expect(check(id, value, path)).toEqual(value);
  });

  it("a select field's option is written by name, {id}, {name} or both, stored by its id, and reads back as the option's current {id, name}", () => {
    const size = defs[3]!;
    const m = selectValuesOf(size).find((v) => v.name === 'M')!;
    for (const written of ['M', { id: m.id }, { name: 'M' }, { id: m.id, name: 'M' }]) expect(check(size.id, written, path)).toBe(m.id);
    expect(customValueRead(size, m.id)).toEqual({ id: m.id, name: 'M' });
    const renamed = { ...size, values: selectValuesOf(size).map((v) => (v.id === m.id ? { ...v, name: 'Medium' } : v)) };
    expect(customValueRead(renamed, m.id)).toEqual({ id: m.id, name: 'Medium' });
    // Deleted: no value; deleted with a replacement: the replacement.
    const s = selectValuesOf(size).find((v) => v.name === 'S')!;
    const gone = { ...size, values: [s] };
    expect(customValueRead(gone, m.id)).toBeUndefined();
    expect(customValueRead({ ...gone, replaced: { [m.id]: s.id } }, m.id)).toEqual({ id: s.id, name: 'S' });
  });

  it.each<[string, unknown, string]>([
    [
      'an unknown name',
      'XL',
      "Custom field 'Size' (44444444-4444-4444-8444-444444444444) takes one of 'S', 'M': its name, or {id} or {name} of one of its values.",
    ],
    [
      'an unknown id',
      { id: 'nope' },
      `Custom field 'Size' (44444444-4444-4444-8444-444444444444) has no value "nope"; takes one of 'S', 'M': its name, or {id} or {name} of one of its values.`,
    ],
    ['an id and a name of different options', { id: 'M', name: 'S' }, ''],
    ['neither', {}, "Custom field 'Size' (44444444-4444-4444-8444-444444444444) takes one of 'S', 'M': its name, or {id} or {name} of one of its values."],
    [
      'another property',
      { name: 'S', color: 'red' },
      "Custom field 'Size' (44444444-4444-4444-8444-444444444444): an option is named by id and name only, not 'color'.",
    ],
  ])('a select field refuses %s', (_what, written, detail) => {
    const size = defs[3]!;
    const m = selectValuesOf(size).find((v) => v.name === 'M')!;
    const value = (written as { id?: string }).id === 'M' ? { ...(written as object), id: m.id } : written;
    const expected = detail || `Custom field 'Size' (${size.id}): id ${m.id} is the value 'M', not 'S'.`;
    expect(() => check(size.id, value, path)).toThrow(expected);
  });

  it.each<[string, unknown, RegExp]>([
    ['11111111-1111-4111-8111-111111111111', 5, /takes a string/],
    ['22222222-2222-4222-8222-222222222222', '5', /takes a number/],
    ['33333333-3333-4333-8333-333333333333', '2031-02-30', /date/],
    ['33333333-3333-4333-8333-333333333333', 'tomorrow', /date/],
    ['44444444-4444-4444-8444-444444444444', 'XL', /one of 'S', 'M'/],
  ])('%s refuses %j → 400 request.invalid at the value', (id, value, detail) => {
    const err = refusal(id, value);
    expect([err.code, err.source]).toEqual(['request.invalid', { pointer: '/data/fields/x' }]);
    expect(err.detail).toMatch(detail);
  });

  it('an unknown uuid, or a custom field of another type → 400 naming it', () => {
    expect(refusal('99999999-9999-4999-8999-999999999999', 'x').detail).toMatch(/Unknown field '99999999-/);
    expect(refusal('55555555-5555-4555-8555-555555555555', 'x').detail).toMatch(/configured for feature/);
  });
});
