import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '#lib/http/pagination.ts';
import * as keys from '#lib/store/keys.ts';
import { NOTE_LIST_ORDER } from '#lib/store/pages.ts';
import { seedEntities, seedLinks, seedNotes } from './seed.ts';
import { ids, walk } from './walk.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

// Walks of hundreds of items make hundreds of requests; on a loaded machine they need more than
// the default 30 s. This is a guard against hangs, not a speed goal (bench/ has those).
const WALK_TIMEOUT = 180_000;

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app.close();
});

describe('cursor pagination of GET /v2/entities', () => {
  it(
    'a client following links.next over 1 000 entities sees each exactly once, in creation order',
    async () => {
      const ws = await newWorkspace();
      const product = (await seedEntities(ws.workspaceId, 1, { type: 'product' }))[0]!;
      const features = await seedEntities(ws.workspaceId, 999, { type: 'feature', parent: product });
      const w = await walk(app, ws.token, '/v2/entities');
      expect(w.pages.map((p) => p.data.length)).toEqual([100, 100, 100, 100, 100, 100, 100, 100, 100, 100]);
      expect(new Set(ids(w.items)).size).toBe(1000);
      expect(ids(w.items)).toEqual([product.id, ...ids(features)]);
      // The last full page is the last page: no next link pointing at an empty page.
      expect(w.pages.at(-1)!.links).toEqual({});
    },
    WALK_TIMEOUT,
  );

  it(
    'links.next repeats every query parameter of the request and adds pageCursor',
    async () => {
      const ws = await newWorkspace();
      await seedEntities(ws.workspaceId, 260, { type: 'component' });
      await seedEntities(ws.workspaceId, 5, { type: 'product' });
      const w = await walk(app, ws.token, '/v2/entities?type[]=component&fields[]=name&limit=40');
      expect(w.pages.map((p) => p.data.length)).toEqual([40, 40, 40, 40, 40, 40, 20]);
      expect(new Set(ids(w.items)).size).toBe(260);
      expect(w.items.every((e) => e.type === 'component')).toBe(true);
      for (const next of w.nexts) {
        const u = new URL(next);
        expect(u.origin + u.pathname).toBe(`${app.baseUrl}/entities`);
        expect([...u.searchParams.keys()]).toEqual(['type[]', 'fields[]', 'limit', 'pageCursor']);
        expect([u.searchParams.get('type[]'), u.searchParams.get('fields[]'), u.searchParams.get('limit')]).toEqual(['component', 'name', '40']);
      }
      // The cursor changes from page to page.
      expect(new Set(w.nexts.map((n) => new URL(n).searchParams.get('pageCursor'))).size).toBe(w.nexts.length);
    },
    WALK_TIMEOUT,
  );

  it(
    '`type` and repeated `type[]` filter across types, merged in one creation order',
    async () => {
      const ws = await newWorkspace();
      const a = await seedEntities(ws.workspaceId, 120, { type: 'product' });
      const b = await seedEntities(ws.workspaceId, 140, { type: 'company' });
      await seedEntities(ws.workspaceId, 30, { type: 'user' });
      const w = await walk(app, ws.token, '/v2/entities?type[]=company&type[]=product&limit=50');
      expect(ids(w.items)).toEqual([...ids(a), ...ids(b)]);
      const single = await walk(app, ws.token, '/v2/entities?type=user&limit=100');
      expect(single.items).toHaveLength(30);
      expect(single.pages).toHaveLength(1);
    },
    WALK_TIMEOUT,
  );

  it(
    'an exact multiple of the page size ends without an empty page',
    async () => {
      const ws = await newWorkspace();
      await seedEntities(ws.workspaceId, 250, { type: 'product' });
      const w = await walk(app, ws.token, '/v2/entities?limit=50');
      expect(w.pages.map((p) => p.data.length)).toEqual([50, 50, 50, 50, 50]);
    },
    WALK_TIMEOUT,
  );

  it(
    'walking while others insert returns every entity that existed at the start exactly once',
    async () => {
      const ws = await newWorkspace();
      const existing = await seedEntities(ws.workspaceId, 260, { type: 'feature' });
      const w = await walk(app, ws.token, '/v2/entities?limit=25', {
        between: async () => {
          await seedEntities(ws.workspaceId, 7, { type: 'feature' });
          await seedEntities(ws.workspaceId, 3, { type: 'product' });
        },
      });
      const seen = ids(w.items);
      expect(new Set(seen).size).toBe(seen.length);
      for (const e of existing) expect(seen.filter((id) => id === e.id)).toHaveLength(1);
      expect(seen.slice(0, 260)).toEqual(ids(existing));
    },
    WALK_TIMEOUT,
  );

  it('an empty list is one page with empty data and no next link', async () => {
    const ws = await newWorkspace();
    const res = await call(app, 'GET', '/v2/entities', { token: ws.token });
    expect(res.json).toEqual({ data: [], links: {} });
  });

  it('lists only the caller’s workspace', async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    await seedEntities(a.workspaceId, 3, { type: 'product' });
    const res = await call(app, 'GET', '/v2/entities', { token: b.token });
    expect(res.json).toEqual({ data: [], links: {} });
  });
});

