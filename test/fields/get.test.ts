// The Fields table on retrieve entity and retrieve note, and custom field values written through
// create/update — all data built through the HTTP API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldCommands } from '../../local/admin/fields.ts';
import { call, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

const fieldAdd = fieldCommands.find((c) => c.name === 'field add')!;
const addField = async (ws: string, entityType: string, name: string, kind: string, options?: string) =>
  ((await fieldAdd.run({ workspace: ws, 'entity-type': entityType, name, kind, ...(options ? { options } : {}) })) as { id: string }).id;

let app: TestApp;
let ws: TestWorkspace;
let size: string;
let effort: string;
let due: string;
let revenue: string;
let product: string;
let feature: string;
let note: string;

async function create(path: string, data: unknown): Promise<string> {
  const res = await call(app, 'POST', path, { token: ws.token, body: { data } });
  expect(res.status, res.text).toBe(201);
  return res.json.data.id;
}
const get = (path: string) => call(app, 'GET', path, { token: ws.token });
/** A select field's option as it reads: {id, name}. */
const option = (name: string) => ({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name });

beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace();
  size = await addField(ws.workspaceId, 'feature', 'Size', 'select', 'S,M,L');
  effort = await addField(ws.workspaceId, 'feature', 'Effort', 'number');
  due = await addField(ws.workspaceId, 'feature', 'Due', 'date');
  revenue = await addField(ws.workspaceId, 'textNote', 'Revenue', 'number');
  product = await create('/v2/entities', { type: 'product', fields: { name: 'P' } });
  feature = await create('/v2/entities', {
    type: 'feature',
    fields: { name: 'F', tags: [{ name: 'api' }], [size]: 'M', [effort]: 0 },
    relationships: [{ type: 'parent', target: { id: product } }],
  });
  note = await create('/v2/notes', { type: 'textNote', fields: { name: 'N', [revenue]: 1200 } });
});
afterAll(async () => {
  await app.close();
});

