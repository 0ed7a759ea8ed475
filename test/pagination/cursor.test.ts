import { describe, expect, it } from 'vitest';
import { ApiError } from '#lib/http/errors.ts';
import { decodeCursor, encodeCursor, parseLimit, type PageScope } from '#lib/http/pagination.ts';

const scope: PageScope = {
  operationId: 'listEntities',
  workspaceId: 'ws-1',
  params: {},
  query: [
    ['type[]', 'feature'],
    ['fields[]', 'name'],
    ['limit', '10'],
  ],
};

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

async function expectCursorRefused(s: PageScope, cursor: string) {
  const err = await refusal(decodeCursor(s, cursor));
  expect([err.code, err.source]).toEqual(['request.invalid', { parameter: 'pageCursor' }]);
}

describe('pagination cursors', () => {
  it('a cursor carries its key back to the query that produced it', async () => {
    const cursor = await encodeCursor(scope, '2030-01-01T00:00:00.000Z#abc');
    expect(await decodeCursor(scope, cursor)).toBe('2030-01-01T00:00:00.000Z#abc');
    // pageCursor itself and parameter order do not change the query a cursor belongs to.
    const reordered = { ...scope, query: [...scope.query].reverse().concat([['pageCursor', cursor]]) };
    expect(await decodeCursor(reordered, cursor)).toBe('2030-01-01T00:00:00.000Z#abc');
  });

  it('is opaque: the key does not appear in clear text', async () => {
    const cursor = await encodeCursor(scope, 'secret-position');
    expect(cursor).not.toContain('secret-position');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('a forged cursor (payload changed, signature kept) → request.invalid on pageCursor', async () => {
    const cursor = await encodeCursor(scope, 'a');
    const [, sig] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ k: 'z' })).toString('base64url')}.${sig}`;
    await expectCursorRefused(scope, forged);
  });

  it.each([
    ['empty', ''],
    ['garbage', 'not-a-cursor'],
    ['three parts', 'a.b.c'],
    ['bad characters', 'a+b.c/d'],
    ['huge', 'a'.repeat(5000) + '.b'],
  ])('a garbled cursor (%s) → request.invalid on pageCursor', async (_n, cursor) => {
    await expectCursorRefused(scope, cursor);
  });

  it('a cursor with one signature byte flipped → refused', async () => {
    const cursor = await encodeCursor(scope, 'a');
    const last = cursor.at(-2) === 'A' ? 'B' : 'A';
    await expectCursorRefused(scope, cursor.slice(0, -2) + last + cursor.at(-1));
  });

  it.each<[string, Partial<PageScope>]>([
    ['another workspace', { workspaceId: 'ws-2' }],
    ['another operation', { operationId: 'listNotes' }],
    ['another filter', { query: [['type[]', 'product'], ['fields[]', 'name'], ['limit', '10']] }],
    ['another limit', { query: [['type[]', 'feature'], ['fields[]', 'name'], ['limit', '20']] }],
    ['a parameter dropped', { query: [['type[]', 'feature'], ['limit', '10']] }],
    ['another path parameter', { params: { id: 'x' } }],
    ['another body', { body: { types: ['feature'] } }],
  ])('a foreign cursor (%s) → refused', async (_n, change) => {
    const cursor = await encodeCursor(scope, 'a');
    await expectCursorRefused({ ...scope, ...change }, cursor);
  });

  it('search bodies bind by content, not key order', async () => {
    const a: PageScope = { ...scope, body: { types: ['feature'], archived: false } };
    const b: PageScope = { ...scope, body: { archived: false, types: ['feature'] } };
    expect(await decodeCursor(b, await encodeCursor(a, 'k'))).toBe('k');
  });

  it('limit: 1–100, default 100', () => {
    expect(parseLimit([])).toBe(100);
    expect(parseLimit(['1'])).toBe(1);
    expect(parseLimit(['100'])).toBe(100);
    for (const bad of [['0'], ['101'], ['-1'], ['1.5'], ['abc'], [''], ['10', '20']]) {
      let err: unknown;
      try {
        parseLimit(bad);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(bad)).toBeInstanceOf(ApiError);
      expect((err as ApiError).source).toEqual({ parameter: 'limit' });
    }
  });
});
