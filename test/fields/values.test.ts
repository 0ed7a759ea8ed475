// The values of fields (GET/POST /v2/entities/fields/{id}/values, PATCH/DELETE …/{valueId}): the
// workspace's tag values, a custom select field's options, each type's status values — and what
// records read when a value is renamed, deleted or replaced.
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_STATUSES } from '#lib/domain/statuses.ts';
import { batchWriteAll } from '#lib/store/batch.ts';
import { db, tableName } from '#lib/store/client.ts';
import { newTagValueItems } from '#lib/store/field-values.ts';
import * as keys from '#lib/store/keys.ts';
import { fieldCommands } from '../../local/admin/fields.ts';
import { client } from '../score/helpers.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';
import { FAULTS, type ProxiedCall } from '../support/fault-proxy.ts';
import { withBudget, withFaults } from '../support/faults.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const fieldAdd = fieldCommands.find((c) => c.name === 'field add')!;
const addSelect = async (ws: string, type: string, name: string, options: string) =>
  ((await fieldAdd.run({ workspace: ws, 'entity-type': type, name, kind: 'select', options })) as { id: string }).id;

type Client = ReturnType<typeof client>;
/** The values of a field as the list answers them, walking every page. */
async function values(c: Client, field: string, query = ''): Promise<Array<{ id: string; fields: Record<string, unknown> }>> {
  const out = [];
  let path = `/entities/fields/${field}/values${query}`;
  for (;;) {
    const res = await c.ok('GET', path);
    out.push(...res.json.data);
    if (!res.json.links.next) return out;
    path = res.json.links.next.slice(res.json.links.next.indexOf('/v2/') + 3);
  }
}
const tagsOf = async (c: Client, id: string) => (await c.ok('GET', `/entities/${id}`)).json.data.fields.tags;

