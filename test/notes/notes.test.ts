import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEntity } from '#lib/store/entities.ts';
import { client } from '../score/helpers.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const ref = (app: TestApp, id: string, type: string) => ({ id, type, links: { self: `${app.baseUrl}/entities/${id}`, html: `${app.webUrl}/entities/${id}` } });

describe('notes', () => {
  it('create with a customer and links → 201 reference; retrieve shows fields and relationships with importance', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const f = await c.entity('feature', await c.entity('product'));
    const acme = await c.entity('company');
    const res = await c.req('POST', '/notes', {
      data: {
        type: 'simple',
        fields: { name: 'Wants dark mode', content: '<p>Please</p>', tags: [{ name: 'ui' }], owner: { email: ws.admin.email } },
        relationships: [
          { type: 'customer', target: { type: 'company', id: acme } },
          { type: 'link', target: { id: f }, importance: 'critical' },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.json.data.id;
    expect(res.json).toEqual({ data: { id, type: 'textNote', links: { self: `${app.baseUrl}/notes/${id}`, html: `${app.webUrl}/notes/${id}` } } });
    const got = await c.ok('GET', `/notes/${id}`);
    expect(got.json.data).toEqual({
      id,
      type: 'textNote',
      // The creator is the member whose token created the note.
      fields: {
        name: 'Wants dark mode',
        content: '<p>Please</p>',
        tags: [{ name: 'ui' }],
        owner: { id: ws.admin.id, email: ws.admin.email },
        creator: { id: ws.admin.id, email: ws.admin.email },
        // Never set: read as false, as Productboard answers them.
        processed: false,
        archived: false,
      },
      relationships: expect.objectContaining({
        data: [
          { type: 'customer', target: ref(app, acme, 'company') },
          { type: 'link', target: ref(app, f, 'feature'), importance: 'critical' },
        ],
      }),
      links: { self: `${app.baseUrl}/notes/${id}`, html: `${app.webUrl}/notes/${id}` },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('PATCH updates fields (null clears); DELETE → 204 then 404', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const id = await c.note();
    const res = await c.req('PATCH', `/notes/${id}`, { data: { fields: { content: 'more', name: 'Renamed' } } });
    expect(res.status, res.text).toBe(200);
    await c.ok('PATCH', `/notes/${id}`, { data: { fields: { content: null } } });
    expect((await c.ok('GET', `/notes/${id}`)).json.data.fields).toEqual({
      name: 'Renamed',
      creator: { id: ws.admin.id, email: ws.admin.email },
      processed: false,
      archived: false,
    });
    expect((await c.req('DELETE', `/notes/${id}`)).status).toBe(204);
    expectError(await c.req('GET', `/notes/${id}`), 'resource.notFound');
    expectError(await c.req('DELETE', `/notes/${id}`), 'resource.notFound');
  });

  it('creator, processed, archived and metadata.source: written on create, shown by GET; owner and creator by id or e-mail', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const { member: maker } = await ws.member({ role: 'maker' });
    const source = { system: 'zendesk', recordId: 'T-9', url: 'https://support.example.com/T-9' };
    const res = await c.req('POST', '/notes', {
      data: {
        type: 'textNote',
        fields: { name: 'Imported', owner: { id: maker.id }, creator: { email: maker.email.toUpperCase(), id: maker.id }, processed: true, archived: false },
        metadata: { source },
      },
    });
    expect(res.status, res.text).toBe(201);
    const got = (await c.ok('GET', `/notes/${res.json.data.id}`)).json.data;
    expect(got.fields).toEqual({
      name: 'Imported',
      owner: { id: maker.id, email: maker.email },
      creator: { id: maker.id, email: maker.email },
      processed: true,
      archived: false,
    });
    expect(got.metadata).toEqual({ source });
  });

  it('refused note writes → 400 at the culprit, and nothing changed', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const { member: maker } = await ws.member({ role: 'maker' });
    const bad = async (method: string, path: string, body: unknown, pointer: string, detail?: RegExp) =>
      expectError(await c.req(method, path, body), 'request.invalid', { source: { pointer }, ...(detail ? { detail } : {}) });
    await bad(
      'POST',
      '/notes',
      { data: { type: 'opportunityNote', fields: { name: 'x' } } },
      '/data/type',
      /opportunity notes cannot be created through the API/,
    );
    await bad('POST', '/notes', { data: { type: 'opportunity', fields: { name: 'x' } } }, '/data/type', /opportunity notes cannot be created through the API/);
    await bad(
      'POST',
      '/notes',
      { data: { type: 'textNote', fields: { name: 'x', creator: { id: maker.id, email: ws.admin.email } } } },
      '/data/fields/creator',
      /two different members/,
    );
    await bad('POST', '/notes', { data: { type: 'textNote', fields: { name: 'x' }, metadata: { source: { url: 'not a url' } } } }, '/data/metadata/source/url');
    await bad('POST', '/notes', { data: { type: 'textNote', fields: { name: 'x' }, metadata: { origin: 'x' } } }, '/data/metadata/origin');
    expect((await c.ok('GET', '/notes')).json.data).toEqual([]);
    const id = await c.note();
    const before = (await c.ok('GET', `/notes/${id}`)).json.data;
    await bad('PATCH', `/notes/${id}`, { data: { fields: { creator: { id: maker.id } } } }, '/data/fields/creator', /Unknown field 'creator'/);
    await bad(
      'PATCH',
      `/notes/${id}`,
      { data: { fields: { name: 'A' }, patch: [{ op: 'set', path: 'name', value: 'B' }] } },
      '/data',
      /both 'fields' and 'patch'/,
    );
    await bad('PATCH', `/notes/${id}`, { data: {} }, '/data', /changes nothing/);
    await bad('PATCH', `/notes/${id}`, { data: { patch: [{ op: 'clear', path: 'name' }] } }, '/data/patch/0/path', /name cannot be cleared/);
    await bad('PATCH', `/notes/${id}`, { data: { patch: [{ op: 'addItems', path: 'name', value: ['x'] }] } }, '/data/patch/0/op', /applies to a list field/);
    await bad(
      'PATCH',
      `/notes/${id}`,
      { data: { patch: [{ op: 'set', path: 'status', value: { name: 'Planned' } }] } },
      '/data/patch/0/path',
      /Unknown field 'status' for a note/,
    );
    // A note patch parses values by the note's fields only: an entity field's value is not looked at, its path is refused.
    await bad(
      'PATCH',
      `/notes/${id}`,
      { data: { patch: [{ op: 'set', path: 'status', value: { name: 'No such status' } }] } },
      '/data/patch/0/path',
      /Unknown field 'status' for a note/,
    );
    await bad('PATCH', `/notes/${id}`, { data: { patch: [{ op: 'set', path: 'processed', value: 'yes' }] } }, '/data/patch/0/value');
    await bad(
      'PATCH',
      `/notes/${id}`,
      { data: { patch: [{ op: 'addItems', path: 'tags', value: [{ name: 'x', label: 'x' }] }] } },
      '/data/patch/0/value/0/label',
    );
    // A tag is its name or {name}: an object without a name is neither.
    await bad(
      'PATCH',
      `/notes/${id}`,
      { data: { patch: [{ op: 'addItems', path: 'tags', value: [{ label: 'x' }] }] } },
      '/data/patch/0/value/0',
      /must be a tag/,
    );
    await bad(
      'PATCH',
      `/notes/${id}`,
      {
        data: {
          patch: [
            { op: 'set', path: 'tags', value: [] },
            { op: 'addItems', path: 'tags', value: [{ name: 'a' }] },
          ],
        },
      },
      '/data/patch/1',
      /'set' and 'addItems'/,
    );
    await bad('PATCH', `/notes/${id}`, { data: { patch: [{ op: 'clear', path: 'owner', value: null }] } }, '/data/patch/0/value');
    expect((await c.ok('GET', `/notes/${id}`)).json.data).toEqual(before);
  });

  it('PATCH data.patch: set and clear whole values, addItems and removeItems on tags (by name, idempotent), in order', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const id = await c.note();
    const patch = (ops: unknown[]) => c.ok('PATCH', `/notes/${id}`, { data: { patch: ops } });
    await patch([
      { op: 'set', path: 'owner', value: { email: ws.admin.email } },
      { op: 'set', path: 'processed', value: true },
      { op: 'addItems', path: 'tags', value: [{ name: 'a' }, { name: 'b' }] },
      { op: 'addItems', path: 'tags', value: [{ name: 'b' }, { name: 'c' }] },
      { op: 'removeItems', path: 'tags', value: [{ name: 'a' }, { name: 'zzz' }] },
    ]);
    const me = { id: ws.admin.id, email: ws.admin.email };
    expect((await c.ok('GET', `/notes/${id}`)).json.data.fields).toMatchObject({ owner: me, processed: true, tags: [{ name: 'b' }, { name: 'c' }] });
    await patch([
      { op: 'clear', path: 'owner' },
      { op: 'removeItems', path: 'tags', value: [{ name: 'b' }, { name: 'c' }] },
      { op: 'set', path: 'archived', value: true },
    ]);
    const fields = (await c.ok('GET', `/notes/${id}`)).json.data.fields;
    expect(fields).toEqual({ name: expect.any(String), creator: me, processed: true, archived: true });
  });

  it('tags written as their names alone (Productboard\'s "Update note fields" example), on create, update and patch, read as {name}', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const created = await c.req('POST', '/notes', {
      data: { type: 'textNote', fields: { name: 'Feedback', content: '<p>Hi</p>', tags: ['sales', { name: 'ui' }, 'sales'] } },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.id;
    const tags = async () => (await c.ok('GET', `/notes/${id}`)).json.data.fields.tags;
    expect(await tags()).toEqual([{ name: 'sales' }, { name: 'ui' }]);
    await c.ok('PATCH', `/notes/${id}`, {
      data: { fields: { name: 'New name', tags: ['sales', 'onboarding'], content: '<p>Updated content of the note</p>' } },
    });
    expect(await tags()).toEqual([{ name: 'sales' }, { name: 'onboarding' }]);
    await c.ok('PATCH', `/notes/${id}`, {
      data: {
        patch: [
          { op: 'addItems', path: 'tags', value: ['beta'] },
          { op: 'removeItems', path: 'tags', value: ['sales'] },
        ],
      },
    });
    expect(await tags()).toEqual([{ name: 'onboarding' }, { name: 'beta' }]);
    // A name alone is held to a tag's name rules; anything else is neither form.
    expectError(await c.req('PATCH', `/notes/${id}`, { data: { fields: { tags: ['x'.repeat(256)] } } }), 'request.invalid', {
      source: { pointer: '/data/fields/tags/0' },
    });
    expectError(await c.req('PATCH', `/notes/${id}`, { data: { fields: { tags: [5] } } }), 'request.invalid', {
      source: { pointer: '/data/fields/tags/0' },
      detail: "'/data/fields/tags/0' must be a tag: its name, or an object with its name only ({name}) (got 5).",
    });
    expectError(await c.req('PATCH', `/notes/${id}`, { data: { fields: { tags: [{ name: ' ' }] } } }), 'request.invalid', {
      source: { pointer: '/data/fields/tags/0/name' },
    });
    expect(await tags()).toEqual([{ name: 'onboarding' }, { name: 'beta' }]);
  });

  it('POST an existing link → 409 conflict.uniqueViolation; PUT re-rates it', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const f = await c.entity('feature', await c.entity('product'));
    const n = await c.note();
    const created = await c.req('POST', `/notes/${n}/relationships`, { data: { type: 'link', target: { id: f }, importance: 'important' } });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toEqual({ data: { type: 'link', target: ref(app, f, 'feature'), importance: 'important' } });
    expectError(await c.req('POST', `/notes/${n}/relationships`, { data: { type: 'link', target: { id: f } } }), 'conflict.uniqueViolation');
    const rerated = await c.req('PUT', `/notes/${n}/relationships/link/${f}`, { data: { importance: 'not important' } });
    expect(rerated.status, rerated.text).toBe(200);
    expect(rerated.json.data.importance).toBe('not important');
    expect((await c.ok('GET', `/notes/${n}`)).json.data.relationships.data).toEqual([
      { type: 'link', target: ref(app, f, 'feature'), importance: 'not important' },
    ]);
    expect((await c.req('DELETE', `/notes/${n}/relationships/link/${f}`)).status).toBe(204);
    expectError(await c.req('DELETE', `/notes/${n}/relationships/link/${f}`), 'resource.notFound');
  });

  it('customer: set by POST on a note without one, replaced by PUT (by id or by e-mail); POST on a note that has one → 400; DELETE removes it whatever the target id', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const acme = await c.entity('company');
    const bob = await c.entity('user', acme, { email: 'Bob@Acme.test' });
    const n = await c.note();
    const post = await c.req('POST', `/notes/${n}/relationships`, { data: { type: 'customer', target: { id: acme } } });
    expect(post.status, post.text).toBe(201);
    expect(post.json).toEqual({ data: { type: 'customer', target: ref(app, acme, 'company') } });
    // Productboard: a note that has a customer gets another one by PUT, never by POST.
    expectError(await c.req('POST', `/notes/${n}/relationships`, { data: { type: 'customer', target: { id: bob } } }), 'request.invalid', {
      source: { pointer: '/data/target' },
      detail: `Note ${n} already has a customer (company ${acme}); replace it with PUT /v2/notes/${n}/relationships/customer.`,
    });
    const put = await c.req('PUT', `/notes/${n}/relationships/customer`, { data: { target: { type: 'user', email: 'bob@ACME.test' } } });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toEqual({ data: { type: 'customer', target: ref(app, bob, 'user') } });
    // Productboard ignores the targetId of a customer: any uuid removes the note's customer.
    expect((await c.req('DELETE', `/notes/${n}/relationships/customer/${acme}`)).status).toBe(204);
    expect((await c.ok('GET', `/notes/${n}`)).json.data.relationships.data).toEqual([]);
    expectError(await c.req('DELETE', `/notes/${n}/relationships/customer/${bob}`), 'resource.notFound', { detail: `Note ${n} has no customer.` });
  });

  it('a user e-mail of 249 four-byte characters, past a key’s 1024 bytes: written, read back, and found as a note’s customer in any case, before and after a change', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const long = `${'😀'.repeat(249)}@a.co`;
    const created = await c.req('POST', '/entities', { data: { type: 'user', fields: { name: 'Long', email: long } } });
    expect(created.status, created.text).toBe(201);
    const ada = created.json.data.id as string;
    // Read from the store: the document's `format: email` takes ASCII addresses only, so a GET's check would refuse it.
    expect((await getEntity(ws.workspaceId, ada))!.fields.email).toBe(long);
    const n = await c.note();
    const byEmail = (email: string) => c.req('PUT', `/notes/${n}/relationships/customer`, { data: { target: { type: 'user', email } } });
    const customer = (id: string) => ({ data: { type: 'customer', target: ref(app, id, 'user') } });
    expect((await byEmail(long.toUpperCase())).json).toEqual(customer(ada));
    // Ada moves to a short address and Bob to the long one: the look-up follows both.
    await c.ok('PATCH', `/entities/${ada}`, { data: { fields: { email: 'ada@a.co' } } });
    const bob = await c.entity('user', undefined, { email: 'bob@a.co' });
    const patched = await c.req('PATCH', `/entities/${bob}`, { data: { fields: { email: long } } });
    expect(patched.status, patched.text).toBe(200);
    expect((await getEntity(ws.workspaceId, bob))!.fields.email).toBe(long);
    expect((await byEmail(long)).json).toEqual(customer(bob));
    expect((await byEmail('ADA@a.co')).json).toEqual(customer(ada));
    const nobody = `${'😃'.repeat(249)}@a.co`;
    expectError(await byEmail(nobody), 'request.invalid', {
      source: { pointer: '/data/target/email' },
      detail: `No user with e-mail '${nobody}' in this workspace.`,
    });
  });

  it('a customer by an e-mail no user has → 400 at the e-mail, and no note is created', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    await c.entity('user', undefined, { email: 'ada@acme.test' });
    const body = {
      data: { type: 'textNote', fields: { name: 'x' }, relationships: [{ type: 'customer', target: { type: 'user', email: 'nobody@acme.test' } }] },
    };
    expectError(await c.req('POST', '/notes', body), 'request.invalid', {
      source: { pointer: '/data/relationships/0/target/email' },
      detail: "No user with e-mail 'nobody@acme.test' in this workspace.",
    });
    expect((await c.ok('GET', '/notes')).json.data).toEqual([]);
  });

  it.each([
    ['an unknown note type', { type: 'meeting', fields: { name: 'x' } }, '/data/type'],
    ['a missing name', { type: 'textNote', fields: {} }, '/data/fields/name'],
    ['an unknown field', { type: 'textNote', fields: { name: 'x', status: { name: 'Planned' } } }, '/data/fields/status'],
    [
      'a bad importance',
      { type: 'textNote', fields: { name: 'x' }, relationships: [{ type: 'link', target: { id: 'FEATURE' }, importance: 'urgent' }] },
      '/data/relationships/0/importance',
    ],
    [
      'a link to a customer',
      { type: 'textNote', fields: { name: 'x' }, relationships: [{ type: 'link', target: { id: 'COMPANY' } }] },
      '/data/relationships/0/target/id',
    ],
    [
      'a feature as customer',
      { type: 'textNote', fields: { name: 'x' }, relationships: [{ type: 'customer', target: { id: 'FEATURE' } }] },
      '/data/relationships/0/target/id',
    ],
    [
      'a customer of the wrong type',
      { type: 'textNote', fields: { name: 'x' }, relationships: [{ type: 'customer', target: { type: 'user', id: 'COMPANY' } }] },
      '/data/relationships/0/target/type',
    ],
    [
      'the same entity linked twice',
      {
        type: 'textNote',
        fields: { name: 'x' },
        relationships: [
          { type: 'link', target: { id: 'FEATURE' } },
          { type: 'link', target: { id: 'FEATURE' } },
        ],
      },
      '/data/relationships/1/target/id',
    ],
    [
      'a non-uuid target',
      { type: 'textNote', fields: { name: 'x' }, relationships: [{ type: 'link', target: { id: 'nope' } }] },
      '/data/relationships/0/target/id',
    ],
  ])('create with %s → 400 request.invalid with source.pointer, nothing written', async (_name, body, ptr) => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const feature = await c.entity('feature', await c.entity('product'));
    const company = await c.entity('company');
    const data = JSON.parse(JSON.stringify(body).replaceAll('FEATURE', feature).replaceAll('COMPANY', company));
    expectError(await c.req('POST', '/notes', { data }), 'request.invalid', { source: { pointer: ptr } });
    expect(await c.score(feature)).toBe(0);
  });

  it('a link to an unknown entity or one of another workspace → 404 and no note is created', async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const c = client(app, ws.token);
    const foreign = await client(app, other.token).entity('product');
    for (const id of [foreign, '00000000-0000-4000-8000-000000000000']) {
      expectError(
        await c.req('POST', '/notes', { data: { type: 'textNote', fields: { name: 'x' }, relationships: [{ type: 'link', target: { id } }] } }),
        'resource.notFound',
        { source: { pointer: '/data/relationships/0/target/id' } },
      );
    }
    expect(await client(app, other.token).score(foreign)).toBe(0);
  });

  it("another workspace's note → 404 on every note route", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const o = client(app, other.token);
    const f = await o.entity('product');
    const theirs = await o.note({ links: [[f]] });
    const c = client(app, ws.token);
    const mine = await c.entity('product');
    const company = await c.entity('company');
    expectError(await c.req('GET', `/notes/${theirs}`), 'resource.notFound');
    expectError(await c.req('PATCH', `/notes/${theirs}`, { data: { fields: { name: 'x' } } }), 'resource.notFound');
    expectError(await c.req('POST', `/notes/${theirs}/relationships`, { data: { type: 'link', target: { id: mine } } }), 'resource.notFound');
    expectError(await c.req('PUT', `/notes/${theirs}/relationships/link/${mine}`, { data: { importance: 'critical' } }), 'resource.notFound');
    expectError(await c.req('PUT', `/notes/${theirs}/relationships/customer`, { data: { target: { id: company } } }), 'resource.notFound');
    expectError(await c.req('DELETE', `/notes/${theirs}/relationships/link/${f}`), 'resource.notFound');
    expectError(await c.req('DELETE', `/notes/${theirs}`), 'resource.notFound');
    expect(await o.score(f)).toBe(1);
  });

  it("naming another workspace's customer on a note → 404 resource.notFound at create and through PUT …/relationships/customer, and nothing written", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const theirCompany = await client(app, other.token).entity('company');
    const theirUser = await client(app, other.token).entity('user', undefined, { email: 'them@example.com' });
    const c = client(app, ws.token);
    const feature = await c.entity('feature', await c.entity('product'));
    const myCompany = await c.entity('company');
    for (const id of [theirCompany, theirUser]) {
      const body = {
        data: {
          type: 'textNote',
          fields: { name: 'x' },
          relationships: [
            { type: 'customer', target: { id } },
            { type: 'link', target: { id: feature } },
          ],
        },
      };
      expectError(await c.req('POST', '/notes', body), 'resource.notFound', { source: { pointer: '/data/relationships/0/target/id' } });
    }
    expect((await c.ok('GET', '/notes')).json.data).toEqual([]);
    expect(await c.score(feature)).toBe(0);
    const note = await c.note({ customer: myCompany, links: [[feature]] });
    for (const id of [theirCompany, theirUser]) {
      expectError(await c.req('PUT', `/notes/${note}/relationships/customer`, { data: { target: { id } } }), 'resource.notFound', {
        source: { pointer: '/data/target/id' },
      });
    }
    const rels = (await c.ok('GET', `/notes/${note}`)).json.data.relationships.data;
    expect(rels.filter((r: { type: string }) => r.type === 'customer')).toEqual([{ type: 'customer', target: ref(app, myCompany, 'company') }]);
    expect(await c.score(feature)).toBe(1);
  });

  it("deleting the customer relationship of another workspace's note → 404 resource.notFound, and the customer stays", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const o = client(app, other.token);
    const f = await o.entity('feature', await o.entity('product'));
    const theirCompany = await o.entity('company');
    const theirs = await o.note({ customer: theirCompany, links: [[f]] });
    const c = client(app, ws.token);
    expectError(await c.req('DELETE', `/notes/${theirs}/relationships/customer/${theirCompany}`), 'resource.notFound');
    const rels = (await o.ok('GET', `/notes/${theirs}`)).json.data.relationships.data;
    expect(rels.filter((r: { type: string }) => r.type === 'customer')).toEqual([{ type: 'customer', target: ref(app, theirCompany, 'company') }]);
    expect(await o.score(f)).toBe(1);
  });

  it('scopes: notes:write for writes, notes:delete for deletes', async () => {
    const ws = await newWorkspace();
    const n = await client(app, ws.token).note();
    const reader = await ws.member({ scopes: ['notes:read'] });
    expectError(
      await call(app, 'POST', '/v2/notes', { token: reader.token, body: { data: { type: 'textNote', fields: { name: 'x' } } } }),
      'auth.accessDenied',
    );
    const writer = await ws.member({ scopes: ['notes:read', 'notes:write'] });
    expectError(await call(app, 'DELETE', `/v2/notes/${n}`, { token: writer.token }), 'auth.accessDenied');
  });

  it('relationship routes: a non-uuid id → 400 source.parameter; an unknown relationship type → 400; PUT link to an unknown entity → 404', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const n = await c.note();
    expectError(await c.req('PUT', `/notes/${n}/relationships/link/nope`, { data: { importance: 'critical' } }), 'request.invalid', {
      source: { parameter: 'entityId' },
    });
    expectError(await c.req('DELETE', `/notes/${n}/relationships/owner/${n}`), 'request.invalid', { source: { parameter: 'targetType' } });
    expectError(
      await c.req('PUT', `/notes/${n}/relationships/link/00000000-0000-4000-8000-000000000000`, { data: { importance: 'critical' } }),
      'resource.notFound',
      { source: { parameter: 'entityId' } },
    );
    expectError(await c.req('PUT', `/notes/${n}/relationships/link/${await c.entity('product')}`, { data: { importance: 'huge' } }), 'request.invalid', {
      source: { pointer: '/data/importance' },
    });
    expectError(await c.req('PUT', `/notes/${n}/relationships/customer`, { data: { target: { id: await c.entity('product') } } }), 'request.invalid', {
      source: { pointer: '/data/target/id' },
    });
  });
});
