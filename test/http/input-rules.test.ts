// The schema-level rules every request meets (lib/http/middleware/validate.ts, lib/domain/input.ts,
// lib/domain/schemas/*): query parameters are exactly the declared ones; a key a schema would drop
// or that could reach Object.prototype, a lone surrogate, a blank name and an unknown top-level key
// are refused with the envelope and change nothing (the workspace's items are read back from the
// table, attributes included).
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '#lib/store/client.ts';
import { client } from '../score/helpers.ts';
import { call, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

/** Every item of the workspace's partition, as stored (every tenant item lives there: lib/store/keys.ts). */
async function workspaceItems(ws: TestWorkspace): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `WS#${ws.workspaceId}` },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.sort((a, b) => String(a.sk).localeCompare(String(b.sk)));
}

/** Asserts that a refused request left the workspace's items exactly as they were. */
async function expectUnchanged(ws: TestWorkspace, before: Array<Record<string, unknown>>): Promise<void> {
  expect(await workspaceItems(ws)).toEqual(before);
}

describe('query parameters: exactly those the operation declares', () => {
  const LIST_ROUTES = [
    '/v2/entities',
    '/v2/entities/configurations',
    '/v2/notes',
    '/v2/notes/configurations',
    '/v2/entities/{entity}/relationships',
    '/v2/notes/{note}/relationships',
  ];

  it('an unknown parameter → 400 request.invalid naming it in source.parameter, on every list route and a get route', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const entity = await c.entity('product');
    const note = await c.note();
    const paths = [...LIST_ROUTES, '/v2/entities/{entity}', '/v2/notes/{note}'].map((p) => p.replace('{entity}', entity).replace('{note}', note));
    for (const path of paths) {
      const res = await call(app, 'GET', `${path}?colour=red`, { token: ws.token });
      expectError(res, 'request.invalid', { detail: /^Unknown query parameter 'colour'; this operation takes /, source: { parameter: 'colour' } });
    }
    const apps = await call(app, 'GET', '/oauth2/applications?colour=red', { token: ws.token });
    expectError(apps, 'request.invalid', { detail: "Unknown query parameter 'colour'; this operation takes none.", source: { parameter: 'colour' } });
    const search = await call(app, 'POST', '/v2/entities/search?type=feature', { token: ws.token, body: { data: { types: ['feature'] } } });
    expectError(search, 'request.invalid', {
      detail: "Unknown query parameter 'type'; this operation takes pageCursor, limit.",
      source: { parameter: 'type' },
    });
  });

  it('`limit[]` is not `limit`, and `__proto__` is a parameter name like any other; a long unknown name is clipped alike in detail and source', async () => {
    const ws = await newWorkspace();
    const long = `x${'y'.repeat(2_000)}`;
    const clipped = `x${'y'.repeat(58)}…`;
    expectError(await call(app, 'GET', `/v2/entities?${long}=1`, { token: ws.token }), 'request.invalid', {
      detail: new RegExp(`^Unknown query parameter '${clipped}';`),
      source: { parameter: clipped },
    });
    expectError(await call(app, 'GET', '/v2/entities?limit[]=5', { token: ws.token }), 'request.invalid', {
      detail: /^Unknown query parameter 'limit\[\]'/,
      source: { parameter: 'limit[]' },
    });
    expectError(await call(app, 'GET', '/v2/notes?__proto__=1', { token: ws.token }), 'request.invalid', {
      detail: /^Unknown query parameter '__proto__'/,
      source: { parameter: '__proto__' },
    });
  });

  it('a parameter given more often than its schema allows → 400 naming it; a repeatable one takes every value', async () => {
    const ws = await newWorkspace();
    expectError(await call(app, 'GET', '/v2/entities?limit=1&limit=2', { token: ws.token }), 'request.invalid', {
      detail: "Query parameter 'limit' is given 2 times; it takes one value.",
      source: { parameter: 'limit' },
    });
    expectError(await call(app, 'GET', '/v2/entities?type=feature&type=product', { token: ws.token }), 'request.invalid', { source: { parameter: 'type' } });
    const repeated = await call(app, 'GET', '/v2/entities?type[]=feature&type[]=product', { token: ws.token });
    expect(repeated.status, repeated.text).toBe(200);
  });

  it('a value of the wrong form → 400 naming the parameter, with what came', async () => {
    const ws = await newWorkspace();
    expectError(await call(app, 'GET', '/v2/entities?limit=many', { token: ws.token }), 'request.invalid', {
      detail: "Query parameter 'limit' must be a number (got 'many').",
      source: { parameter: 'limit' },
    });
    expectError(await call(app, 'GET', '/v2/entities?limit=101', { token: ws.token }), 'request.invalid', {
      detail: "Query parameter 'limit' must be at most 100 (got 101).",
      source: { parameter: 'limit' },
    });
  });
});