describe('tag values', () => {
  it('a write by name creates the tag value once; writes by id or name reuse it; the list shows each with an id and a color', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const a = await c.entity('product', undefined, { tags: [{ name: 'Mobile' }, { name: 'web' }] });
    const [mobile, web] = await values(c, 'tags');
    expect([mobile, web]).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        fields: { name: 'Mobile', color: expect.stringMatching(/^(red|blue|green|yellow|purple|gray|lime|pink)$/) },
      },
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), fields: { name: 'web', color: expect.any(String) } },
    ]);
    expect(await tagsOf(c, a)).toEqual([
      { id: mobile!.id, name: 'Mobile' },
      { id: web!.id, name: 'web' },
    ]);
    // Another entity: the same names (any case) and ids name the same values; nothing new is made.
    const b = await c.entity('product', undefined, { tags: [{ name: 'MOBILE' }, { id: web!.id }, { id: web!.id, name: 'Web' }] });
    expect(await tagsOf(c, b)).toEqual([
      { id: mobile!.id, name: 'Mobile' },
      { id: web!.id, name: 'web' },
    ]);
    expect(await values(c, 'tags')).toHaveLength(2);
    // By id and name of two different values, or an id the workspace has no tag of → 400 at the culprit, nothing written.
    expectError(
      await c.req('POST', '/entities', { data: { type: 'product', fields: { name: 'x', tags: [{ id: web!.id, name: 'Mobile' }] } } }),
      'request.invalid',
      {
        source: { pointer: '/data/fields/tags/0/name' },
        detail: /is named 'web', not 'Mobile'/,
      },
    );
    expectError(
      await c.req('POST', '/entities', {
        data: { type: 'product', fields: { name: 'x', tags: [{ name: 'new one' }, { id: '00000000-0000-4000-8000-000000000000' }] } },
      }),
      'request.invalid',
      {
        source: { pointer: '/data/fields/tags/1/id' },
      },
    );
    expect((await values(c, 'tags')).map((v) => v.fields.name)).toEqual(['Mobile', 'web']);
  });

  it('renaming a value renames it on every entity; deleting it clears it; deleting with replaceWith puts the replacement in its place', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const a = await c.entity('product', undefined, { tags: [{ name: 'old' }, { name: 'keep' }] });
    const b = await c.entity('product', undefined, { tags: [{ name: 'old' }] });
    const [old, keep] = await values(c, 'tags');
    const renamed = await c.req('PATCH', `/entities/fields/tags/values/${old!.id}`, { data: { fields: { name: 'Renamed', color: 'red' } } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toEqual({ data: { id: old!.id, links: { self: `${app.baseUrl}/entities/fields/tags/values/${old!.id}` } } });
    expect(await tagsOf(c, a)).toEqual([
      { id: old!.id, name: 'Renamed' },
      { id: keep!.id, name: 'keep' },
    ]);
    expect(await tagsOf(c, b)).toEqual([{ id: old!.id, name: 'Renamed' }]);
    expect((await values(c, 'tags'))[0]).toEqual({ id: old!.id, fields: { name: 'Renamed', color: 'red' } });
    // The old name is free again, the new one is taken (any case).
    expectError(await c.req('POST', '/entities/fields/tags/values', { data: { fields: { name: 'renamed' } } }), 'conflict.uniqueViolation', {
      source: { pointer: '/data/fields/name' },
    });
    // A patch adding the value by its new name adds nothing: it is there.
    await c.ok('PATCH', `/entities/${b}`, { data: { patch: [{ op: 'addItems', path: 'tags', value: [{ name: 'renamed' }] }] } });
    expect(await tagsOf(c, b)).toEqual([{ id: old!.id, name: 'Renamed' }]);

    // Held by entities and neither force nor replaceWith: kept, and the refusal names a holder.
    for (const query of ['', '?force=false']) {
      const refused = await c.req('DELETE', `/entities/fields/tags/values/${old!.id}${query}`);
      expectError(refused, 'request.invalid', {
        source: { parameter: 'force' },
        // Either holder, whichever the read meets first.
        detail: new RegExp(
          `^Entity (${a}|${b}) holds value ${old!.id}, and others may: send force=true to clear the value from every entity that holds it, or replaceWith with another value's id to give them that one instead\\. Nothing was deleted\\.$`,
        ),
      });
    }
    expect(await tagsOf(c, b)).toEqual([{ id: old!.id, name: 'Renamed' }]);
    expect((await values(c, 'tags')).map((v) => v.id)).toEqual([old!.id, keep!.id]);
    // Replaced: every entity that had it reads the replacement (once), and the value is off the list.
    expect((await c.req('DELETE', `/entities/fields/tags/values/${old!.id}?replaceWith=${keep!.id}`)).status).toBe(204);
    expect(await tagsOf(c, a)).toEqual([{ id: keep!.id, name: 'keep' }]);
    expect(await tagsOf(c, b)).toEqual([{ id: keep!.id, name: 'keep' }]);
    expect((await values(c, 'tags')).map((v) => v.id)).toEqual([keep!.id]);
    expectError(await c.req('PATCH', `/entities/fields/tags/values/${old!.id}`, { data: { fields: { name: 'x' } } }), 'resource.notFound');
    // Deleted: cleared from every entity; a list left empty is no value.
    expect((await c.req('DELETE', `/entities/fields/tags/values/${keep!.id}?force=true`)).status).toBe(204);
    expect(await tagsOf(c, a)).toBeUndefined();
    expect((await c.ok('GET', `/entities/${a}?fields[]=tags`)).json.data.fields).toEqual({ tags: null });
    expect(await values(c, 'tags')).toEqual([]);
    // The name is free: a write by it makes a new value.
    await c.ok('PATCH', `/entities/${a}`, { data: { fields: { tags: [{ name: 'keep' }] } } });
    const [again] = await values(c, 'tags');
    expect(again!.id).not.toBe(keep!.id);
    expect(await tagsOf(c, a)).toEqual([{ id: again!.id, name: 'keep' }]);
  });

  it('a name of 255 four-byte characters, past a key’s 1024 bytes: created, read back, written by name, unique in any case, renamed to and from', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const long = '😀'.repeat(255);
    const cased = `${'😀'.repeat(254)}X`;
    const created = await c.req('POST', '/entities/fields/tags/values', { data: { fields: { name: long, color: 'red' } } });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.id as string;
    expect(created.json).toEqual({ data: { id, links: { self: `${app.baseUrl}/entities/fields/tags/values/${id}` } } });
    expect(await values(c, 'tags')).toEqual([{ id, fields: { name: long, color: 'red' } }]);
    // A write by the name finds it; a new long name makes a value.
    const e = await c.entity('product', undefined, { tags: [{ name: long }, { name: cased }] });
    const [, other] = await values(c, 'tags');
    expect(other!.fields.name).toBe(cased);
    expect(await tagsOf(c, e)).toEqual([
      { id, name: long },
      { id: other!.id, name: cased },
    ]);
    for (const name of [long, cased.toLowerCase()])
      expectError(await c.req('POST', '/entities/fields/tags/values', { data: { fields: { name } } }), 'conflict.uniqueViolation', {
        source: { pointer: '/data/fields/name' },
      });
    // Renamed from the long name, and another value to it: the name moves with them.
    await c.ok('PATCH', `/entities/fields/tags/values/${id}`, { data: { fields: { name: 'short' } } });
    await c.ok('PATCH', `/entities/fields/tags/values/${other!.id}`, { data: { fields: { name: long } } });
    expectError(await c.req('PATCH', `/entities/fields/tags/values/${id}`, { data: { fields: { name: long } } }), 'conflict.uniqueViolation', {
      source: { pointer: '/data/fields/name' },
    });
    expect(await tagsOf(c, e)).toEqual([
      { id, name: 'short' },
      { id: other!.id, name: long },
    ]);
    const freed = await c.ok('POST', '/entities/fields/tags/values', { data: { fields: { name: cased.toLowerCase() } } });
    const f = await c.entity('product', undefined, { tags: [{ name: cased }, { name: long }] });
    expect(await tagsOf(c, f)).toEqual([
      { id: freed.json.data.id, name: cased.toLowerCase() },
      { id: other!.id, name: long },
    ]);
  });

  it('a delete: both force and replaceWith, replaceWith itself or another field’s value → 400; nothing deleted', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    await c.entity('product', undefined, { tags: [{ name: 'a' }] });
    const [a] = await values(c, 'tags');
    const del = (query: string) => c.req('DELETE', `/entities/fields/tags/values/${a!.id}${query}`);
    expectError(await del(`?force=true&replaceWith=${a!.id}`), 'request.invalid', { source: { parameter: 'replaceWith' } });
    expectError(await del(`?replaceWith=${a!.id}`), 'request.invalid', { source: { parameter: 'replaceWith' }, detail: /the value being deleted/ });
    expectError(await del('?replaceWith=00000000-0000-4000-8000-000000000000'), 'request.invalid', { source: { parameter: 'replaceWith' } });
    expectError(await del('?colour=red'), 'request.invalid', { source: { parameter: 'colour' } });
    expect(await values(c, 'tags')).toEqual([a]);
  });

  it('a delete without force or replaceWith: a value no entity reads is deleted; one an entity reads through a replacement is kept', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const gone = await c.entity('product', undefined, { tags: [{ name: 'gone' }] });
    const holder = await c.entity('product', undefined, { tags: [{ name: 'was' }] });
    for (const name of ['free', 'now']) await c.ok('POST', '/entities/fields/tags/values', { data: { fields: { name } } });
    const id = new Map((await values(c, 'tags')).map((v) => [v.fields.name, v.id]));
    const del = (name: string, query = '') => c.req('DELETE', `/entities/fields/tags/values/${id.get(name)}${query}`);
    // Set on no entity, or only on a deleted one: nobody reads it.
    expect((await del('free')).status).toBe(204);
    await c.ok('DELETE', `/entities/${gone}`);
    expect((await del('gone')).status).toBe(204);
    // Replaced: the entity reads the replacement, which it therefore holds.
    expect((await del('was', `?replaceWith=${id.get('now')}`)).status).toBe(204);
    expect(await tagsOf(c, holder)).toEqual([{ id: id.get('now'), name: 'now' }]);
    expectError(await del('now'), 'request.invalid', { source: { parameter: 'force' }, detail: new RegExp(`^Entity ${holder} holds value ${id.get('now')},`) });
    expect((await values(c, 'tags')).map((v) => v.fields.name)).toEqual(['now']);
  });

  it('a delete whose look for holders runs past three quarters of the request budget is refused, saying so; nothing deleted', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    await c.ok('POST', '/entities/fields/tags/values', { data: { fields: { name: 'unused' } } });
    const [unused] = await values(c, 'tags');
    // More entities than one page of the look (1 000), none with tags, written straight to the table.
    const at = new Date().toISOString();
    await batchWriteAll(
      Array.from({ length: 1001 }, () => {
        const id = randomUUID();
        return { PutRequest: { Item: { ...keys.entity(ws.workspaceId, id), id, type: 'feature', fields: { name: 'F' }, createdAt: at, updatedAt: at } } };
      }),
    );
    const del = () => c.req('DELETE', `/entities/fields/tags/values/${unused!.id}`);
    // A 5 s budget, and the table's answer to each page of the look held back 3.85 s: past 3.75 s after
    // the first page, with over a second left to answer the refusal on a busy machine.
    const slowLook = (call: { operation: string; input: Record<string, any> }) =>
      call.operation === 'Query' && String(call.input.ProjectionExpression).includes('#fields.#f') ? FAULTS.withhold(3850) : FAULTS.forward();
    const refused = await withBudget(5000, () => withFaults(slowLook, del));
    expectError(refused, 'request.invalid', {
      source: { parameter: 'force' },
      detail: `Could not tell in the request's time whether an entity holds value ${unused!.id} (this workspace's entities take longer to read): send force=true to clear the value from every entity that holds it, or replaceWith with another value's id to give them that one instead. Nothing was deleted.`,
    });
    expect((await values(c, 'tags')).map((v) => v.id)).toEqual([unused!.id]);
    // In time, both pages are read and nobody holds it.
    expect((await del()).status).toBe(204);
    expect(await values(c, 'tags')).toEqual([]);
  });

  it('a write naming more than 25 new tags is refused whole; a failed write creates no tag value', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const many = Array.from({ length: 26 }, (_, i) => ({ name: `t${i}` }));
    expectError(await c.req('POST', '/entities', { data: { type: 'product', fields: { name: 'x', tags: many } } }), 'request.invalid', {
      source: { pointer: '/data/fields/tags/25/name' },
      detail: /at most 25 new tags/,
    });
    // The tag is new, but the feature's parent is missing: 400, and no value made either.
    expectError(await c.req('POST', '/entities', { data: { type: 'feature', fields: { name: 'x', tags: [{ name: 'orphan' }] } } }), 'request.invalid', {
      source: { pointer: '/data/relationships' },
      detail: /needs a parent/,
    });
    expect(await values(c, 'tags')).toEqual([]);
    const product = await c.entity('product', undefined, { tags: many.slice(0, 25) });
    expect(await tagsOf(c, product)).toHaveLength(25);
  });

  it('values are the workspace’s own: another workspace’s value id is unknown to a write and to the value routes', async () => {
    const a = client(app, (await newWorkspace()).token);
    const b = client(app, (await newWorkspace()).token);
    await a.entity('product', undefined, { tags: [{ name: 'secret' }] });
    const [secret] = await values(a, 'tags');
    expect(await values(b, 'tags')).toEqual([]);
    expectError(await b.req('POST', '/entities', { data: { type: 'product', fields: { name: 'x', tags: [{ id: secret!.id }] } } }), 'request.invalid', {
      source: { pointer: '/data/fields/tags/0/id' },
    });
    expectError(await b.req('PATCH', `/entities/fields/tags/values/${secret!.id}`, { data: { fields: { name: 'mine' } } }), 'resource.notFound');
    expectError(await b.req('DELETE', `/entities/fields/tags/values/${secret!.id}`), 'resource.notFound');
  });

  it('scopes: a viewer lists values; creating, renaming and deleting take fields:write', async () => {
    const ws = await newWorkspace();
    const viewer = client(app, (await ws.member({ role: 'viewer' })).token);
    const c = client(app, ws.token);
    await c.entity('product', undefined, { tags: [{ name: 'a' }] });
    const [a] = await values(viewer, 'tags');
    expectError(await viewer.req('POST', '/entities/fields/tags/values', { data: { fields: { name: 'b' } } }), 'auth.accessDenied');
    expectError(await viewer.req('PATCH', `/entities/fields/tags/values/${a!.id}`, { data: { fields: { name: 'b' } } }), 'auth.accessDenied');
    expectError(await viewer.req('DELETE', `/entities/fields/tags/values/${a!.id}`), 'auth.accessDenied');
    const created = await c.req('POST', '/entities/fields/tags/values', { data: { fields: { name: 'b', color: 'lime' } } });
    expect(created.status, created.text).toBe(201);
    expect(created.json.data.links.self).toBe(`${app.baseUrl}/entities/fields/tags/values/${created.json.data.id}`);
    expect((await values(c, 'tags')).map((v) => v.fields)).toEqual([
      { name: 'a', color: a!.fields.color },
      { name: 'b', color: 'lime' },
    ]);
  });
});