describe('cursor errors', () => {
  async function firstNext(token: string, path: string): Promise<string> {
    const res = await call(app, 'GET', path, { token });
    expect(res.status, res.text).toBe(200);
    return res.json.links.next as string;
  }
  const cursorOf = (next: string) => new URL(next).searchParams.get('pageCursor')!;

  it('a tampered cursor → 400 request.invalid with source.parameter pageCursor (exact envelope)', async () => {
    const ws = await newWorkspace();
    await seedEntities(ws.workspaceId, 5, { type: 'product' });
    const cursor = cursorOf(await firstNext(ws.token, '/v2/entities?limit=2'));
    const [payload, sig] = cursor.split('.') as [string, string];
    const tampered = `${Buffer.from(JSON.stringify({ k: '0' })).toString('base64url')}.${sig}`;
    expect(tampered).not.toBe(cursor);
    for (const bad of [tampered, `${payload}.${sig.slice(1)}`, 'garbled', `${payload}`]) {
      const res = await call(app, 'GET', `/v2/entities?limit=2&pageCursor=${encodeURIComponent(bad)}`, { token: ws.token });
      expectError(res, 'request.invalid', { source: { parameter: 'pageCursor' }, detail: /pageCursor/ });
    }
  });

  it("a real cursor is opaque: its bytes hold nothing of the page's last entity (id, creation time) and no key layout", async () => {
    const ws = await newWorkspace();
    await seedEntities(ws.workspaceId, 3, { type: 'product' });
    const page = await call(app, 'GET', '/v2/entities?limit=2', { token: ws.token });
    const last = page.json.data[1];
    const cursor = cursorOf(page.json.links.next);
    const revealing = [last.id.slice(0, 8), last.id.slice(-8), last.createdAt.slice(0, 10), last.createdAt.slice(11, 19)];
    for (const bytes of cursor.split('.').map((p) => Buffer.from(p, 'base64url').toString('latin1'))) {
      expect(revealing.filter((r: string) => bytes.includes(r))).toEqual([]);
      // Patterns of three or more bytes: random ciphertext hits a two-byte one (say `Z#`) about once in 300 cursors.
      expect(bytes).not.toMatch(/WS#|ENT#|Z#[0-9a-f]{8}|"k"|"pk"|"sk"/);
    }
    expect(
      (await call(app, 'GET', `/v2/entities?limit=2&pageCursor=${encodeURIComponent(cursor)}`, { token: ws.token })).json.data.map((e: { id: string }) => e.id),
    ).toHaveLength(1);
  });

  it('a cursor replayed on a different query → 400 (filter, limit, fields, operation, workspace)', async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    await seedEntities(ws.workspaceId, 5, { type: 'product' });
    await seedNotes(ws.workspaceId, 5);
    const cursor = encodeURIComponent(cursorOf(await firstNext(ws.token, '/v2/entities?type=product&limit=2')));
    // The same query continues.
    const ok = await call(app, 'GET', `/v2/entities?type=product&limit=2&pageCursor=${cursor}`, { token: ws.token });
    expect(ok.status).toBe(200);
    for (const [token, path] of [
      [ws.token, `/v2/entities?type=feature&limit=2&pageCursor=${cursor}`],
      [ws.token, `/v2/entities?type=product&limit=3&pageCursor=${cursor}`],
      [ws.token, `/v2/entities?type=product&pageCursor=${cursor}`],
      [ws.token, `/v2/entities?type=product&limit=2&fields[]=name&pageCursor=${cursor}`],
      [ws.token, `/v2/notes?limit=2&pageCursor=${cursor}`],
      [other.token, `/v2/entities?type=product&limit=2&pageCursor=${cursor}`],
    ] as const) {
      expectError(await call(app, 'GET', path, { token }), 'request.invalid', { source: { parameter: 'pageCursor' } });
    }
  });

  it('a search cursor replayed with another body → 400', async () => {
    const ws = await newWorkspace();
    await seedEntities(ws.workspaceId, 5, { type: 'product' });
    const res = await call(app, 'POST', '/v2/entities/search?limit=2', { token: ws.token, body: { data: { types: ['product'] } } });
    const next = res.json.links.next as string;
    expect(new URL(next).searchParams.get('limit')).toBe('2');
    const again = await call(app, 'POST', next.slice(app.url.length), { token: ws.token, body: { data: { types: ['product'], archived: false } } });
    expectError(again, 'request.invalid', { source: { parameter: 'pageCursor' } });
  });

  it.each(['0', '101', 'ten', '2.5', '-3'])('limit=%s → 400 request.invalid on limit', async (limit) => {
    const ws = await newWorkspace();
    for (const path of ['/v2/entities', '/v2/notes']) {
      expectError(await call(app, 'GET', `${path}?limit=${limit}`, { token: ws.token }), 'request.invalid', {
        source: { parameter: 'limit' },
        detail: /limit/,
      });
    }
  });
});

