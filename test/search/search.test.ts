// POST /v2/entities/search: the spec's body {data: {types, archived?, fields?}}, every mistake → 400 with a pointer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEntities } from '../pagination/seed.ts';
import { client } from '../score/helpers.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app.close();
});

const search = (token: string, body: unknown) => call(app, 'POST', '/v2/entities/search', { token, body });

describe('POST /v2/entities/search', () => {
  it('returns the entities of the given types, oldest first, as list records', async () => {
    const ws = await newWorkspace();
    const products = await seedEntities(ws.workspaceId, 2, { type: 'product' });
    const companies = await seedEntities(ws.workspaceId, 2, { type: 'company' });
    await seedEntities(ws.workspaceId, 2, { type: 'user' });
    const res = await search(ws.token, { data: { types: ['company', 'product'] } });
    expect(res.status).toBe(200);
    expect(res.json.data.map((e: any) => e.id)).toEqual([...products, ...companies].map((e) => e.id));
    expect(res.json.links).toEqual({});
    expect(res.json.data[0]).toEqual({
      id: products[0]!.id,
      type: 'product',
      fields: { name: 'product 0', archived: false },
      relationships: { data: [], links: {} },
      links: { self: `${app.baseUrl}/entities/${products[0]!.id}`, html: `${app.webUrl}/entities/${products[0]!.id}` },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('archived: true / false / omitted filters on the archived field', async () => {
    const ws = await newWorkspace();
    const all = await seedEntities(ws.workspaceId, 6, {
      type: 'feature',
      fields: (i) => ({ name: `f${i}`, ...(i % 2 ? { archived: true } : i === 2 ? { archived: false } : {}) }),
    });
    const ids = async (data: unknown) => (await search(ws.token, { data })).json.data.map((e: any) => e.id);
    expect(await ids({ types: ['feature'], archived: true })).toEqual([all[1], all[3], all[5]].map((e) => e!.id));
    expect(await ids({ types: ['feature'], archived: false })).toEqual([all[0], all[2], all[4]].map((e) => e!.id));
    expect(await ids({ types: ['feature'] })).toEqual(all.map((e) => e.id));
  });

  it('only the caller’s workspace is searched', async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    await seedEntities(a.workspaceId, 3, { type: 'product' });
    expect((await search(b.token, { data: { types: ['product'] } })).json).toEqual({ data: [], links: {} });
  });

  it.each<[string, unknown, string]>([
    ['no data', {}, '/data'],
    ['data not an object', { data: [] }, '/data'],
    ['extra top-level property', { data: { types: ['feature'] }, filter: {} }, '/filter'],
    ['extra data property', { data: { types: ['feature'], status: 'x' } }, '/data/status'],
    ['types missing', { data: {} }, '/data/types'],
    ['types not an array', { data: { types: 'feature' } }, '/data/types'],
    ['types empty', { data: { types: [] } }, '/data/types'],
    ['a type of the wrong JSON type', { data: { types: ['feature', 3] } }, '/data/types/1'],
    ['an unknown type name', { data: { types: ['feature', 'theme'] } }, '/data/types/1'],
    ['archived not a boolean', { data: { types: ['feature'], archived: 'yes' } }, '/data/archived'],
    ['fields neither all nor a list', { data: { types: ['feature'], fields: 'some' } }, '/data/fields'],
    ['body not an object', [1, 2], ''],
  ])('%s → 400 request.invalid with source.pointer %s', async (_name, body, at) => {
    const ws = await newWorkspace();
    expectError(await search(ws.token, body), 'request.invalid', { source: { pointer: at } });
  });

  it('an unknown type name is named in the detail', async () => {
    const ws = await newWorkspace();
    expectError(await search(ws.token, { data: { types: ['theme'] } }), 'request.invalid', { detail: /'theme'/, source: { pointer: '/data/types/0' } });
  });

  it('needs entities:read', async () => {
    const ws = await newWorkspace();
    const noRead = await ws.member({ role: 'admin', scopes: ['notes:read'] });
    expectError(await search(noRead.token, { data: { types: ['feature'] } }), 'auth.accessDenied');
  });
});

describe("POST /v2/entities/search in Productboard's form {data: {filter, return}}", () => {
  it('type, parent, name, owner, status, archived, id and createdAt filters, each alone and together; return.fields selects', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product', undefined, { name: 'Payments' });
    const checkout = await c.entity('component', product, { name: 'Checkout' });
    const apple = await c.entity('feature', checkout, { name: 'Apple Pay', status: { name: 'Planned' }, owner: { email: ws.admin.email } });
    const google = await c.entity('feature', checkout, { name: 'Google Pay', archived: true });
    const other = await c.entity('feature', product, { name: 'Other pay' });
    const names = async (filter: unknown) => {
      const res = await search(ws.token, { data: { filter } });
      expect(res.status, res.text).toBe(200);
      return res.json.data.map((e: { fields: { name: string } }) => e.fields.name);
    };
    expect(await names({ type: ['feature'] })).toEqual(['Apple Pay', 'Google Pay', 'Other pay']);
    // One type may be sent as a string, as Productboard's own example does.
    expect(await names({ type: 'component' })).toEqual(['Checkout']);
    expect(await names({ type: ['product', 'component'] })).toEqual(['Payments', 'Checkout']);
    expect(await names({ type: ['feature'], relationships: { parent: [{ id: checkout }] } })).toEqual(['Apple Pay', 'Google Pay']);
    expect(await names({ fields: { name: 'APPLE' } })).toEqual(['Apple Pay']);
    expect(await names({ fields: { owner: [{ email: ws.admin.email.toUpperCase() }, { id: ws.admin.id }] } })).toEqual(['Apple Pay']);
    expect(await names({ fields: { status: [{ name: 'planned' }] } })).toEqual(['Apple Pay']);
    // Status values are alternatives: one no status has (Productboard's structured_filter example names "At Risk") adds none.
    expect(await names({ type: ['feature'], fields: { status: [{ name: 'Planned' }, { name: 'At Risk' }] } })).toEqual(['Apple Pay']);
    expect(await names({ fields: { status: [{ name: 'At Risk' }, { id: '3f0c7c2e-1111-4c1e-9a1a-000000000001' }] } })).toEqual([]);
    expect(await names({ type: ['feature'], fields: { archived: false } })).toEqual(['Apple Pay', 'Other pay']);
    expect(await names({ id: [google, other] })).toEqual(['Google Pay', 'Other pay']);
    const created = (await c.ok('GET', `/entities/${google}`)).json.data.createdAt as string;
    expect(await names({ type: ['feature'], createdAt: { from: created } })).toEqual(['Google Pay', 'Other pay']);
    expect(await names({})).toHaveLength(5);
    const picked = await search(ws.token, { data: { filter: { id: [apple] }, return: { fields: ['name'] } } });
    expect(picked.json.data[0].fields).toEqual({ name: 'Apple Pay' });
  });

  it.each<[string, unknown, string, RegExp?]>([
    ['the two forms mixed', { data: { types: ['feature'], filter: {} } }, '/data', /mixes/],
    [
      'a custom field filter',
      { data: { filter: { fields: { '3f0c7c2e-1111-4c1e-9a1a-000000000001': { eq: 'x' } } } } },
      '/data/filter/fields/3f0c7c2e-1111-4c1e-9a1a-000000000001',
      /This field cannot be filtered on \(custom fields and the other standard fields are not supported\); filter by name, archived, owner, status or teams\./,
    ],
    [
      'a standard field that takes no filter',
      { data: { filter: { fields: { timeframe: { eq: 'x' } } } } },
      '/data/filter/fields/timeframe',
      /This field cannot be filtered on .*filter by name, archived, owner, status or teams\./,
    ],
    [
      'a customer',
      { data: { filter: { relationships: { customer: [{ id: '3f0c7c2e-1111-4c1e-9a1a-000000000001' }] } } } },
      '/data/filter/relationships/customer',
      /notes\/search/,
    ],
    [
      'an empty range',
      { data: { filter: { createdAt: { from: '2030-01-02T00:00:00Z', to: '2030-01-01T00:00:00Z' } } } },
      '/data/filter/createdAt',
      /later than/,
    ],
    ['an unknown filter', { data: { filter: { colour: 'red' } } }, '/data/filter/colour'],
    ['a type of no kind, as a string', { data: { filter: { type: 'epic' } } }, '/data/filter/type'],
    ['an empty list of types', { data: { filter: { type: [] } } }, '/data/filter/type'],
    ['a status id that is no uuid', { data: { filter: { fields: { status: [{ id: 'in-progress' }] } } } }, '/data/filter/fields/status/0/id', /must be a UUID/],
    ['a blank status name', { data: { filter: { fields: { status: [{ name: ' ' }] } } } }, '/data/filter/fields/status/0/name', /visible character/],
  ])('%s → 400 request.invalid at %s', async (_name, body, at, detail) => {
    const ws = await newWorkspace();
    expectError(await search(ws.token, body), 'request.invalid', { source: { pointer: at }, ...(detail ? { detail } : {}) });
  });
});