describe('status values', () => {
  it("each type's status values, with the types each is assigned to; assignedEntityType[] keeps a type's", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const all = await values(c, 'status');
    expect(all.map((v) => v.fields.name)).toEqual([...FEATURE_STATUSES.map((s) => s.name), 'Not started', 'Completed', 'Upcoming']);
    expect(all[2]).toEqual({
      id: FEATURE_STATUSES[2].id,
      fields: { name: 'Planned', assignedEntityTypes: ['product', 'component', 'feature', 'subfeature', 'initiative'] },
    });
    expect(all[3]!.fields.assignedEntityTypes).toEqual(['product', 'component', 'feature', 'subfeature', 'initiative', 'objective', 'keyResult', 'release']);
    expect(await values(c, 'status', '?assignedEntityType[]=feature')).toEqual(all.slice(0, FEATURE_STATUSES.length));
    expect((await values(c, 'status', '?assignedEntityType[]=release')).map((v) => v.fields.name)).toEqual(['In progress', 'Completed', 'Upcoming']);
    // Customers have no status field: none of the values is theirs.
    expect(await values(c, 'status', '?assignedEntityType[]=company')).toEqual([]);
    const paged = await c.ok('GET', '/entities/fields/status/values?limit=4');
    expect(paged.json.data).toEqual(all.slice(0, 4));
    expect(paged.json.links.next).toMatch(/limit=4&pageCursor=/);
  });

  it('are fixed: create, rename and delete → 400 naming the id parameter, as Productboard refuses them', async () => {
    const c = client(app, (await newWorkspace()).token);
    const planned = FEATURE_STATUSES[2].id;
    const detail = /each entity type has its own fixed set/;
    expectError(await c.req('POST', '/entities/fields/status/values', { data: { fields: { name: 'Someday' } } }), 'request.invalid', {
      source: { parameter: 'id' },
      detail,
    });
    expectError(await c.req('PATCH', `/entities/fields/status/values/${planned}`, { data: { fields: { name: 'Later' } } }), 'request.invalid', {
      source: { parameter: 'id' },
      detail,
    });
    expectError(await c.req('DELETE', `/entities/fields/status/values/${planned}`), 'request.invalid', { source: { parameter: 'id' }, detail });
  });

  it("an entity's status is one of its type's values; a customer has none", async () => {
    const c = client(app, (await newWorkspace()).token);
    const p = await c.entity('product', undefined, { status: { id: FEATURE_STATUSES[1].id, name: 'candidate' } });
    expect((await c.ok('GET', `/entities/${p}`)).json.data.fields.status).toEqual({ id: FEATURE_STATUSES[1].id, name: 'Candidate' });
    expectError(
      await c.req('POST', '/entities', { data: { type: 'product', fields: { name: 'x', status: { id: FEATURE_STATUSES[1].id, name: 'Planned' } } } }),
      'request.invalid',
      {
        source: { pointer: '/data/fields/status/name' },
        detail: /'Planned' is not the name of status/,
      },
    );
    expectError(await c.req('POST', '/entities', { data: { type: 'company', fields: { name: 'x', status: { name: 'Planned' } } } }), 'request.invalid', {
      source: { pointer: '/data/fields/status' },
    });
  });
});