describe('cursor pagination of the other lists', () => {
  it(
    'POST /v2/entities/search walks 250+ matches; the filter is applied before paging',
    async () => {
      const ws = await newWorkspace();
      const all = await seedEntities(ws.workspaceId, 300, { type: 'feature', fields: (i) => ({ name: `f${i}`, archived: i % 3 === 0 }) });
      const body = { data: { types: ['feature'], archived: false } };
      const w = await walk(app, ws.token, '/v2/entities/search?limit=30', { method: 'POST', body });
      expect(ids(w.items)).toEqual(ids(all.filter((_, i) => i % 3 !== 0)));
      expect(w.items).toHaveLength(200);
      expect(w.pages.map((p) => p.data.length)).toEqual([30, 30, 30, 30, 30, 30, 20]);
      for (const n of w.nexts) expect(new URL(n).pathname).toBe(new URL(`${app.baseUrl}/entities/search`).pathname);
    },
    WALK_TIMEOUT,
  );

  it(
    'GET /v2/notes walks 250+ notes newest first; a cursor of the oldest-first order is refused, not misread',
    async () => {
      const ws = await newWorkspace();
      const notes = await seedNotes(ws.workspaceId, 270);
      const w = await walk(app, ws.token, '/v2/notes?limit=100&fields=name');
      expect(ids(w.items)).toEqual(ids(notes).reverse());
      expect(w.pages.map((p) => p.data.length)).toEqual([100, 100, 70]);
      for (const n of w.nexts) expect([...new URL(n).searchParams.keys()]).toEqual(['limit', 'fields', 'pageCursor']);
      // The cursor the list gave while it ran oldest first: the same query, its position the 100th
      // oldest note, bound to no order. Read in the new order it would skip the newest 170 notes.
      const oldScope = {
        operationId: 'listNotes',
        workspaceId: ws.workspaceId,
        params: {},
        query: [
          ['limit', '100'],
          ['fields', 'name'],
        ] as Array<[string, string]>,
      };
      const oldCursor = await encodeCursor(oldScope, keys.listPosition(notes[99]!.createdAt, notes[99]!.id));
      const res = await call(app, 'GET', `/v2/notes?limit=100&fields=name&pageCursor=${oldCursor}`, { token: ws.token });
      expectError(res, 'request.invalid', { source: { parameter: 'pageCursor' } });
      // The same position bound to the new order is a cursor the list accepts (the forgery above differs only in its order).
      const newCursor = await encodeCursor({ ...oldScope, order: NOTE_LIST_ORDER }, keys.listPosition(notes[99]!.createdAt, notes[99]!.id));
      const next = await call(app, 'GET', `/v2/notes?limit=100&fields=name&pageCursor=${newCursor}`, { token: ws.token });
      expect(next.status).toBe(200);
      expect(ids(next.json.data)).toEqual(ids(notes.slice(0, 99)).reverse());
    },
    WALK_TIMEOUT,
  );

  it(
    'GET /v2/entities/{id}/relationships walks the parent then 250+ children; type filters',
    async () => {
      const ws = await newWorkspace();
      const product = (await seedEntities(ws.workspaceId, 1, { type: 'product' }))[0]!;
      const component = (await seedEntities(ws.workspaceId, 1, { type: 'component', parent: product }))[0]!;
      const children = await seedEntities(ws.workspaceId, 260, { type: 'feature', parent: component });
      const w = await walk(app, ws.token, `/v2/entities/${component.id}/relationships?limit=40`);
      expect(w.items).toHaveLength(261);
      expect(w.items[0]).toEqual({
        type: 'parent',
        target: { id: product.id, type: 'product', links: { self: `${app.baseUrl}/entities/${product.id}`, html: `${app.webUrl}/entities/${product.id}` } },
      });
      expect(w.items.slice(1).map((r) => [r.type, r.target.id, r.target.type])).toEqual(children.map((c) => ['child', c.id, 'feature']));
      const onlyChildren = await walk(app, ws.token, `/v2/entities/${component.id}/relationships?type=child&limit=100`);
      expect(onlyChildren.items.map((r) => r.target.id)).toEqual(ids(children));
      const onlyParent = await call(app, 'GET', `/v2/entities/${component.id}/relationships?type=parent`, { token: ws.token });
      expect(onlyParent.json.data.map((r: any) => r.target.id)).toEqual([product.id]);
      expectError(await call(app, 'GET', `/v2/entities/${component.id}/relationships?type=sibling`, { token: ws.token }), 'request.invalid', {
        source: { parameter: 'type' },
      });
    },
    WALK_TIMEOUT,
  );

  it(
    'GET /v2/notes/{id}/relationships walks the customer then 250+ links',
    async () => {
      const ws = await newWorkspace();
      const company = (await seedEntities(ws.workspaceId, 1, { type: 'company' }))[0]!;
      const note = (await seedNotes(ws.workspaceId, 1, { customer: company }))[0]!;
      const features = await seedEntities(ws.workspaceId, 255, { type: 'feature' });
      await seedLinks(ws.workspaceId, note.id, features, 'critical');
      const w = await walk(app, ws.token, `/v2/notes/${note.id}/relationships?limit=60`);
      expect(w.items).toHaveLength(256);
      expect(w.items[0]).toEqual({
        type: 'customer',
        target: { id: company.id, type: 'company', links: { self: `${app.baseUrl}/entities/${company.id}`, html: `${app.webUrl}/entities/${company.id}` } },
      });
      expect(w.items.slice(1).map((r) => r.target.id)).toEqual(ids(features).sort());
      expect(w.items.slice(1).every((r) => r.type === 'link' && r.importance === 'critical' && r.target.type === 'feature')).toBe(true);
    },
    WALK_TIMEOUT,
  );

  it('relationships of another workspace’s entity or note → 404 resource.notFound', async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    const e = (await seedEntities(a.workspaceId, 1, { type: 'product' }))[0]!;
    const n = (await seedNotes(a.workspaceId, 1))[0]!;
    expectError(await call(app, 'GET', `/v2/entities/${e.id}/relationships`, { token: b.token }), 'resource.notFound');
    expectError(await call(app, 'GET', `/v2/notes/${n.id}/relationships`, { token: b.token }), 'resource.notFound');
    // A note id is not an entity id.
    expectError(await call(app, 'GET', `/v2/entities/${n.id}/relationships`, { token: a.token }), 'resource.notFound');
    expectError(await call(app, 'GET', '/v2/entities/not-a-uuid/relationships', { token: a.token }), 'request.invalid', { source: { parameter: 'id' } });
  });
});