// Names an object's prototype chain answers to: a lookup by a client's key must never find them.
const PROTOTYPE_KEYS: Array<[string, unknown]> = [
  ['__proto__', { polluted: true }],
  ['constructor', { prototype: { polluted: true } }],
  ['toString', 'y'],
  ['hasOwnProperty', 1],
  ['valueOf', 1],
];

/** A JSON body with `fields` holding `key` literally (JSON.stringify of an object cannot write an own `__proto__`). */
const withField = (before: string, key: string, value: unknown, after: string) =>
  `${before}"fields":{"name":"x",${JSON.stringify(key)}:${JSON.stringify(value)}}${after}`;

describe('field names that are not configured fields, whatever their spelling', () => {
  it.each(PROTOTYPE_KEYS)('POST /v2/entities with fields.%s → 400 request.invalid at it; nothing stored', async (key, value) => {
    const ws = await newWorkspace();
    const before = await workspaceItems(ws);
    const res = await call(app, 'POST', '/v2/entities', {
      token: ws.token,
      body: withField('{"data":{"type":"feature",', key, value, '}}'),
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 'request.invalid', { source: { pointer: `/data/fields/${key}` } });
    expect(res.json.errors[0].detail).toContain(key);
    await expectUnchanged(ws, before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(PROTOTYPE_KEYS)('PATCH /v2/entities/{id} with fields.%s → 400 request.invalid at it; nothing changes', async (key, value) => {
    const ws = await newWorkspace();
    const id = await client(app, ws.token).entity('product');
    const before = await workspaceItems(ws);
    const res = await call(app, 'PATCH', `/v2/entities/${id}`, {
      token: ws.token,
      body: withField('{"data":{', key, value, '}}'),
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 'request.invalid', { source: { pointer: `/data/fields/${key}` } });
    await expectUnchanged(ws, before);
  });

  it.each(PROTOTYPE_KEYS)('POST /v2/notes with fields.%s → 400 request.invalid at it; nothing stored', async (key, value) => {
    const ws = await newWorkspace();
    const before = await workspaceItems(ws);
    const res = await call(app, 'POST', '/v2/notes', {
      token: ws.token,
      body: withField('{"data":{"type":"textNote",', key, value, '}}'),
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 'request.invalid', { source: { pointer: `/data/fields/${key}` } });
    await expectUnchanged(ws, before);
  });

  it.each(PROTOTYPE_KEYS)('PATCH /v2/notes/{id} with fields.%s → 400 request.invalid at it; nothing changes', async (key, value) => {
    const ws = await newWorkspace();
    const id = await client(app, ws.token).note();
    const before = await workspaceItems(ws);
    const res = await call(app, 'PATCH', `/v2/notes/${id}`, {
      token: ws.token,
      body: withField('{"data":{', key, value, '}}'),
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 'request.invalid', { source: { pointer: `/data/fields/${key}` } });
    await expectUnchanged(ws, before);
  });

  it('`__proto__` anywhere in a body is refused before its schema sees it (zod would drop it)', async () => {
    const ws = await newWorkspace();
    const before = await workspaceItems(ws);
    const res = await call(app, 'POST', '/v2/entities', {
      token: ws.token,
      body: '{"data":{"type":"feature","fields":{"name":"x","status":{"name":"Planned","__proto__":{"id":"x"}}}}}',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 'request.invalid', {
      detail: "The property name '__proto__' is not allowed (in '/data/fields/status').",
      source: { pointer: '/data/fields/status/__proto__' },
    });
    await expectUnchanged(ws, before);
  });

  it('a number too small to be represented (JSON.parse would read 0) → 400 at the number; nothing stored', async () => {
    const ws = await newWorkspace();
    const id = await client(app, ws.token).entity('product');
    const before = await workspaceItems(ws);
    const patch = (body: string) => call(app, 'PATCH', `/v2/entities/${id}`, { token: ws.token, body, headers: { 'content-type': 'application/json' } });
    expectError(await patch('{"data":{"fields":{"name":"x","timeframe":-1E-400}}}'), 'request.invalid', {
      detail: "'/data/fields/timeframe' is the number -1E-400, which is too small to be represented: it would read as 0.",
      source: { pointer: '/data/fields/timeframe' },
    });
    await expectUnchanged(ws, before);
  });

  it('a member given twice in one object (JSON.parse would keep the last) → 400 at the member, names compared decoded; nothing stored', async () => {
    const ws = await newWorkspace();
    const before = await workspaceItems(ws);
    const post = (body: string) => call(app, 'POST', '/v2/notes', { token: ws.token, body, headers: { 'content-type': 'application/json' } });
    expectError(await post('{"data":{"type":"textNote","fields":{"name":"first","content":"x","n\\u0061me":"second"}}}'), 'request.invalid', {
      detail: "'/data/fields' gives the member 'name' more than once; send each member once (a JSON reader keeps only one of them).",
      source: { pointer: '/data/fields/name' },
    });
    expectError(await post('{"data":{"type":"textNote","fields":{"name":"x"}},"data":{"type":"textNote","fields":{"name":"y"}}}'), 'request.invalid', {
      detail: "The body gives the member 'data' more than once; send each member once (a JSON reader keeps only one of them).",
      source: { pointer: '/data' },
    });
    await expectUnchanged(ws, before);
    // The same name in two objects, and a value that spells a name, are not repetitions.
    const ok = await post('{"data":{"type":"textNote","fields":{"name":"name \\" {,} \\\\","content":"name"}}}');
    expect(ok.status, ok.text).toBe(201);
    const note = await call(app, 'GET', `/v2/notes/${ok.json.data.id}`, { token: ws.token });
    expect([note.json.data.fields.name, note.json.data.fields.content]).toEqual(['name " {,} \\', 'name']);
  });
});

describe('strings', () => {
  it.each([
    ['POST /v2/entities', 'POST', '/v2/entities', { data: { type: 'feature', fields: { name: '   ' } } }],
    ['POST /v2/notes', 'POST', '/v2/notes', { data: { type: 'textNote', fields: { name: '\t \n' } } }],
    ['POST /v2/entities (no-break and zero-width spaces)', 'POST', '/v2/entities', { data: { type: 'product', fields: { name: '\u00a0\u200b\ufeff' } } }],
    ['POST /v2/entities (control characters: NUL, SOH, DEL)', 'POST', '/v2/entities', { data: { type: 'product', fields: { name: '\u0000\u0001\u007f' } } }],
    ['POST /v2/notes (soft hyphen and a direction mark)', 'POST', '/v2/notes', { data: { type: 'textNote', fields: { name: '\u00ad\u200e' } } }],
  ])('%s with a name of white space only → 400 request.invalid at /data/fields/name saying so; nothing stored', async (_name, method, path, body) => {
    const ws = await newWorkspace();
    const before = await workspaceItems(ws);
    const res = await call(app, method, path, { token: ws.token, body });
    expectError(res, 'request.invalid', {
      detail: /^'\/data\/fields\/name' must have a visible character, not only white space \(got '.*'\)\.$/s,
      source: { pointer: '/data/fields/name' },
    });
    await expectUnchanged(ws, before);
  });

  it('PATCH with a whitespace-only name → 400; an application named only by spaces → 400', async () => {
    const ws = await newWorkspace();
    const id = await client(app, ws.token).entity('product');
    const before = await workspaceItems(ws);
    expectError(await call(app, 'PATCH', `/v2/entities/${id}`, { token: ws.token, body: { data: { fields: { name: ' ' } } } }), 'request.invalid', {
      source: { pointer: '/data/fields/name' },
    });
    expectError(await call(app, 'POST', '/oauth2/applications', { token: ws.token, body: { name: '   ', scopes: ['entities:read'] } }), 'request.invalid', {
      source: { pointer: '/name' },
    });
    await expectUnchanged(ws, before);
  });

  it.each([
    [
      'a string value',
      '{"data":{"type":"feature","fields":{"name":"caf\\ud800e"}}}',
      '/data/fields/name',
      "'/data/fields/name' holds a lone UTF-16 surrogate, which is not text.",
    ],
    [
      'a low surrogate first',
      '{"data":{"type":"feature","fields":{"name":"x","tags":[{"name":"\\udc00\\ud800"}]}}}',
      '/data/fields/tags/0/name',
      "'/data/fields/tags/0/name' holds a lone UTF-16 surrogate, which is not text.",
    ],
    [
      'a property name',
      '{"data":{"type":"feature","fields":{"name":"x","\\ud83d":1}}}',
      '/data/fields/\ud83d',
      "A property name in '/data/fields' holds a lone UTF-16 surrogate, which is not text.",
    ],
  ])('a lone surrogate in %s → 400 request.invalid at it; nothing stored', async (_name, body, ptr, detail) => {
    const ws = await newWorkspace();
    const before = await workspaceItems(ws);
    const res = await call(app, 'POST', '/v2/entities', { token: ws.token, body, headers: { 'content-type': 'application/json' } });
    expectError(res, 'request.invalid', { detail, source: { pointer: ptr } });
    await expectUnchanged(ws, before);
  });

  it('a surrogate pair (an emoji) is text', async () => {
    const ws = await newWorkspace();
    const res = await call(app, 'POST', '/v2/entities', {
      token: ws.token,
      body: '{"data":{"type":"product","fields":{"name":"\\ud83d\\ude00"}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status, res.text).toBe(201);
    expect((await call(app, 'GET', `/v2/entities/${res.json.data.id}`, { token: ws.token })).json.data.fields.name).toBe('😀');
  });
});

describe('bodies: unknown keys at any level', () => {
  it.each([
    ['POST /v2/entities', 'POST', '/v2/entities', { data: { type: 'feature', fields: { name: 'x' } }, meta: 1 }, '/meta'],
    ['POST /v2/notes', 'POST', '/v2/notes', { data: { type: 'textNote', fields: { name: 'x' } }, links: {} }, '/links'],
    ['POST /v2/entities/search', 'POST', '/v2/entities/search', { data: { types: ['feature'] }, filter: {} }, '/filter'],
    ['POST /oauth2/applications', 'POST', '/oauth2/applications', { name: 'A', scopes: ['entities:read'], clientSecret: 'mine' }, '/clientSecret'],
  ])('%s with an unknown top-level key → 400 request.invalid at it; nothing stored', async (_name, method, path, body, ptr) => {
    const ws = await newWorkspace();
    const before = await workspaceItems(ws);
    const res = await call(app, method, path, { token: ws.token, body });
    expectError(res, 'request.invalid', { detail: `Unknown property '${ptr.slice(1)}' in the body.`, source: { pointer: ptr } });
    await expectUnchanged(ws, before);
  });

  it('PATCH /v2/entities/{id} with an unknown top-level key → 400; nothing changes', async () => {
    const ws = await newWorkspace();
    const id = await client(app, ws.token).entity('product');
    const before = await workspaceItems(ws);
    const res = await call(app, 'PATCH', `/v2/entities/${id}`, { token: ws.token, body: { data: { fields: { name: 'y' } }, included: [] } });
    expectError(res, 'request.invalid', { detail: "Unknown property 'included' in the body.", source: { pointer: '/included' } });
    await expectUnchanged(ws, before);
  });
});

describe('owner by id and e-mail', () => {
  it('both naming the same member → accepted; naming different members → 400 at the owner; nothing stored', async () => {
    const ws = await newWorkspace();
    const other = await ws.member();
    const agree = await call(app, 'POST', '/v2/entities', {
      token: ws.token,
      body: { data: { type: 'product', fields: { name: 'x', owner: { id: ws.admin.id, email: ws.admin.email.toUpperCase() } } } },
    });
    expect(agree.status, agree.text).toBe(201);
    const before = await workspaceItems(ws);
    const res = await call(app, 'POST', '/v2/entities', {
      token: ws.token,
      body: { data: { type: 'product', fields: { name: 'y', owner: { id: ws.admin.id, email: other.member.email } } } },
    });
    expectError(res, 'request.invalid', { source: { pointer: '/data/fields/owner' } });
    expect(res.json.errors[0].detail).toContain(other.member.email);
    await expectUnchanged(ws, before);
    const note = await call(app, 'POST', '/v2/notes', {
      token: ws.token,
      body: { data: { type: 'textNote', fields: { name: 'n', owner: { id: other.member.id, email: ws.admin.email } } } },
    });
    expectError(note, 'request.invalid', { source: { pointer: '/data/fields/owner' } });
    await expectUnchanged(ws, before);
  });
});
