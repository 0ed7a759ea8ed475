// POST /v2/notes/search: Productboard's body {data: {search?, filter?, return?}} over the notes of
// the caller's workspace; the same list shape as GET /v2/notes, every mistake → 400 with a pointer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../score/helpers.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app.close();
});

const search = (token: string, body: unknown, query = '') => call(app, 'POST', `/v2/notes/search${query}`, { token, body });
const names = (res: { json: any }) => res.json.data.map((n: any) => n.fields.name as string);

/** A note created through the API: its name, and optionally its owner, customer and links. */
async function note(c: ReturnType<typeof client>, name: string, opts: { owner?: string; customer?: string; links?: string[] } = {}): Promise<string> {
  const relationships = [
    ...(opts.customer ? [{ type: 'customer', target: { id: opts.customer } }] : []),
    ...(opts.links ?? []).map((id) => ({ type: 'link', target: { id } })),
  ];
  const fields = { name, ...(opts.owner ? { owner: { email: opts.owner } } : {}) };
  return (await c.ok('POST', '/notes', { data: { type: 'textNote', fields, relationships } })).json.data.id as string;
}

const byId = (...notes: Array<[string, string]>) => [...notes].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, name]) => name);

describe('POST /v2/notes/search', () => {
  it('filter.relationships.link lists the notes linked to any of the entities, as GET /v2/notes records', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const [f1, f2, f3] = [await c.entity('feature', product), await c.entity('feature', product), await c.entity('feature', product)];
    const a = await note(c, 'A', { links: [f1] });
    await note(c, 'B', { links: [f2] });
    const both = await note(c, 'C', { links: [f1, f3] });
    await note(c, 'D');
    const res = await search(ws.token, { data: { filter: { relationships: { link: [{ id: f1 }] } }, return: { fields: ['name'] } } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      data: [a, both].sort().map((id) => ({
        id,
        type: 'textNote',
        fields: { name: id === a ? 'A' : 'C' },
        relationships: expect.objectContaining({ data: expect.any(Array) }),
        links: { self: `${app.baseUrl}/notes/${id}`, html: `${app.webUrl}/notes/${id}` },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      })),
      links: {},
    });
    // Alternatives: a note linked to two of them comes once.
    expect(names(await search(ws.token, { data: { filter: { relationships: { link: [{ id: f1 }, { id: f3 }] } } } }))).toEqual(byId([a, 'A'], [both, 'C']));
    // The record is the one GET /v2/notes/{id} answers (same fields selection).
    const got = await c.ok('GET', `/notes/${a}?fields[]=name`);
    expect(res.json.data.find((n: any) => n.id === a)).toEqual(got.json.data);
  });

  it('filter.relationships.customer, one value or a list, lists those customers’ notes; with link both must hold', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const feature = await c.entity('feature', await c.entity('product'));
    const [acme, globex] = [await c.entity('company'), await c.entity('company')];
    const x = await note(c, 'Acme asks', { customer: acme });
    const y = await note(c, 'Acme links', { customer: acme, links: [feature] });
    await note(c, 'Globex asks', { customer: globex });
    await note(c, 'Nobody asks', { links: [feature] });
    // Oldest first, across customers too.
    expect(names(await search(ws.token, { data: { filter: { relationships: { customer: { id: acme } } } } }))).toEqual(['Acme asks', 'Acme links']);
    expect(names(await search(ws.token, { data: { filter: { relationships: { customer: [{ id: globex }, { id: acme }] } } } }))).toEqual([
      'Acme asks',
      'Acme links',
      'Globex asks',
    ]);
    expect(names(await search(ws.token, { data: { filter: { relationships: { customer: { id: acme }, link: { id: feature } } } } }))).toEqual(['Acme links']);
    // An id filter with a link filter: both hold.
    expect(names(await search(ws.token, { data: { filter: { id: [x, y], relationships: { link: { id: feature } } } } }))).toEqual(['Acme links']);
  });

  it('filter.fields.owner by e-mail lists that member’s notes; an e-mail no member has finds none', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const { member: maker } = await ws.member();
    await note(c, 'Admin owns', { owner: ws.admin.email });
    await note(c, 'Maker owns', { owner: maker.email });
    await note(c, 'Nobody owns');
    expect(names(await search(ws.token, { data: { filter: { fields: { owner: [{ email: maker.email }] } } } }))).toEqual(['Maker owns']);
    expect(names(await search(ws.token, { data: { filter: { fields: { owner: [{ email: maker.email }, { id: ws.admin.id }] } } } }))).toEqual([
      'Maker owns',
      'Admin owns',
    ]);
    expect((await search(ws.token, { data: { filter: { fields: { owner: { email: 'nobody@example.com' } } } } })).json).toEqual({ data: [], links: {} });
    // search.query and the flags narrow the rest.
    expect(names(await search(ws.token, { data: { search: { query: 'MAKER' } } }))).toEqual(['Maker owns']);
    expect(names(await search(ws.token, { data: { filter: { fields: { archived: false, processed: false } } } }))).toEqual([
      'Nobody owns',
      'Maker owns',
      'Admin owns',
    ]);
    expect(names(await search(ws.token, { data: {} }))).toEqual(['Nobody owns', 'Maker owns', 'Admin owns']);
    expect(names(await search(ws.token, { data: { filter: { type: 'textNote', fields: { archived: true } } } }))).toEqual([]);
  });

  it.each<[string, unknown, string, string, RegExp]>([
    [
      'an opportunity note type',
      { data: { filter: { type: 'opportunityNote' } } },
      '',
      '/data/filter/type',
      /opportunity notes cannot be created through the API/,
    ],
    ['a note type of no kind', { data: { filter: { type: 'memo' } } }, '', '/data/filter/type', /'textNote' or 'conversationNote'/],
    [
      'a list naming an opportunity note type',
      { data: { filter: { type: ['textNote', 'opportunity'] } } },
      '',
      '/data/filter/type/1',
      /opportunity notes cannot be created through the API/,
    ],
    ['a filter Productboard does not define', { data: { filter: { fields: { teams: [{ id: 'x' }] } } } }, '', '/data/filter/fields/teams', /teams/],
    ['a member filter naming no member', { data: { filter: { fields: { owner: [{}] } } } }, '', '/data/filter/fields/owner/0', /names no member/],
    ['a link that is not an id', { data: { filter: { relationships: { link: [{ id: 'feature-1' }] } } } }, '', '/data/filter/relationships/link/0/id', /UUID/],
    [
      'a range from after to',
      { data: { filter: { createdAt: { from: '2025-02-01T00:00:00Z', to: '2025-01-01T00:00:00Z' } } } },
      '',
      '/data/filter/createdAt',
      /later than/,
    ],
    [
      'a bound finer than nanoseconds',
      { data: { filter: { createdAt: { from: '2026-01-01T00:00:00.1234567890123Z' } } } },
      '',
      '/data/filter/createdAt/from',
      /^'\/data\/filter\/createdAt\/from' has more than 9 digits in its fraction of a second; nanoseconds are the finest precision taken\.$/,
    ],
    ['a query over 255 characters', { data: { search: { query: 'q'.repeat(256) } } }, '', '/data/search/query', /255/],
    ['an unknown property of data', { data: { filters: {} } }, '', '/data/filters', /filters/],
  ])('%s → 400 request.invalid at %s', async (_name, body, query, at, detail) => {
    const ws = await newWorkspace();
    const res = await search(ws.token, body, query);
    expectError(res, 'request.invalid', { source: { pointer: at }, detail });
  });

  it('filter.createdAt takes bounds in the years 0000–0099: from 0001-01-01 keeps every note, to it none', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    await note(c, 'First');
    await note(c, 'Second');
    for (const from of ['0001-01-01T00:00:00Z', '0099-12-31T23:59:59Z', '0000-01-01T00:00:00Z']) {
      const res = await search(ws.token, { data: { filter: { createdAt: { from } } } });
      expect(res.status, res.text).toBe(200);
      expect(names(res), from).toEqual(['Second', 'First']);
    }
    const none = await search(ws.token, { data: { filter: { createdAt: { to: '0001-01-01T00:00:00Z' } } } });
    expect(none.status, none.text).toBe(200);
    expect(none.json).toEqual({ data: [], links: {} });
  });

  it('fields[] and return.fields together → 400 on fields[]; either alone selects the fields', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    await note(c, 'Only');
    expectError(await search(ws.token, { data: { return: { fields: ['name'] } } }, '?fields[]=name'), 'request.invalid', {
      source: { parameter: 'fields[]' },
      detail: /both/i,
    });
    expect((await search(ws.token, {}, '?fields[]=name')).json.data[0].fields).toEqual({ name: 'Only' });
    expect((await search(ws.token, { data: { return: { fields: ['creator'] } } })).json.data[0].fields).toEqual({
      creator: { id: ws.admin.id, email: ws.admin.email },
    });
  });

  it('another workspace’s ids find nothing', async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    const ca = client(app, a.token);
    const feature = await ca.entity('feature', await ca.entity('product'));
    const acme = await ca.entity('company');
    const n = await note(ca, 'A only', { customer: acme, links: [feature], owner: a.admin.email });
    for (const filter of [
      { id: n },
      { relationships: { link: { id: feature } } },
      { relationships: { customer: { id: acme } } },
      { fields: { owner: { id: a.admin.id } } },
    ]) {
      expect((await search(b.token, { data: { filter } })).json, JSON.stringify(filter)).toEqual({ data: [], links: {} });
      expect(names(await search(a.token, { data: { filter } }))).toEqual(['A only']);
    }
  });

  it('pages with links.next; the cursor is bound to the body', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    for (const name of ['n1', 'n2', 'n3', 'n4', 'n5']) await note(c, name);
    const body = { data: { search: { query: 'n' } } };
    const first = await search(ws.token, body, '?limit=2');
    // Newest first.
    expect(names(first)).toEqual(['n5', 'n4']);
    const next = first.json.links.next as string;
    expect(new URL(next).pathname).toBe(new URL(`${app.baseUrl}/notes/search`).pathname);
    const second = await call(app, 'POST', next.slice(app.url.length), { token: ws.token, body });
    expect(names(second)).toEqual(['n3', 'n2']);
    const third = await call(app, 'POST', (second.json.links.next as string).slice(app.url.length), { token: ws.token, body });
    expect(third.json).toMatchObject({ links: {} });
    expect(names(third)).toEqual(['n1']);
    expectError(await call(app, 'POST', next.slice(app.url.length), { token: ws.token, body: { data: {} } }), 'request.invalid', {
      source: { parameter: 'pageCursor' },
    });
  });

  it('needs notes:read', async () => {
    const ws = await newWorkspace();
    const noRead = await ws.member({ role: 'admin', scopes: ['entities:read'] });
    expectError(await search(noRead.token, { data: {} }), 'auth.accessDenied');
  });
});