describe('paginated attributes (spec pagination rule 6)', () => {
  it(
    "an entity's relationships hold 20 items inline and links.next continues at /v2/entities/{id}/relationships",
    async () => {
      const ws = await newWorkspace();
      const product = (await seedEntities(ws.workspaceId, 1, { type: 'product' }))[0]!;
      const components = await seedEntities(ws.workspaceId, 45, { type: 'component', parent: product });
      const res = await call(app, 'GET', '/v2/entities?type=product', { token: ws.token });
      const rel = res.json.data[0].relationships;
      expect(rel.data).toHaveLength(20);
      expect(rel.data.map((r: any) => r.target.id)).toEqual(ids(components.slice(0, 20)));
      const next = new URL(rel.links.next);
      expect(next.origin + next.pathname).toBe(`${app.baseUrl}/entities/${product.id}/relationships`);
      expect([...next.searchParams.keys()]).toEqual(['pageCursor']);
      const rest = await walk(app, ws.token, rel.links.next.slice(app.url.length));
      expect(rest.items.map((r) => r.target.id)).toEqual(ids(components.slice(20)));
      // A component with its parent and no children: everything inline, no next link.
      const child = await call(app, 'GET', '/v2/entities?type=component&limit=1', { token: ws.token });
      expect(child.json.data[0].relationships).toEqual({
        data: [
          {
            type: 'parent',
            target: { id: product.id, type: 'product', links: { self: `${app.baseUrl}/entities/${product.id}`, html: `${app.webUrl}/entities/${product.id}` } },
          },
        ],
        links: {},
      });
    },
    WALK_TIMEOUT,
  );

  it(
    "a note's relationships: customer and links, 20 inline, links.next continues at /v2/notes/{id}/relationships",
    async () => {
      const ws = await newWorkspace();
      const user = (await seedEntities(ws.workspaceId, 1, { type: 'user' }))[0]!;
      const note = (await seedNotes(ws.workspaceId, 1, { customer: user }))[0]!;
      const features = await seedEntities(ws.workspaceId, 24, { type: 'feature' });
      await seedLinks(ws.workspaceId, note.id, features, 'nice to have');
      const byEntityId = ids(features).sort();
      for (const path of [`/v2/notes/${note.id}`, '/v2/notes']) {
        const res = await call(app, 'GET', path, { token: ws.token });
        const rel = (Array.isArray(res.json.data) ? res.json.data[0] : res.json.data).relationships;
        expect(rel.data).toHaveLength(20);
        expect(rel.data[0]).toEqual({
          type: 'customer',
          target: { id: user.id, type: 'user', links: { self: `${app.baseUrl}/entities/${user.id}`, html: `${app.webUrl}/entities/${user.id}` } },
        });
        expect(rel.data[1]).toEqual({
          type: 'link',
          target: {
            id: byEntityId[0],
            type: 'feature',
            links: { self: `${app.baseUrl}/entities/${byEntityId[0]}`, html: `${app.webUrl}/entities/${byEntityId[0]}` },
          },
          importance: 'nice to have',
        });
        const next = new URL(rel.links.next);
        expect(next.origin + next.pathname).toBe(`${app.baseUrl}/notes/${note.id}/relationships`);
        const rest = await walk(app, ws.token, rel.links.next.slice(app.url.length));
        expect(rest.items.map((r) => r.target.id)).toEqual(byEntityId.slice(19));
      }
    },
    WALK_TIMEOUT,
  );
});
