// Productboard's list filters over HTTP: GET /v2/entities and GET /v2/notes answer each filter
// (every filter given must hold), refuse what the data model cannot answer with the reason, and
// refuse a bad value with source.parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_STATUSES } from '#lib/domain/statuses.ts';
import { client } from '../score/helpers.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const planned = FEATURE_STATUSES.find((s) => s.name === 'Planned')!;

/** A small product tree: Payments ⊃ Checkout ⊃ {Apple Pay (planned, admin's), Google Pay (maker's), Legacy (archived)}, Wallets ⊃ Watch pay. */
async function tree() {
  const ws = await newWorkspace();
  const maker = await ws.member({ role: 'maker' });
  const c = client(app, ws.token);
  const payments = await c.entity('product', undefined, { name: 'Payments' });
  const checkout = await c.entity('component', payments, { name: 'Checkout' });
  const wallets = await c.entity('component', payments, { name: 'Wallets' });
  const apple = await c.entity('feature', checkout, { name: 'Apple Pay', status: { id: planned.id }, owner: { email: ws.admin.email } });
  const google = await c.entity('feature', checkout, { name: 'Google Pay', owner: { email: maker.member.email } });
  const legacy = await c.entity('feature', checkout, { name: 'Legacy billing', archived: true });
  const watch = await c.entity('feature', wallets, { name: 'Watch pay' });
  const sub = await c.entity('subfeature', apple, { name: 'apple pay refunds', status: { name: 'planned' } });
  const names = async (qs: string) => {
    const res = await c.req('GET', `/entities?${qs}`);
    expect(res.status, res.text).toBe(200);
    return res.json.data.map((e: { fields: { name: string } }) => e.fields.name);
  };
  return { ws, maker, c, names, ids: { payments, checkout, wallets, apple, google, legacy, watch, sub } };
}

describe('GET /v2/entities filters', () => {
  it('type[]=feature&parent[id]=<component> returns exactly that component’s features', async () => {
    const { names, ids } = await tree();
    expect(await names(`type[]=feature&parent[id]=${ids.checkout}`)).toEqual(['Apple Pay', 'Google Pay', 'Legacy billing']);
    expect(await names(`type[]=feature&parent[id]=${ids.wallets}`)).toEqual(['Watch pay']);
    expect(await names(`parent[id]=${ids.apple}`)).toEqual(['apple pay refunds']);
    expect(await names(`type[]=component&parent[id]=${ids.checkout}`)).toEqual([]);
  });

  it('name (case-insensitive part), owner by id or e-mail, status by id or name, archived, and their conjunction', async () => {
    const { ws, maker, names } = await tree();
    expect(await names('name=APPLE%20pay')).toEqual(['Apple Pay', 'apple pay refunds']);
    expect(await names(`owner[id]=${ws.admin.id}`)).toEqual(['Apple Pay']);
    expect(await names(`owner[email]=${encodeURIComponent(maker.member.email.toUpperCase())}`)).toEqual(['Google Pay']);
    expect(await names(`owner[id]=${ws.admin.id}&owner[email]=${encodeURIComponent(maker.member.email)}`)).toEqual([]);
    expect(await names('owner[email]=nobody%40example.com')).toEqual([]);
    expect(await names(`status[id]=${planned.id}`)).toEqual(['Apple Pay', 'apple pay refunds']);
    expect(await names('status[name]=PLANNED&type[]=subfeature')).toEqual(['apple pay refunds']);
    expect(await names('type[]=feature&archived=true')).toEqual(['Legacy billing']);
    expect(await names('type[]=feature&archived=false')).toEqual(['Apple Pay', 'Google Pay', 'Watch pay']);
    expect(await names('name=pay&archived=false&type[]=feature')).toEqual(['Apple Pay', 'Google Pay', 'Watch pay']);
  });

  it('a status no type has, by name or by id, matches nothing, as an unknown team or owner does', async () => {
    const { names } = await tree();
    expect(await names('type[]=feature&status[name]=At%20Risk')).toEqual([]);
    expect(await names('status[id]=3f0c7c2e-1111-4c1e-9a1a-000000000001')).toEqual([]);
    expect(await names(`status[id]=${planned.id}&status[name]=Someday`)).toEqual([]);
    expect(await names('teams[name]=No%20such%20team')).toEqual([]);
  });

  it('another workspace’s parent or owner is a filter that matches nothing', async () => {
    const { ids } = await tree();
    const other = await tree();
    expect(await other.names(`parent[id]=${ids.checkout}`)).toEqual([]);
    const { ws } = await tree();
    expect(await other.names(`owner[id]=${ws.admin.id}`)).toEqual([]);
  });

  it.each<[string, string, RegExp]>([
    ['parent[id]=nope', 'parent[id]', /must be a UUID/],
    ['owner[email]=not-an-address', 'owner[email]', /e-mail/],
    ['status[id]=in-progress', 'status[id]', /must be a UUID/],
    ['status[name]=', 'status[name]', /must not be empty/],
    ['archived=yes', 'archived', /boolean/],
    ['name=a&name=b', 'name', /given 2 times/],
    ['limit[]=5', 'limit[]', /Unknown query parameter 'limit\[\]'/],
    ['foo=bar', 'foo', /Unknown query parameter 'foo'/],
  ])('%s → 400 request.invalid at that parameter', async (qs, name, detail) => {
    const ws = await newWorkspace();
    const res = await client(app, ws.token).req('GET', `/entities?${qs}`);
    expectError(res, 'request.invalid', { source: { parameter: name }, detail });
  });
});