describe('fields on GET /v2/entities/{id}', () => {
  it('parameter omitted → only non-empty fields (custom values by uuid; 0 is a value)', async () => {
    const res = await get(`/v2/entities/${feature}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.fields).toEqual({ name: 'F', tags: [{ id: expect.any(String), name: 'api' }], archived: false, [size]: option('M'), [effort]: 0 });
  });

  it('fields[]=all → every configured field, nulls included', async () => {
    const res = await get(`/v2/entities/${feature}?fields[]=all`);
    expect(res.json.data.fields).toEqual({
      name: 'F',
      description: null,
      status: null,
      owner: null,
      tags: [{ id: expect.any(String), name: 'api' }],
      teams: null,
      timeframe: null,
      archived: false,
      [size]: option('M'),
      [effort]: 0,
      [due]: null,
    });
  });

  it('a list → exactly those fields, even when null', async () => {
    const res = await get(`/v2/entities/${feature}?fields[]=${due}&fields[]=name&fields[]=owner`);
    expect(res.json.data.fields).toEqual({ [due]: null, name: 'F', owner: null });
  });

  it('unknown identifier → 400 request.invalid naming it, source.parameter fields[]', async () => {
    expectError(await get(`/v2/entities/${feature}?fields[]=email`), 'request.invalid', {
      detail: /Unknown field identifier 'email'/,
      source: { parameter: 'fields[]' },
    });
    // A custom field of the feature type is not a field of the product.
    expectError(await get(`/v2/entities/${product}?fields[]=${size}`), 'request.invalid', { detail: new RegExp(size), source: { parameter: 'fields[]' } });
  });

  it('`all` with identifiers → 400 with source.parameter', async () => {
    expectError(await get(`/v2/entities/${feature}?fields[]=name&fields[]=all`), 'request.invalid', { source: { parameter: 'fields[]' } });
  });

  it('another workspace’s entity → 404 whatever the fields', async () => {
    const other = await newWorkspace();
    expectError(await call(app, 'GET', `/v2/entities/${feature}?fields[]=all`, { token: other.token }), 'resource.notFound');
  });
});

describe('fields on GET /v2/notes/{id}', () => {
  it('omitted / all / list, with `fields` and `fields[]`', async () => {
    const creator = { id: ws.admin.id, email: ws.admin.email };
    expect((await get(`/v2/notes/${note}`)).json.data.fields).toEqual({ name: 'N', creator, processed: false, archived: false, [revenue]: 1200 });
    const all = { name: 'N', content: null, tags: null, owner: null, creator, processed: false, archived: false, [revenue]: 1200 };
    expect((await get(`/v2/notes/${note}?fields=all`)).json.data.fields).toEqual(all);
    expect((await get(`/v2/notes/${note}?fields[]=all`)).json.data.fields).toEqual(all);
    expect((await get(`/v2/notes/${note}?fields=content&fields[]=${revenue}`)).json.data.fields).toEqual({ content: null, [revenue]: 1200 });
  });

  it('unknown identifier → 400 on the parameter it came in', async () => {
    expectError(await get(`/v2/notes/${note}?fields=status`), 'request.invalid', { detail: /'status'/, source: { parameter: 'fields' } });
    expectError(await get(`/v2/notes/${note}?fields[]=${size}`), 'request.invalid', { detail: new RegExp(size), source: { parameter: 'fields[]' } });
  });
});

describe('custom field values on create and update', () => {
  it('written by uuid, validated against their kind; null clears', async () => {
    const id = await create('/v2/entities', {
      type: 'feature',
      fields: { name: 'G', [due]: '2031-03-01' },
      relationships: [{ type: 'parent', target: { id: product } }],
    });
    const patch = await call(app, 'PATCH', `/v2/entities/${id}`, { token: ws.token, body: { data: { fields: { [size]: 'L', [due]: null } } } });
    expect(patch.status, patch.text).toBe(200);
    expect((await get(`/v2/entities/${id}?fields[]=${size}&fields[]=${due}`)).json.data.fields).toEqual({ [size]: option('L'), [due]: null });
  });

  it.each<[string, () => Record<string, unknown>, RegExp]>([
    ['a select value not among its options', () => ({ [size]: 'XL' }), /one of 'S', 'M', 'L': its name, or \{id\} or \{name\} of one of its values\.$/],
    [
      'a select value by an id it does not have',
      () => ({ [size]: { id: '00000000-0000-4000-8000-000000000000' } }),
      /has no value "00000000-0000-4000-8000-000000000000"/,
    ],
    ['a number field given a string', () => ({ [effort]: '3' }), /takes a number/],
    // Beyond what the table can hold exactly: the SDK would refuse the first, DynamoDB the second (a 500 before).
    ['a number beyond 2^53 − 1', () => ({ [effort]: 1e20 }), /takes a number from -9007199254740991 to 9007199254740991, 0 or at least 1e-130 in magnitude\.$/],
    ['a number closer to 0 than 1e-130', () => ({ [effort]: -1e-200 }), /takes a number from -9007199254740991 to 9007199254740991/],
    ['a date field given a non-date', () => ({ [due]: '2031-13-01' }), /date/],
    ['an unknown uuid', () => ({ '00000000-0000-4000-8000-000000000000': 'x' }), /Unknown field/],
  ])('%s → 400 request.invalid at the value, nothing written', async (_n, fields, detail) => {
    const values = fields();
    const key = Object.keys(values)[0]!;
    const res = await call(app, 'PATCH', `/v2/entities/${feature}`, { token: ws.token, body: { data: { fields: { name: 'changed', ...values } } } });
    expectError(res, 'request.invalid', { detail, source: { pointer: `/data/fields/${key}` } });
    const created = await call(app, 'POST', '/v2/entities', {
      token: ws.token,
      body: { data: { type: 'feature', fields: { name: 'H', ...values }, relationships: [{ type: 'parent', target: { id: product } }] } },
    });
    expectError(created, 'request.invalid', { detail, source: { pointer: `/data/fields/${key}` } });
    expect((await get(`/v2/entities/${feature}?fields[]=name`)).json.data.fields).toEqual({ name: 'F' });
  });

  it("a select field's option is written as Productboard assigns one, by {id} or {name}, and reads as {id, name}", async () => {
    const values = (await get(`/v2/entities/fields/${size}/values`)).json.data as Array<{ id: string; fields: { name: string } }>;
    const [s, m] = [values.find((v) => v.fields.name === 'S')!, values.find((v) => v.fields.name === 'M')!];
    const set = (value: unknown) => call(app, 'PATCH', `/v2/entities/${feature}`, { token: ws.token, body: { data: { fields: { [size]: value } } } });
    for (const [written, read] of [
      [{ id: s.id }, s],
      [{ name: 'M' }, m],
      [{ id: s.id, name: 'S' }, s],
    ] as const) {
      expect((await set(written)).status).toBe(200);
      expect((await get(`/v2/entities/${feature}?fields[]=${size}`)).json.data.fields).toEqual({ [size]: { id: read.id, name: read.fields.name } });
    }
    expectError(await set({ id: m.id, name: 'S' }), 'request.invalid', {
      detail: `Custom field 'Size' (${size}): id ${m.id} is the value 'M', not 'S'.`,
      source: { pointer: `/data/fields/${size}` },
    });
    expect((await get(`/v2/entities/${feature}?fields[]=${size}`)).json.data.fields).toEqual({ [size]: { id: s.id, name: 'S' } });
    expect((await set('M')).status).toBe(200);
  });

  it('a custom field of another type is refused on write', async () => {
    const res = await call(app, 'POST', '/v2/notes', { token: ws.token, body: { data: { type: 'textNote', fields: { name: 'N2', [size]: 'S' } } } });
    expectError(res, 'request.invalid', { detail: /configured for textNote/, source: { pointer: `/data/fields/${size}` } });
    const ok = await call(app, 'PATCH', `/v2/notes/${note}`, { token: ws.token, body: { data: { fields: { [revenue]: 5 } } } });
    expect(ok.status, ok.text).toBe(200);
    expect((await get(`/v2/notes/${note}?fields[]=${revenue}`)).json.data.fields).toEqual({ [revenue]: 5 });
  });

  it("a number field holds the table's whole range, and a note's refuses what it cannot hold", async () => {
    for (const value of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e-130, 0.1]) {
      const ok = await call(app, 'PATCH', `/v2/notes/${note}`, { token: ws.token, body: { data: { fields: { [revenue]: value } } } });
      expect(ok.status, ok.text).toBe(200);
      expect((await get(`/v2/notes/${note}?fields[]=${revenue}`)).json.data.fields).toEqual({ [revenue]: value });
    }
    const refused = await call(app, 'PATCH', `/v2/notes/${note}`, { token: ws.token, body: { data: { fields: { [revenue]: 9007199254740992 } } } });
    expectError(refused, 'request.invalid', { detail: /takes a number from/, source: { pointer: `/data/fields/${revenue}` } });
    expect((await get(`/v2/notes/${note}?fields[]=${revenue}`)).json.data.fields).toEqual({ [revenue]: 0.1 });
  });
});

describe("an entity's relationships attribute on GET /v2/entities/{id}", () => {
  it('at most 20 inline; links.next lists the rest at /v2/entities/{id}/relationships', async () => {
    const parent = await create('/v2/entities', { type: 'component', fields: { name: 'C' }, relationships: [{ type: 'parent', target: { id: product } }] });
    const children: string[] = [];
    for (let i = 0; i < 24; i++) {
      children.push(await create('/v2/entities', { type: 'feature', fields: { name: `c${i}` }, relationships: [{ type: 'parent', target: { id: parent } }] }));
    }
    const res = await get(`/v2/entities/${parent}`);
    const rel = res.json.data.relationships;
    expect(rel.data).toHaveLength(20);
    expect(rel.data[0]).toEqual({
      type: 'parent',
      target: { id: product, type: 'product', links: { self: `${app.baseUrl}/entities/${product}`, html: `${app.webUrl}/entities/${product}` } },
    });
    expect(rel.data.slice(1).map((r: any) => r.target.id)).toEqual(children.slice(0, 19));
    expect(rel.links.next).toMatch(new RegExp(`^${app.baseUrl}/entities/${parent}/relationships\\?pageCursor=[A-Za-z0-9_.-]+$`));
    const rest = await call(app, 'GET', rel.links.next.slice(app.url.length), { token: ws.token });
    expect(rest.json.data.map((r: any) => r.target.id)).toEqual(children.slice(19));
    expect(rest.json.links).toEqual({});
  });
});
