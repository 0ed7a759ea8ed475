import { describe, expect, it } from 'vitest';
import { checkKnownFields, fieldsFromBody, isEmptyValue, selectFields, type FieldSelection } from '#lib/domain/fields.ts';
import { parseInput } from '#lib/domain/input.ts';
import { SearchEntitiesBody } from '#lib/domain/schemas/entity.ts';
import { apiErrorOf } from '#lib/http/error-map.ts';
import { ApiError } from '#lib/http/errors.ts';

const configured = ['name', 'description', 'tags', 'archived', 'cf'];
const stored = { name: 'A', description: '', tags: [], archived: false, cf: 0, stray: 'not configured' };

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    const refusal = apiErrorOf(e);
    expect(refusal).toBeInstanceOf(ApiError);
    return refusal!;
  }
  throw new Error('did not throw');
}

describe('fields selection (pure)', () => {
  it('parameter omitted → only fields with non-empty values (false and 0 are values)', () => {
    expect(selectFields(stored, { mode: 'default' }, configured)).toEqual({ name: 'A', archived: false, cf: 0 });
  });

  it('`all` → every configured field, nulls included, nothing unconfigured', () => {
    expect(selectFields({ name: 'A' }, { mode: 'all', source: {} }, configured)).toEqual({
      name: 'A',
      description: null,
      tags: null,
      archived: null,
      cf: null,
    });
  });

  it('a list → exactly the requested fields in request order, nulls included', () => {
    const sel: FieldSelection = {
      mode: 'list',
      fields: [
        { id: 'cf', source: {} },
        { id: 'description', source: {} },
      ],
    };
    expect(selectFields({ name: 'A' }, sel, configured)).toEqual({ cf: null, description: null });
    expect(Object.keys(selectFields({ name: 'A' }, sel, configured))).toEqual(['cf', 'description']);
  });

  it('a list field not configured for the record’s type is left out of that record', () => {
    const sel: FieldSelection = {
      mode: 'list',
      fields: [
        { id: 'email', source: {} },
        { id: 'name', source: {} },
      ],
    };
    expect(selectFields({ name: 'A' }, sel, configured)).toEqual({ name: 'A' });
  });

  it('empty means null, undefined, "", [] or an object of empty values', () => {
    for (const v of [null, undefined, '', [], {}, { startDate: null }]) expect(isEmptyValue(v)).toBe(true);
    for (const v of [false, 0, 'x', [{}], { id: 'x' }]) expect(isEmptyValue(v)).toBe(false);
  });

  it('an identifier configured for none of the covered types → request.invalid naming it', () => {
    const sel = fieldsFromBody(['name', 'email']);
    const err = thrown(() => checkKnownFields(sel, new Map([['feature', ['name']]])));
    expect([err.code, err.source]).toEqual(['request.invalid', { pointer: '/data/fields/1' }]);
    expect(err.detail).toMatch(/Unknown field identifier 'email'/);
    // Configured on one of the covered types: accepted.
    expect(() =>
      checkKnownFields(
        sel,
        new Map([
          ['feature', ['name']],
          ['user', ['name', 'email']],
        ]),
      ),
    ).not.toThrow();
  });

  it.each<[unknown, string]>([
    ['everything', '/data/fields'],
    [42, '/data/fields'],
    [[], '/data/fields'],
    [['name', 7], '/data/fields/1'],
    [['name', ''], '/data/fields/1'],
    [['name', 'all'], '/data/fields'],
  ])('body fields %j → request.invalid at %s (the search body schema, then the selection rule)', (value, at) => {
    const err = thrown(() => fieldsFromBody(parseInput(SearchEntitiesBody, { data: { types: ['feature'], fields: value } }, 'body').data.fields));
    expect([err.code, err.source]).toEqual(['request.invalid', { pointer: at }]);
  });
});
