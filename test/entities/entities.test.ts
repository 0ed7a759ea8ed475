import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEPTH } from '#lib/domain/hierarchy.ts';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { fieldCommands } from '../../local/admin/fields.ts';
import { client } from '../score/helpers.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const fieldAdd = fieldCommands.find((c) => c.name === 'field add')!;
const parentOf = (id: string) => ({ relationships: [{ type: 'parent', target: { id } }] });

describe('entities', () => {
  it('create → 201 reference; retrieve shows only non-empty fields, the parent and timestamps', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const res = await c.req('POST', '/entities', {
      data: {
        type: 'feature',
        fields: {
          name: 'Dark mode',
          description: '<p>Night</p>',
          status: { name: 'planned' },
          owner: { email: ws.admin.email },
          tags: [{ name: 'ui' }],
          timeframe: { startDate: '2026-01-01', endDate: '2026-03-31', granularity: 'quarter' },
          archived: false,
        },
        ...parentOf(product),
      },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.json.data.id;
    expect(res.json).toEqual({ data: { id, type: 'feature', links: { self: `${app.baseUrl}/entities/${id}`, html: `${app.webUrl}/entities/${id}` } } });
    const got = await c.ok('GET', `/entities/${id}`);
    expect(got.json.data).toEqual({
      id,
      type: 'feature',
      fields: {
        name: 'Dark mode',
        description: '<p>Night</p>',
        status: { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a03', name: 'Planned' },
        owner: { id: ws.admin.id, email: ws.admin.email },
        // The workspace's tag value 'ui', made by the create.
        tags: [{ id: expect.any(String), name: 'ui' }],
        timeframe: { startDate: '2026-01-01', endDate: '2026-03-31', granularity: 'quarter' },
        archived: false,
      },
      relationships: expect.objectContaining({
        data: expect.arrayContaining([
          {
            type: 'parent',
            target: { id: product, type: 'product', links: { self: `${app.baseUrl}/entities/${product}`, html: `${app.webUrl}/entities/${product}` } },
          },
        ]),
      }),
      links: { self: `${app.baseUrl}/entities/${id}`, html: `${app.webUrl}/entities/${id}` },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('PATCH sets fields and a null value clears one', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const id = await c.entity('product', undefined, { description: 'old', tags: [{ name: 'a' }] });
    const res = await c.req('PATCH', `/entities/${id}`, { data: { fields: { name: 'Renamed', description: null } } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ data: { id, type: 'product', links: { self: `${app.baseUrl}/entities/${id}`, html: `${app.webUrl}/entities/${id}` } } });
    const got = await c.ok('GET', `/entities/${id}`);
    expect(got.json.data.fields).toEqual({ name: 'Renamed', tags: [{ id: expect.any(String), name: 'a' }], archived: false });
  });

  it.each([
    ['a feature without a parent', { type: 'feature', fields: { name: 'x' } }, '/data/relationships', /needs a parent/],
    ['an unknown type', { type: 'theme', fields: { name: 'x' } }, '/data/type', /must be one of/],
    ['a missing name', { type: 'product', fields: {} }, '/data/fields/name', /required/],
    ['a name over 255 characters', { type: 'product', fields: { name: 'x'.repeat(256) } }, '/data/fields/name', /at most 255/],
    ['an unknown field name', { type: 'product', fields: { name: 'x', colour: 'red' } }, '/data/fields/colour', /Unknown field 'colour'/],
    [
      'an unknown status',
      { type: 'product', fields: { name: 'x', status: { name: 'Someday' } } },
      '/data/fields/status/name',
      /No status of a product is named 'Someday'; the statuses of a product are New idea/,
    ],
    [
      'an owner who is not a member',
      { type: 'product', fields: { name: 'x', owner: { email: 'nobody@example.com' } } },
      '/data/fields/owner/email',
      /No active member/,
    ],
    [
      'a timeframe ending before it starts',
      { type: 'product', fields: { name: 'x', timeframe: { startDate: '2026-02-01', endDate: '2026-01-01' } } },
      '/data/fields/timeframe/endDate',
      /before/,
    ],
    [
      'a product with a parent',
      { type: 'product', fields: { name: 'x' }, relationships: [{ type: 'parent', target: { id: 'PARENT' } }] },
      '/data/relationships/0/target/id',
      /cannot have a parent/,
    ],
  ])('create with %s → 400 request.invalid with source.pointer', async (_name, body, ptr, detail) => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const data = JSON.parse(JSON.stringify(body).replace('PARENT', product));
    expectError(await c.req('POST', '/entities', { data }), 'request.invalid', { source: { pointer: ptr }, detail });
  });

  it('PATCH data.patch: set (a status by name, a custom field), addItems/removeItems on tags, clear; the score is untouched', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const size = (
      (await fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'feature', name: 'Size', kind: 'select', options: 'S,M,L' })) as { id: string }
    ).id;
    const feature = await c.entity('feature', await c.entity('product'), { tags: [{ name: 'a' }], owner: { email: ws.admin.email } });
    const patch = (ops: unknown[]) => c.req('PATCH', `/entities/${feature}`, { data: { patch: ops } });
    const res = await patch([
      { op: 'set', path: 'status', value: { name: 'planned' } },
      { op: 'set', path: size.toUpperCase(), value: 'M' },
      { op: 'addItems', path: 'tags', value: [{ name: 'b' }, { name: 'a' }] },
      { op: 'removeItems', path: 'tags', value: [{ name: 'a' }] },
      { op: 'clear', path: 'owner' },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.links).toEqual({ self: `${app.baseUrl}/entities/${feature}`, html: `${app.webUrl}/entities/${feature}` });
    const { fields } = (await c.ok('GET', `/entities/${feature}`)).json.data;
    expect(fields).toEqual({
      name: expect.any(String),
      status: { id: expect.any(String), name: 'Planned' },
      tags: [{ id: expect.any(String), name: 'b' }],
      archived: false,
      [size]: { id: expect.any(String), name: 'M' },
    });
    // An operation that lacks what its op takes, or names no op there is: the detail says which.
    expectError(await patch([{ op: 'set', path: 'description' }]), 'request.invalid', {
      detail: "'/data/patch/0/value' is required.",
      source: { pointer: '/data/patch/0/value' },
    });
    expectError(await patch([{ op: 'replace', path: 'name', value: 'x' }]), 'request.invalid', {
      detail: "'/data/patch/0/op' must be one of 'set', 'addItems', 'removeItems', 'clear' (got 'replace').",
      source: { pointer: '/data/patch/0/op' },
    });
    expectError(await patch([{ op: 'set', path: 'email', value: 'x@example.com' }]), 'request.invalid', {
      source: { pointer: '/data/patch/0/path' },
      detail: /Unknown field 'email' for a feature/,
    });
    // An entity patch parses values by the entities' fields only: a note field's value is not looked at, its path is refused.
    expectError(await patch([{ op: 'set', path: 'content', value: 5 }]), 'request.invalid', {
      source: { pointer: '/data/patch/0/path' },
      detail: /Unknown field 'content' for a feature/,
    });
    expectError(await patch([{ op: 'removeItems', path: 'content', value: [5] }]), 'request.invalid', {
      source: { pointer: '/data/patch/0/path' },
      detail: /Unknown field 'content' for a feature/,
    });
    expectError(await patch([{ op: 'set', path: size, value: 'XL' }]), 'request.invalid', { source: { pointer: '/data/patch/0/value' } });
    expectError(await patch([{ op: 'set', path: 'owner', value: { email: 'nobody@example.com' } }]), 'request.invalid', {
      source: { pointer: '/data/patch/0/value/email' },
    });
    expect((await c.ok('GET', `/entities/${feature}`)).json.data.fields).toEqual(fields);
    expect(await c.score(feature)).toBe(0);
  });

  it("PATCH data.patch on a timeframe's parts: set a date or the granularity, clear the granularity; the timeframe keeps both dates and its order", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const feature = await c.entity('feature', await c.entity('product'), {
      timeframe: { startDate: '2024-01-01', endDate: '2024-03-31', granularity: 'quarter' },
    });
    const patch = (ops: unknown[]) => c.req('PATCH', `/entities/${feature}`, { data: { patch: ops } });
    const timeframe = async () => (await c.ok('GET', `/entities/${feature}`)).json.data.fields.timeframe;
    expect((await patch([{ op: 'set', path: 'timeframe.endDate', value: '2024-06-30' }])).status).toBe(200);
    expect(await timeframe()).toEqual({ startDate: '2024-01-01', endDate: '2024-06-30', granularity: 'quarter' });
    const both = await patch([
      { op: 'set', path: 'timeframe.startDate', value: '2024-04-01' },
      { op: 'clear', path: 'timeframe.granularity' },
      { op: 'set', path: 'name', value: 'Renamed' },
    ]);
    expect(both.status, both.text).toBe(200);
    expect(await timeframe()).toEqual({ startDate: '2024-04-01', endDate: '2024-06-30' });
    expect((await patch([{ op: 'set', path: 'timeframe.granularity', value: 'month' }])).status).toBe(200);
    expect(await timeframe()).toEqual({ startDate: '2024-04-01', endDate: '2024-06-30', granularity: 'month' });
    // A timeframe has both dates: one is not cleared alone (Productboard's `complex` example clears startDate).
    expectError(await patch([{ op: 'clear', path: 'timeframe.startDate' }]), 'request.invalid', {
      source: { pointer: '/data/patch/0/path' },
      detail:
        "'timeframe.startDate' cannot be cleared: a timeframe has both dates. Clear 'timeframe' to remove the timeframe, or set 'timeframe.startDate' to another date.",
    });
    // The whole timeframe's rule holds for what the parts make, at the operation that breaks it.
    expectError(
      await patch([
        { op: 'set', path: 'name', value: 'x' },
        { op: 'set', path: 'timeframe.endDate', value: '2024-03-31' },
      ]),
      'request.invalid',
      {
        source: { pointer: '/data/patch/1/value' },
        detail: "With 'timeframe.endDate' the timeframe would end on 2024-03-31, before it starts on 2024-04-01; a timeframe may not end before it starts.",
      },
    );
    // A part's value is parsed as the whole timeframe's part is.
    expectError(await patch([{ op: 'set', path: 'timeframe.granularity', value: 'week' }]), 'request.invalid', { source: { pointer: '/data/patch/0/value' } });
    expectError(await patch([{ op: 'set', path: 'timeframe.startDate', value: '2024-02-30' }]), 'request.invalid', {
      source: { pointer: '/data/patch/0/value' },
    });
    expectError(await patch([{ op: 'addItems', path: 'timeframe.startDate', value: ['2024-01-01'] }]), 'request.invalid', {
      source: { pointer: '/data/patch/0/op' },
    });
    expectError(await patch([{ op: 'set', path: 'timeframe.colour', value: 'red' }]), 'request.invalid', {
      source: { pointer: '/data/patch/0/path' },
      detail:
        /^Unknown field 'timeframe.colour' for a feature; its fields are .* \(with the parts timeframe.startDate, timeframe.endDate, timeframe.granularity\)/,
    });
    // The whole timeframe and a part of it in one patch: which wins is not left to the order.
    expectError(
      await patch([
        { op: 'set', path: 'timeframe', value: { startDate: '2025-01-01', endDate: '2025-12-31' } },
        { op: 'set', path: 'timeframe.granularity', value: 'year' },
      ]),
      'request.invalid',
      { source: { pointer: '/data/patch/1' }, detail: /'timeframe' and 'timeframe.granularity' are both changed in one patch/ },
    );
    expect(await timeframe()).toEqual({ startDate: '2024-04-01', endDate: '2024-06-30', granularity: 'month' });

    // No timeframe: a part alone has none to be part of; both dates in one patch make one; clearing the granularity changes nothing.
    const bare = await c.entity('feature', await c.entity('product'));
    const bareTimeframe = async () => (await c.ok('GET', `/entities/${bare}?fields[]=timeframe`)).json.data.fields.timeframe;
    const patchBare = (ops: unknown[]) => c.req('PATCH', `/entities/${bare}`, { data: { patch: ops } });
    expectError(await patchBare([{ op: 'set', path: 'timeframe.endDate', value: '2024-06-30' }]), 'request.invalid', {
      source: { pointer: '/data/patch/0/path' },
      detail:
        "The entity has no timeframe for 'timeframe.endDate' to be part of: a timeframe has both dates, so set 'timeframe' whole or both 'timeframe.startDate' and 'timeframe.endDate' in this patch.",
    });
    expect((await patchBare([{ op: 'clear', path: 'timeframe.granularity' }])).status).toBe(200);
    expect(await bareTimeframe()).toBeNull();
    const made = await patchBare([
      { op: 'set', path: 'timeframe.endDate', value: '2024-06-30' },
      { op: 'set', path: 'timeframe.startDate', value: '2024-06-01' },
    ]);
    expect(made.status, made.text).toBe(200);
    expect(await bareTimeframe()).toEqual({ startDate: '2024-06-01', endDate: '2024-06-30' });
  });

  it('metadata.source: set on create, merged key by key on update (null removes a key, source: null all of it)', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const created = await c.req('POST', '/entities', {
      data: { type: 'product', fields: { name: 'Imported' }, metadata: { source: { system: 'jira', recordId: 'P-1' } } },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.id;
    const metadata = async () => (await c.ok('GET', `/entities/${id}`)).json.data.metadata;
    expect(await metadata()).toEqual({ source: { system: 'jira', recordId: 'P-1' } });
    await c.ok('PATCH', `/entities/${id}`, { data: { metadata: { source: { recordId: null, url: 'https://jira.example.com/P-1' } } } });
    expect(await metadata()).toEqual({ source: { system: 'jira', url: 'https://jira.example.com/P-1' } });
    await c.ok('PATCH', `/entities/${id}`, { data: { fields: { name: 'Renamed' }, metadata: { source: null } } });
    expect(await metadata()).toBeUndefined();
    expectError(await c.req('PATCH', `/entities/${id}`, { data: { metadata: { source: { system: '' } } } }), 'request.invalid', {
      source: { pointer: '/data/metadata/source/system' },
    });
  });

  it('parent rules: a subfeature needs a feature, a component a product or component', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const res = await c.req('POST', '/entities', { data: { type: 'subfeature', fields: { name: 's' }, ...parentOf(product) } });
    expectError(res, 'request.invalid', {
      source: { pointer: '/data/relationships/0/target/id' },
      detail: 'A subfeature cannot have a product parent; allowed: feature.',
    });
    const company = await c.entity('company');
    const res2 = await c.req('POST', '/entities', { data: { type: 'component', fields: { name: 'c' }, ...parentOf(company) } });
    expectError(res2, 'request.invalid', { source: { pointer: '/data/relationships/0/target/id' } });
    expect((await c.req('POST', '/entities', { data: { type: 'user', fields: { name: 'u', email: 'u@example.com' }, ...parentOf(company) } })).status).toBe(
      201,
    );
  });

  it(`the hierarchy depth is capped at ${MAX_DEPTH} levels`, async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    let parent = await c.entity('product');
    for (let depth = 2; depth < MAX_DEPTH; depth++) parent = await c.entity('component', parent);
    const feature = await c.entity('feature', parent); // depth MAX_DEPTH
    const res = await c.req('POST', '/entities', { data: { type: 'subfeature', fields: { name: 'too deep' }, ...parentOf(feature) } });
    expectError(res, 'request.invalid', {
      source: { pointer: '/data/relationships/0/target/id' },
      detail: `The hierarchy would be ${MAX_DEPTH + 1} levels deep; the maximum is ${MAX_DEPTH}.`,
    });
  });

  it('an unknown parent, or one from another workspace → 404 resource.notFound', async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const c = client(app, ws.token);
    const foreign = await client(app, other.token).entity('product');
    for (const id of [foreign, '00000000-0000-4000-8000-000000000000']) {
      expectError(await c.req('POST', '/entities', { data: { type: 'feature', fields: { name: 'f' }, ...parentOf(id) } }), 'resource.notFound', {
        source: { pointer: '/data/relationships/0/target/id' },
        detail: `No entity ${id} in this workspace.`,
      });
    }
  });

  it("another workspace's entity → 404 on get, update, delete and set parent, and nothing changes", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const o = client(app, other.token);
    const theirs = await o.entity('product');
    const theirComp = await o.entity('component', theirs);
    const c = client(app, ws.token);
    const mine = await c.entity('product');
    expectError(await c.req('GET', `/entities/${theirs}`), 'resource.notFound');
    expectError(await c.req('PATCH', `/entities/${theirs}`, { data: { fields: { name: 'pwned' } } }), 'resource.notFound');
    expectError(await c.req('DELETE', `/entities/${theirs}`), 'resource.notFound');
    expectError(await c.req('PUT', `/entities/${theirComp}/relationships/parent`, { data: { target: { id: mine } } }), 'resource.notFound');
    const still = await o.ok('GET', `/entities/${theirs}`);
    expect(still.json.data.fields.name).not.toBe('pwned');
  });

  it("moving one's own entity under another workspace's parent → 404 resource.notFound, and nothing moves", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const o = client(app, other.token);
    const theirProduct = await o.entity('product');
    const theirFeature = await o.entity('feature', theirProduct);
    await o.note({ links: [[theirFeature]] });
    const c = client(app, ws.token);
    const myProduct = await c.entity('product');
    const myComponent = await c.entity('component', myProduct);
    const myFeature = await c.entity('feature', myComponent);
    await c.note({ links: [[myFeature]] });
    const parentIdOf = async (id: string) =>
      ((await c.ok('GET', `/entities/${id}`)).json.data.relationships.data as Array<{ type: string; target: { id: string } }>).find((r) => r.type === 'parent')
        ?.target.id;
    for (const id of [myComponent, myFeature])
      expectError(await c.req('PUT', `/entities/${id}/relationships/parent`, { data: { target: { id: theirProduct } } }), 'resource.notFound', {
        source: { pointer: '/data/target/id' },
      });
    expect(await parentIdOf(myComponent)).toBe(myProduct);
    expect(await parentIdOf(myFeature)).toBe(myComponent);
    // Neither score moved: mine still counts my note, theirs did not gain it.
    expect(await c.score(myProduct)).toBe(1);
    expect(await o.score(theirProduct)).toBe(1);
  });

  it('set parent: a cycle, a wrong parent type or too deep a result → 400 with source.pointer, nothing moves', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const a = await c.entity('component', p);
    const b = await c.entity('component', a);
    const f = await c.entity('feature', b);
    const put = (id: string, target: string) => c.req('PUT', `/entities/${id}/relationships/parent`, { data: { target: { id: target } } });
    expectError(await put(a, b), 'request.invalid', { source: { pointer: '/data/target/id' }, detail: /cycle/ });
    expectError(await put(a, a), 'request.invalid', { source: { pointer: '/data/target/id' }, detail: /cycle/ });
    expectError(await put(a, f), 'request.invalid', { source: { pointer: '/data/target/id' }, detail: /cannot have a feature parent/ });
    expectError(await put(p, a), 'request.invalid', { source: { pointer: '/data/target/id' }, detail: 'A product cannot have a parent.' });
    // Build a chain as deep as allowed, then try to hang the a-subtree (height 3) under its bottom.
    let deep = await c.entity('product');
    for (let depth = 2; depth < MAX_DEPTH - 1; depth++) deep = await c.entity('component', deep);
    expectError(await put(a, deep), 'request.invalid', { source: { pointer: '/data/target/id' }, detail: /levels deep/ });
    const got = await c.ok('GET', `/entities/${a}`);
    expect(got.json.data.relationships.data[0].target.id).toBe(p);
  });

  it('set parent moves the subtree; PATCH/PUT bodies with unknown properties → 400', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p1 = await c.entity('product');
    const p2 = await c.entity('product');
    const comp = await c.entity('component', p1);
    const f = await c.entity('feature', comp);
    const res = await c.req('PUT', `/entities/${comp}/relationships/parent`, { data: { target: { id: p2 } } });
    expect(res.status, res.text).toBe(200);
    expect((await c.ok('GET', `/entities/${comp}`)).json.data.relationships.data[0].target.id).toBe(p2);
    expect((await c.ok('GET', `/entities/${f}`)).json.data.relationships.data[0].target.id).toBe(comp);
    expectError(await c.req('PUT', `/entities/${comp}/relationships/parent`, { data: { target: { id: p1 }, extra: 1 } }), 'request.invalid', {
      source: { pointer: '/data/extra' },
    });
    expectError(await c.req('PATCH', `/entities/${comp}`, { data: { fields: { bogus: 1 } } }), 'request.invalid', {
      source: { pointer: '/data/fields/bogus' },
    });
  });

  it('delete cascades to all descendants; a deleted id → 404 afterwards', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const comp = await c.entity('component', p);
    const f = await c.entity('feature', comp);
    const sf = await c.entity('subfeature', f);
    expect((await c.req('DELETE', `/entities/${p}`)).status).toBe(204);
    for (const id of [p, comp, f, sf]) expectError(await c.req('GET', `/entities/${id}`), 'resource.notFound');
    expectError(await c.req('DELETE', `/entities/${p}`), 'resource.notFound');
  });

  it('deleting a company deletes its users and leaves their notes without a customer', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const company = await c.entity('company');
    const user = await c.entity('user', company);
    const f = await c.entity('feature', await c.entity('product'));
    const n = await c.note({ customer: user, links: [[f, 'critical']] });
    expect(await c.score(f)).toBe(3);
    expect((await c.req('DELETE', `/entities/${company}`)).status).toBe(204);
    expectError(await c.req('GET', `/entities/${user}`), 'resource.notFound');
    const note = await c.ok('GET', `/notes/${n}`);
    expect(note.json.data.relationships.data.map((r: any) => r.type)).toEqual(['link']);
    expect(await c.score(f)).toBe(1);
  });

  it('PATCHes that add up past what one record holds: the one that would cross it → 400 naming the sizes, nothing changed; the record still takes links, children and an archive, and shrinks', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const text = async (name: string) =>
      ((await fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'feature', name, kind: 'text' })) as { id: string }).id;
    const [t1, t2, t3] = [await text('T1'), await text('T2'), await text('T3')];
    const feature = await c.entity('feature', await c.entity('product'));
    const set = (fields: Record<string, unknown>) => c.req('PATCH', `/entities/${feature}`, { data: { fields } });
    // 240 000 bytes of description, then 30 000 bytes a field: within each request's body limit, 330 000 in all past the 320 KiB limit.
    const wide = (n: number) => '\u4e2d'.repeat(n);
    for (const fields of [{ description: `<p>${wide(80_000)}</p>` }, { [t1]: wide(10_000) }, { [t2]: wide(10_000) }]) {
      const res = await set(fields);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
    }
    const before = (await c.ok('GET', `/entities/${feature}`)).json.data;
    expectError(await set({ [t3]: wide(10_000) }), 'request.invalid', {
      source: { pointer: '/data' },
      detail: new RegExp(
        `^Entity ${feature} would hold 32[2-9]\\.\\d KiB of fields and metadata; a record holds at most 320\\.0 KiB\\. Shorten or clear a field first\\.$`,
      ),
    });
    expect((await c.ok('GET', `/entities/${feature}`)).json.data).toEqual(before);
    // What the service keeps beside the content still fits: a rated link, a child, an archive.
    const company = await c.entity('company');
    await c.note({ customer: company, links: [[feature, 'critical']] });
    await c.entity('subfeature', feature);
    expect((await set({ archived: true })).status).toBe(200);
    expect(await c.score(feature)).toBe(3);
    // Shrunk, it takes the field it refused.
    expect((await set({ description: null })).status).toBe(200);
    expect((await set({ [t3]: wide(10_000) })).status).toBe(200);
  });

  it("a record written before that limit, to the byte of DynamoDB's 400 KB: a child that adds to it → 400 naming the record, nothing changed; shrunk, it takes the child", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const note = ((await fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'feature', name: 'Note', kind: 'text' })) as { id: string }).id;
    const feature = await c.entity('feature', await c.entity('product'));
    // As an older version could have stored it: fields within each one's limit, the record as large as DynamoDB allows.
    const fill = (field: string, value: string) =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.entity(ws.workspaceId, feature),
          UpdateExpression: 'SET #f.#n = :v',
          ExpressionAttributeNames: { '#f': 'fields', '#n': field },
          ExpressionAttributeValues: { ':v': value },
        }),
      );
    await fill('description', `<p>${'\u{1F600}'.repeat(99_000)}</p>`);
    // To the byte: the largest value the item still takes.
    let [fits, over] = [0, 16_000];
    while (over - fits > 1) {
      const n = Math.floor((fits + over) / 2);
      const filled = await fill(note, 'x'.repeat(n)).then(
        () => true,
        (err: Error) => {
          if (err.name !== 'ValidationException') throw err;
          return false;
        },
      );
      [fits, over] = filled ? [n, over] : [fits, n];
    }
    await fill(note, 'x'.repeat(fits));
    const before = (await c.ok('GET', `/entities/${feature}`)).json.data;
    // A child adds the parent's own mark of having children: past the limit by a few bytes.
    const child = { data: { type: 'subfeature', fields: { name: 'Child' }, relationships: [{ type: 'parent', target: { id: feature } }] } };
    expectError(await c.req('POST', '/entities', child), 'request.invalid', {
      detail: `This change would take entity ${feature} past the 400 KB one stored record may hold; nothing was changed. Shorten or clear one of its fields first.`,
    });
    expect((await c.ok('GET', `/entities/${feature}`)).json.data).toEqual(before);
    expect((await c.ok('GET', '/entities?type=subfeature')).json.data).toEqual([]);
    // Shrunk, it takes the child.
    expect((await c.req('PATCH', `/entities/${feature}`, { data: { fields: { [note]: null } } })).status).toBe(200);
    expect((await c.req('POST', '/entities', child)).status).toBe(201);
    expect((await c.ok('GET', '/entities?type=subfeature')).json.data.map((e: { fields: { name: string } }) => e.fields.name)).toEqual(['Child']);
  });
});
