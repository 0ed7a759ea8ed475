// The score endpoint's acceptance checks, with the real handlers, plus tenant isolation across every entity route:
// a token of workspace A never sees workspace B (404, never 403).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
let a: TestWorkspace;
let b: TestWorkspace;
beforeAll(async () => {
  app = await startApp();
  [a, b] = await Promise.all([newWorkspace('A'), newWorkspace('B')]);
});
afterAll(() => app.close());

const UNKNOWN = '0f1e2d3c-4b5a-4697-8877-665544332211';

describe('score endpoint acceptance checks', () => {
  it('GET /v2/nope → 404 route.notFound whose id equals X-Request-Id', async () => {
    const res = await call(app, 'GET', '/v2/nope');
    expectError(res, 'route.notFound');
    expect(res.json.id).toBe(res.headers.get('x-request-id'));
  });

  it('score without a token → 401 auth.invalid; with a token, an unknown id → 404 resource.notFound', async () => {
    expectError(await call(app, 'GET', `/v2/entities/${UNKNOWN}/score`), 'auth.invalid');
    expectError(await call(app, 'GET', `/v2/entities/${UNKNOWN}/score`, { token: a.token }), 'resource.notFound');
  });

  it('a POST with the body {bad json → 400 request.malformed', async () => {
    const res = await call(app, 'POST', '/v2/entities', { token: a.token, body: '{bad json', headers: { 'content-type': 'application/json' } });
    expectError(res, 'request.malformed');
  });
});

describe('tenant isolation', () => {
  it("workspace B's token gets 404 for every route on workspace A's entity and note, and A's data is untouched", async () => {
    const product = await call(app, 'POST', '/v2/entities', { token: a.token, body: { data: { type: 'product', fields: { name: 'A-only' } } } });
    expect(product.status).toBe(201);
    const id: string = product.json.data.id;
    const note = await call(app, 'POST', '/v2/notes', {
      token: a.token,
      body: { data: { type: 'textNote', fields: { name: 'feedback' }, relationships: [{ type: 'link', target: { id }, importance: 'critical' }] } },
    });
    expect(note.status).toBe(201);
    const noteId: string = note.json.data.id;

    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/v2/entities/${id}`],
      ['GET', `/v2/entities/${id}/score`],
      ['GET', `/v2/entities/${id}/relationships`],
      ['PATCH', `/v2/entities/${id}`, { data: { fields: { name: 'hijacked' } } }],
      ['PUT', `/v2/entities/${id}/relationships/parent`, { data: { target: { id } } }],
      ['DELETE', `/v2/entities/${id}`],
      ['GET', `/v2/notes/${noteId}`],
      ['GET', `/v2/notes/${noteId}/relationships`],
      ['PATCH', `/v2/notes/${noteId}`, { data: { fields: { name: 'hijacked' } } }],
      ['PUT', `/v2/notes/${noteId}/relationships/link/${id}`, { data: { importance: 'not important' } }],
      ['DELETE', `/v2/notes/${noteId}/relationships/link/${id}`],
      ['DELETE', `/v2/notes/${noteId}`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(app, method, path, { token: b.token, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
      expect(res.json.errors[0].code).toBe('resource.notFound');
    }
    // B linking its own note to A's entity: the entity is not found in B.
    const bNote = await call(app, 'POST', '/v2/notes', { token: b.token, body: { data: { type: 'textNote', fields: { name: 'b' } } } });
    const cross = await call(app, 'PUT', `/v2/notes/${bNote.json.data.id}/relationships/link/${id}`, {
      token: b.token,
      body: { data: { importance: 'critical' } },
    });
    expect(cross.status).toBe(404);

    const listB = await call(app, 'GET', '/v2/entities', { token: b.token });
    expect(listB.status).toBe(200);
    expect(listB.json.data).toEqual([]);
    const listNotesB = await call(app, 'GET', '/v2/notes', { token: b.token });
    expect(listNotesB.json.data.map((n: { id: string }) => n.id)).toEqual([bNote.json.data.id]);

    const still = await call(app, 'GET', `/v2/entities/${id}`, { token: a.token });
    expect(still.json.data.fields.name).toBe('A-only');
    const score = await call(app, 'GET', `/v2/entities/${id}/score`, { token: a.token });
    expect(score.json).toEqual({ data: { id, type: 'customerScore', fields: { score: 1 }, links: { self: `${app.baseUrl}/entities/${id}/score` } } });
  });
});

describe('field names that are built-in object properties', () => {
  // Raw JSON: an object literal would turn `__proto__` into a prototype instead of a key.
  const names: Array<[string, string]> = [
    ['__proto__', '{"polluted":true}'],
    ['constructor', '{"prototype":{"polluted":true}}'],
    ['toString', '"y"'],
    ['hasOwnProperty', '1'],
    ['valueOf', '"x"'],
  ];
  const raw = (token: string, method: string, path: string, body: string) =>
    call(app, method, path, { token, body, headers: { 'content-type': 'application/json' } });

  it.each(names)('POST /v2/entities with fields.%s → 400 request.invalid with source.pointer, nothing stored, nothing polluted', async (name, value) => {
    const ws = await newWorkspace();
    const res = await raw(ws.token, 'POST', '/v2/entities', `{"data":{"type":"product","fields":{"name":"P",${JSON.stringify(name)}:${value}}}}`);
    expectError(res, 'request.invalid', { source: { pointer: `/data/fields/${name}` } });
    expect((await call(app, 'GET', '/v2/entities?type[]=product', { token: ws.token })).json.data).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(names)('PATCH an entity and POST a note with fields.%s → 400 request.invalid, the entity unchanged, no note', async (name, value) => {
    const ws = await newWorkspace();
    const created = await call(app, 'POST', '/v2/entities', { token: ws.token, body: { data: { type: 'product', fields: { name: 'P' } } } });
    const id: string = created.json.data.id;
    const before = (await call(app, 'GET', `/v2/entities/${id}`, { token: ws.token })).json.data;
    expectError(await raw(ws.token, 'PATCH', `/v2/entities/${id}`, `{"data":{"fields":{${JSON.stringify(name)}:${value}}}}`), 'request.invalid', {
      source: { pointer: `/data/fields/${name}` },
    });
    expect((await call(app, 'GET', `/v2/entities/${id}`, { token: ws.token })).json.data).toEqual(before);
    expectError(
      await raw(ws.token, 'POST', '/v2/notes', `{"data":{"type":"textNote","fields":{"name":"N",${JSON.stringify(name)}:${value}}}}`),
      'request.invalid',
      {
        source: { pointer: `/data/fields/${name}` },
      },
    );
    expect((await call(app, 'GET', '/v2/notes', { token: ws.token })).json.data).toEqual([]);
  });
});