describe('custom select options', () => {
  it('are the field’s values: listed with ids, added, renamed (every entity follows), deleted (cleared) or replaced', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const size = await addSelect(ws.workspaceId, 'feature', 'Size', 'S,M,L');
    const p = await c.entity('product');
    const options = await values(c, size);
    expect(options.map((o) => o.fields.name)).toEqual(['S', 'M', 'L']);
    const [s, m] = options;
    const f = await c.entity('feature', p, { [size]: 'M' });
    const read = async () => (await c.ok('GET', `/entities/${f}`)).json.data.fields[size];
    // Stored by the option's id: a rename shows on the entity.
    await c.ok('PATCH', `/entities/fields/${size}/values/${m!.id}`, { data: { fields: { name: 'Medium' } } });
    expect(await read()).toEqual({ id: m!.id, name: 'Medium' });
    expect((await c.ok('GET', `/entities/configurations/feature`)).json.data.fields[size].schema.properties.name).toEqual({
      type: 'string',
      enum: ['S', 'Medium', 'L'],
    });
    expectError(await c.req('PATCH', `/entities/${f}`, { data: { fields: { [size]: 'M' } } }), 'request.invalid', {
      source: { pointer: `/data/fields/${size}` },
    });
    // A new option is written like the others.
    const xl = await c.req('POST', `/entities/fields/${size}/values`, { data: { fields: { name: 'XL' } } });
    expect(xl.status, xl.text).toBe(201);
    expect((await values(c, size)).map((o) => o.fields.name)).toEqual(['S', 'Medium', 'L', 'XL']);
    expectError(await c.req('POST', `/entities/fields/${size}/values`, { data: { fields: { name: 'xl' } } }), 'conflict.uniqueViolation', {
      source: { pointer: '/data/fields/name' },
    });
    // Replaced by S, then S deleted: the entity reads S, then no value.
    expect((await c.req('DELETE', `/entities/fields/${size}/values/${m!.id}?replaceWith=${s!.id}`)).status).toBe(204);
    expect(await read()).toEqual({ id: s!.id, name: 'S' });
    // S is held through the replacement: kept without force, cleared with it.
    expectError(await c.req('DELETE', `/entities/fields/${size}/values/${s!.id}`), 'request.invalid', {
      source: { parameter: 'force' },
      detail: new RegExp(`^Entity ${f} holds value ${s!.id}, and others may`),
    });
    expect(await read()).toEqual({ id: s!.id, name: 'S' });
    expect((await c.req('DELETE', `/entities/fields/${size}/values/${s!.id}?force=true`)).status).toBe(204);
    expect(await read()).toBeUndefined();
    expect((await values(c, size)).map((o) => o.fields.name)).toEqual(['L', 'XL']);
  });

  it('a field id that is no field → 404; a field without values (a text field, name, teams) → 400 at the id parameter', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const text = ((await fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'feature', name: 'Notes', kind: 'text' })) as { id: string }).id;
    expectError(await c.req('GET', '/entities/fields/00000000-0000-4000-8000-000000000000/values'), 'resource.notFound');
    expectError(await c.req('GET', '/entities/fields/colour/values'), 'resource.notFound');
    for (const field of [text, 'name', 'teams'])
      expectError(await c.req('GET', `/entities/fields/${field}/values`), 'request.invalid', { source: { parameter: 'id' }, detail: /has no values/ });
    // Another workspace's select field is no field of this one.
    const other = await newWorkspace();
    const size = await addSelect(other.workspaceId, 'feature', 'Size', 'S');
    expectError(await c.req('GET', `/entities/fields/${size}/values`), 'resource.notFound');
  });
});