describe('GET /v2/notes filters', () => {
  it('owner and creator by id or e-mail, processed, archived, source, created and updated ranges', async () => {
    const ws = await newWorkspace();
    const maker = await ws.member({ role: 'maker' });
    const c = client(app, ws.token);
    const note = async (name: string, fields: Record<string, unknown>) =>
      (await c.ok('POST', '/notes', { data: { type: 'textNote', fields: { name, ...fields } } })).json.data.id as string;
    const first = await note('Wants Apple Pay', { owner: { email: ws.admin.email } });
    const second = await note('Google Pay please', { owner: { email: maker.member.email } });
    const names = async (qs: string) => {
      const res = await c.req('GET', `/notes?${qs}`);
      expect(res.status, res.text).toBe(200);
      return res.json.data.map((n: { fields: { name: string } }) => n.fields.name);
    };
    expect(await names(`owner[id]=${ws.admin.id}`)).toEqual(['Wants Apple Pay']);
    expect(await names(`owner[email]=${encodeURIComponent(maker.member.email)}`)).toEqual(['Google Pay please']);
    const created = async (id: string) => (await c.ok('GET', `/notes/${id}`)).json.data.createdAt as string;
    const [t1, t2] = [await created(first), await created(second)];
    expect(await names(`createdFrom=${encodeURIComponent(t2)}`)).toEqual(['Google Pay please']);
    expect(await names(`createdTo=${encodeURIComponent(t1)}`)).toEqual(['Wants Apple Pay']);
    // The same instant in another zone.
    const shifted = new Date(Date.parse(t2)).toISOString().replace('Z', '+00:00');
    expect(await names(`createdFrom=${encodeURIComponent(shifted)}&createdTo=${encodeURIComponent(shifted)}`)).toEqual(['Google Pay please']);
    expect(await names('updatedTo=2000-01-01T00:00:00Z')).toEqual([]);
    // Newest first.
    expect(await names('updatedFrom=2000-01-01T00:00:00Z&processed=false&archived=false')).toEqual(['Google Pay please', 'Wants Apple Pay']);
    expect(await names('processed=true')).toEqual([]);
    expect(await names('metadata[source][system]=zendesk')).toEqual([]);
    expect(await names('creator[email]=nobody%40example.com')).toEqual([]);
  });

  it('years 0000–0099 are bounds like any other: the zero time Go and .NET send as an open lower bound keeps every note', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    for (const name of ['First', 'Second']) await c.ok('POST', '/notes', { data: { type: 'textNote', fields: { name } } });
    const names = async (qs: string) => {
      const res = await c.req('GET', `/notes?${qs}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.links).toEqual({});
      return res.json.data.map((n: { fields: { name: string } }) => n.fields.name);
    };
    for (const from of ['0001-01-01T00:00:00Z', '0099-12-31T23:59:59Z', '0000-01-01T00:00:00Z', '0000-02-29T00:00:00.123456789+00:00']) {
      expect(await names(`createdFrom=${encodeURIComponent(from)}`), from).toEqual(['Second', 'First']);
    }
    for (const to of ['0001-01-01T00:00:00Z', '0099-12-31T23:59:59Z', '0000-01-01T00:00:00Z']) {
      expect(await names(`createdTo=${encodeURIComponent(to)}`), to).toEqual([]);
    }
    expect(await names('createdFrom=0001-01-01T00:00:00Z&createdTo=0099-12-31T23:59:59Z')).toEqual([]);
  });

  it.each<[string, string, RegExp]>([
    [
      'createdFrom=2026-01-01T00:00:00.1234567890123Z',
      'createdFrom',
      /^Query parameter 'createdFrom' has more than 9 digits in its fraction of a second; nanoseconds are the finest precision taken\.$/,
    ],
    ['createdFrom=yesterday', 'createdFrom', /must be a date and time/],
    ['createdFrom=2030-01-02T00:00:00Z&createdTo=2030-01-01T00:00:00Z', 'createdFrom', /later than 'createdTo'/],
    ['processed=1', 'processed', /boolean/],
    ['creator[id]=x', 'creator[id]', /must be a UUID/],
    ['teams[id]=x', 'teams[id]', /Unknown query parameter/],
  ])('%s → 400 request.invalid at that parameter', async (qs, name, detail) => {
    const ws = await newWorkspace();
    const res = await client(app, ws.token).req('GET', `/notes?${qs}`);
    expectError(res, 'request.invalid', { source: { parameter: name }, detail });
  });
});