describe('stored form', () => {
  it('a tag value is an item with a name guard; a replaced one keeps only the pointer to its replacement', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    await c.entity('product', undefined, { tags: [{ name: 'One' }, { name: 'two' }] });
    const [one, two] = await values(c, 'tags');
    const item = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
    expect(await item(keys.fieldValueName(ws.workspaceId, 'tags', 'one'))).toMatchObject({ valueId: one!.id, name: 'One' });
    await c.ok('DELETE', `/entities/fields/tags/values/${one!.id}?replaceWith=${two!.id}`);
    expect(await item(keys.fieldValueName(ws.workspaceId, 'tags', 'one'))).toBeUndefined();
    const left = await item(keys.fieldValue(ws.workspaceId, 'tags', one!.id));
    expect(left).toMatchObject({ kind: 'fieldValueReplaced', replacedBy: two!.id });
    expect(left!.gsi1pk).toBeUndefined();
  });
});

describe('a delete refused while an entity holds the value, against writes that give it', () => {
  /** The two kinds of value such a delete judges: a tag, and a select option. */
  async function setUp() {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const size = await addSelect(ws.workspaceId, 'product', 'Size', 'S,M');
    const [s] = await values(c, size);
    const tag = (await c.ok('POST', '/entities/fields/tags/values', { data: { fields: { name: 'mobile' } } })).json.data.id as string;
    return {
      c,
      kinds: [
        { field: 'tags', value: tag, give: { tags: [{ id: tag }] }, read: (fields: Record<string, any>) => fields.tags },
        { field: size, value: s!.id, give: { [size]: { id: s!.id } }, read: (fields: Record<string, any>) => fields[size] },
      ],
    };
  }
  const isLook = (call: ProxiedCall) => call.operation === 'Query' && String(call.input.ProjectionExpression).includes('#fields.#f');
  const isEntityWrite = (call: ProxiedCall) =>
    call.operation === 'TransactWriteItems' && (call.input.TransactItems as any[]).some((i) => String(i.Update?.Key?.sk?.S).startsWith('ENT#'));
  const signal = () => {
    let done!: () => void;
    return { at: new Promise<void>((r) => (done = r)), done: () => done() };
  };

  it('a write that lands while the delete reads the entities: the delete reads again and refuses; the entity keeps the value', async () => {
    const { c, kinds } = await setUp();
    for (const k of kinds) {
      const e = await c.entity('product');
      const looked = signal();
      const written = signal();
      // The delete's look at the entities reads the table before the write and answers after it; the
      // delete's own transaction goes to the table only once the write has answered.
      let looks = 0;
      const rule = async (call: ProxiedCall) => {
        if (isLook(call) && looks++ === 0) {
          setTimeout(looked.done, 50);
          return FAULTS.withhold(300);
        }
        if (call.operation === 'TransactWriteItems' && !isEntityWrite(call)) await written.at;
        return FAULTS.forward();
      };
      const [deleted, write] = await withFaults(rule, async () => {
        const del = c.req('DELETE', `/entities/fields/${k.field}/values/${k.value}`);
        await looked.at;
        const w = await c.req('PATCH', `/entities/${e}`, { data: { fields: k.give } });
        written.done();
        return [await del, w];
      });
      expect(write.status, write.text).toBe(200);
      expectError(deleted, 'request.invalid', { source: { parameter: 'force' }, detail: new RegExp(`^Entity ${e} holds value ${k.value}, and others may`) });
      expect(k.read((await c.ok('GET', `/entities/${e}`)).json.data.fields)).toEqual(expect.anything());
      expect((await values(c, k.field)).map((v) => v.id)).toContain(k.value);
    }
  });

  it('a delete that lands between a write’s read of the value and its transaction: the write is refused and the entity stays without it', async () => {
    const { c, kinds } = await setUp();
    for (const k of kinds) {
      const e = await c.entity('product');
      const writing = signal();
      const deleted = signal();
      let held = false;
      const rule = async (call: ProxiedCall) => {
        if (isEntityWrite(call) && !held) {
          held = true;
          writing.done();
          await deleted.at;
        }
        return FAULTS.forward();
      };
      const [write, del] = await withFaults(rule, async () => {
        const w = c.req('PATCH', `/entities/${e}`, { data: { fields: k.give } });
        await writing.at;
        const d = await c.req('DELETE', `/entities/fields/${k.field}/values/${k.value}`);
        deleted.done();
        return [await w, d];
      });
      expect(del.status, del.text).toBe(204);
      expectError(write, 'request.invalid', { source: { pointer: k.field === 'tags' ? '/data/fields/tags/0/id' : `/data/fields/${k.field}` } });
      expect(k.read((await c.ok('GET', `/entities/${e}`)).json.data.fields)).toBeUndefined();
    }
  });

  it('a value deleted or replaced before is no value: its delete answers 404 with or without force, though entities still store its id', async () => {
    const { c, kinds } = await setUp();
    const other = (await c.ok('POST', '/entities/fields/tags/values', { data: { fields: { name: 'web' } } })).json.data.id as string;
    for (const k of kinds) {
      await c.entity('product', undefined, k.give);
      expect((await c.req('DELETE', `/entities/fields/${k.field}/values/${k.value}?force=true`)).status).toBe(204);
      for (const query of ['', '?force=true'])
        expectError(await c.req('DELETE', `/entities/fields/${k.field}/values/${k.value}${query}`), 'resource.notFound', {
          detail: `Field ${k.field} has no value ${k.value}.`,
        });
    }
    // Replaced: the id stays as a pointer, not a value.
    const replaced = (await c.ok('POST', '/entities/fields/tags/values', { data: { fields: { name: 'desktop' } } })).json.data.id as string;
    await c.entity('product', undefined, { tags: [{ id: replaced }] });
    expect((await c.req('DELETE', `/entities/fields/tags/values/${replaced}?replaceWith=${other}`)).status).toBe(204);
    expectError(await c.req('DELETE', `/entities/fields/tags/values/${replaced}`), 'resource.notFound', { detail: `Field tags has no value ${replaced}.` });
  });

  it('one write gives an entity as many tags it did not have as one transaction holds beside the entity, and refuses more whole', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    // 100 tag values written straight to the table (the route would take 100 requests).
    const at = Date.now();
    const tags = Array.from({ length: 100 }, (_, i) => ({
      id: randomUUID(),
      name: `t${i}`,
      color: 'blue' as const,
      createdAt: new Date(at + i).toISOString(),
    }));
    await batchWriteAll(tags.flatMap((t) => newTagValueItems(ws.workspaceId, t)).map((item) => ({ PutRequest: { Item: item.Put!.Item! } })));
    const e = await c.entity('product');
    const give = (n: number) => c.req('PATCH', `/entities/${e}`, { data: { fields: { tags: tags.slice(0, n).map((t) => ({ id: t.id })) } } });
    expectError(await give(100), 'request.invalid', {
      source: { pointer: '/data/fields/tags' },
      detail: 'This write gives the entity 100 values it did not have, more than one write can (at most 99 here); send the rest of its tags in another write.',
    });
    expect(await tagsOf(c, e)).toBeUndefined();
    expect((await give(99)).status).toBe(200);
    expect(await tagsOf(c, e)).toHaveLength(99);
    // Those it has already take no room: the hundredth joins them.
    expect((await give(100)).status).toBe(200);
    expect(await tagsOf(c, e)).toHaveLength(100);
  });
});
