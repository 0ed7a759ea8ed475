// Teams (Productboard's teams.yaml): create, list, search, get, update with member operations,
// delete; the members routes show each member's teams; entities are assigned to teams and filtered
// by them.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { MEMBERS_PER_TRANSACTION } from '#lib/store/teams.ts';
import { client } from '../score/helpers.ts';
import { expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

type Client = ReturnType<typeof client>;
const create = async (c: Client, name: string, handle: string, description?: string) =>
  (await c.ok('POST', '/teams', { data: { fields: { name, handle, ...(description !== undefined ? { description } : {}) } } })).json.data.id as string;
const names = async (c: Client, path: string, body?: unknown) => {
  const res = body === undefined ? await c.req('GET', path) : await c.req('POST', path, body);
  expect(res.status, res.text).toBe(200);
  return res.json.data.map((t: { fields: { name: string } }) => t.fields.name);
};
const patchMembers = (c: Client, id: string, patch: unknown[]) => c.req('PATCH', `/teams/${id}`, { data: { patch } });
const memberIdsOf = async (c: Client, team: string) => (await c.ok('GET', `/teams/${team}/members?limit=100`)).json.data.map((m: { id: string }) => m.id);
const raw = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

describe('teams', () => {
  it('create → 201 reference; get shows the team; the list is newest first and filters by name, handle and query', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const res = await c.req('POST', '/teams', { data: { fields: { name: 'Product Team', handle: 'productteam', description: 'Builds it' } } });
    expect(res.status, res.text).toBe(201);
    const id = res.json.data.id;
    const links = { self: `${app.baseUrl}/teams/${id}`, members: `${app.baseUrl}/teams/${id}/members`, html: `${app.webUrl}/teams/${id}` };
    expect(res.json).toEqual({ data: { id, type: 'team', links } });
    expect(res.headers.get('location')).toBe(links.self);
    const got = (await c.ok('GET', `/teams/${id}`)).json.data;
    expect(got).toEqual({
      id,
      type: 'team',
      fields: { name: 'Product Team', handle: 'productteam', description: 'Builds it', avatarUrl: null },
      links,
      createdAt: expect.any(String),
      updatedAt: got.createdAt,
    });
    await create(c, 'Engineering', 'eng');
    await create(c, 'Product Marketing', 'pmm');
    expect(await names(c, '/teams')).toEqual(['Product Marketing', 'Engineering', 'Product Team']);
    expect(await names(c, '/teams?name=product%20team')).toEqual(['Product Team']);
    expect(await names(c, '/teams?handle=ENG')).toEqual(['Engineering']);
    expect(await names(c, '/teams?query=product')).toEqual(['Product Marketing', 'Product Team']);
    expect(await names(c, '/teams?query=pm')).toEqual(['Product Marketing']);
    const first = await c.ok('GET', '/teams?limit=2');
    expect(first.json.data).toHaveLength(2);
    const next = first.json.links.next as string;
    expect((await c.ok('GET', next.slice(next.indexOf('/v2/') + 3))).json.data.map((t: any) => t.fields.name)).toEqual(['Product Team']);
  });

  it('search: ids, names and handles (one or a list, any case) and a query, all of which must hold', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const a = await create(c, 'Alpha', 'alpha');
    const b = await create(c, 'Beta', 'beta');
    await create(c, 'Gamma', 'gamma');
    expect(await names(c, '/teams/search', { data: { filter: { id: [a, b] } } })).toEqual(['Beta', 'Alpha']);
    expect(await names(c, '/teams/search', { data: { filter: { id: a } } })).toEqual(['Alpha']);
    expect(await names(c, '/teams/search', { data: { filter: { fields: { name: ['ALPHA', 'gamma'], handle: 'gamma' } } } })).toEqual(['Gamma']);
    expect(await names(c, '/teams/search', { data: { search: { query: 'ta' } } })).toEqual(['Beta']);
    expect(await names(c, '/teams/search', { data: { filter: { id: [a] }, search: { query: 'beta' } } })).toEqual([]);
    expect(await names(c, '/teams/search', {})).toHaveLength(3);
    expectError(await c.req('POST', '/teams/search', { data: { filter: { colour: 'red' } } }), 'request.invalid', {
      source: { pointer: '/data/filter/colour' },
    });
    expectError(await c.req('POST', '/teams/search', { data: { filter: { id: Array.from({ length: 101 }, () => a) } } }), 'request.invalid', {
      source: { pointer: '/data/filter/id' },
    });
    const page = await c.ok('POST', '/teams/search?limit=1', { data: {} });
    expectError(
      await c.req('POST', (page.json.links.next as string).slice(page.json.links.next.indexOf('/v2/') + 3), { data: { search: { query: 'a' } } }),
      'request.invalid',
      {
        source: { parameter: 'pageCursor' },
      },
    );
  });

  it('names and handles are unique (names any case): 409 at the field; a bad handle → 400; nothing made', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    await create(c, 'Design', 'design');
    expectError(await c.req('POST', '/teams', { data: { fields: { name: 'DESIGN', handle: 'other' } } }), 'conflict.uniqueViolation', {
      source: { pointer: '/data/fields/name' },
    });
    expectError(await c.req('POST', '/teams', { data: { fields: { name: 'Other', handle: 'design' } } }), 'conflict.uniqueViolation', {
      source: { pointer: '/data/fields/handle' },
    });
    expectError(await c.req('POST', '/teams', { data: { fields: { name: 'Other', handle: 'Has Space' } } }), 'request.invalid', {
      source: { pointer: '/data/fields/handle' },
      detail: "'/data/fields/handle' must be lowercase letters and digits only (got 'Has Space').",
    });
    expectError(await c.req('POST', '/teams', { data: { fields: { name: 'Other' } } }), 'request.invalid', { source: { pointer: '/data/fields/handle' } });
    expectError(await c.req('POST', '/teams', { data: { fields: { name: 'Other', handle: 'other', avatarUrl: 'https://x.test/a.png' } } }), 'request.invalid', {
      source: { pointer: '/data/fields/avatarUrl' },
    });
    expect(await names(c, '/teams')).toEqual(['Design']);
  });

  it('a name of 255 four-byte characters, past a key’s 1024 bytes: created, read back, filtered by, unique in any case, renamed to and from', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const long = '😀'.repeat(255);
    const cased = `${'😀'.repeat(254)}X`;
    const res = await c.req('POST', '/teams', { data: { fields: { name: long, handle: 'long' } } });
    expect(res.status, res.text).toBe(201);
    const id = res.json.data.id;
    const links = { self: `${app.baseUrl}/teams/${id}`, members: `${app.baseUrl}/teams/${id}/members`, html: `${app.webUrl}/teams/${id}` };
    expect(res.json).toEqual({ data: { id, type: 'team', links } });
    expect((await c.ok('GET', `/teams/${id}`)).json.data.fields).toEqual({ name: long, handle: 'long', avatarUrl: null });
    expect(await names(c, `/teams?name=${encodeURIComponent(long)}`)).toEqual([long]);
    const other = await create(c, cased, 'cased');
    for (const name of [long, cased.toLowerCase()])
      expectError(await c.req('POST', '/teams', { data: { fields: { name, handle: 'another' } } }), 'conflict.uniqueViolation', {
        source: { pointer: '/data/fields/name' },
      });
    // Renamed from the long name, and another team to it: the name moves with them.
    await c.ok('PATCH', `/teams/${id}`, { data: { fields: { name: 'Short' } } });
    await c.ok('PATCH', `/teams/${other}`, { data: { fields: { name: long } } });
    expectError(await c.req('PATCH', `/teams/${id}`, { data: { fields: { name: long } } }), 'conflict.uniqueViolation', {
      source: { pointer: '/data/fields/name' },
    });
    await create(c, cased.toLowerCase(), 'freed');
    expect(await names(c, '/teams')).toEqual([cased.toLowerCase(), long, 'Short']);
  });

  it('update: fields (a rename frees the old name; null clears the description) and members by id or e-mail: addItems, removeItems, set, clear', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const team = await create(c, 'Core', 'core', 'Old');
    const other = await create(c, 'Other', 'other');
    const { member: ada } = await ws.member({ email: `ada-${Date.now()}@example.com` });
    const { member: bob } = await ws.member();
    const renamed = await c.req('PATCH', `/teams/${team}`, { data: { fields: { name: 'Platform', handle: 'platform', description: null } } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json.data).toEqual({ id: team, type: 'team', links: expect.objectContaining({ self: `${app.baseUrl}/teams/${team}` }) });
    expect((await c.ok('GET', `/teams/${team}`)).json.data.fields).toEqual({ name: 'Platform', handle: 'platform', avatarUrl: null });
    await create(c, 'Core', 'core');
    expectError(await c.req('PATCH', `/teams/${team}`, { data: { fields: { name: 'other' } } }), 'conflict.uniqueViolation', {
      source: { pointer: '/data/fields/name' },
    });

    expect((await patchMembers(c, team, [{ op: 'addItems', path: 'members', value: [{ id: ada.id }, { email: ws.admin.email.toUpperCase() }] }])).status).toBe(
      200,
    );
    // Newest membership first: the two joined in one write, so by id within it.
    expect((await memberIdsOf(c, team)).sort()).toEqual([ada.id, ws.admin.id].sort());
    await patchMembers(c, team, [{ op: 'addItems', path: 'members', value: [{ id: bob.id }, { id: ada.id }] }]);
    expect((await memberIdsOf(c, team))[0]).toBe(bob.id);
    await patchMembers(c, other, [{ op: 'addItems', path: 'members', value: [{ id: ada.id }] }]);
    // The member shows its teams, by name.
    const adaView = (await c.ok('GET', `/members/${ada.id}`)).json.data.fields.teams;
    expect(adaView).toEqual([
      { id: other, name: 'Other', links: { self: `${app.baseUrl}/teams/${other}` } },
      { id: team, name: 'Platform', links: { self: `${app.baseUrl}/teams/${team}` } },
    ]);
    await patchMembers(c, team, [{ op: 'removeItems', path: 'members', value: [{ id: ada.id }, { id: ada.id }] }]);
    expect((await memberIdsOf(c, team)).sort()).toEqual([bob.id, ws.admin.id].sort());
    await patchMembers(c, team, [{ op: 'set', path: 'members', value: [{ id: ada.id }] }]);
    expect(await memberIdsOf(c, team)).toEqual([ada.id]);
    // Fields and members in one request; then clear.
    await c.ok('PATCH', `/teams/${team}`, {
      data: {
        fields: { description: 'Runs it' },
        patch: [
          { op: 'clear', path: 'members' },
          { op: 'addItems', path: 'members', value: [{ id: bob.id }] },
        ],
      },
    });
    expect(await memberIdsOf(c, team)).toEqual([bob.id]);
    expect((await c.ok('GET', `/members/${ada.id}`)).json.data.fields.teams.map((t: { id: string }) => t.id)).toEqual([other]);
    // A member the workspace has not → 400 at it, nothing changed (the rename in the same request either).
    const bad = await c.req('PATCH', `/teams/${team}`, {
      data: { fields: { name: 'Renamed' }, patch: [{ op: 'addItems', path: 'members', value: [{ id: ada.id }, { email: 'nobody@example.com' }] }] },
    });
    expectError(bad, 'request.invalid', { source: { pointer: '/data/patch/0/value/1/email' } });
    expect(await memberIdsOf(c, team)).toEqual([bob.id]);
    expect((await c.ok('GET', `/teams/${team}`)).json.data.fields.name).toBe('Platform');
    expectError(await c.req('PATCH', `/teams/${team}`, { data: {} }), 'request.invalid', { source: { pointer: '/data' } });
    expectError(await patchMembers(c, team, [{ op: 'set', path: 'owners', value: [] }]), 'request.invalid', {
      source: { pointer: '/data/patch/0/path' },
      detail: /must be 'members'/,
    });
  });

  it(`a change of more members than one transaction takes (${MEMBERS_PER_TRANSACTION}) applies in steps, every member once`, async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const team = await create(c, 'Everyone', 'everyone');
    const many = [];
    for (let i = 0; i < MEMBERS_PER_TRANSACTION + 15; i++) many.push((await ws.member({ role: 'viewer' })).member);
    expect((await patchMembers(c, team, [{ op: 'set', path: 'members', value: many.map((m) => ({ id: m.id })) }])).status).toBe(200);
    const listed = await memberIdsOf(c, team);
    expect(listed.sort()).toEqual(many.map((m) => m.id).sort());
    const page = await c.ok('GET', '/members?limit=100');
    expect(page.json.data.filter((m: any) => m.fields.teams.some((t: { id: string }) => t.id === team))).toHaveLength(many.length);
    await patchMembers(c, team, [{ op: 'clear', path: 'members' }]);
    expect(await memberIdsOf(c, team)).toEqual([]);
    expect((await raw(keys.member(ws.workspaceId, many[0]!.id)))!.teamIds).toBeUndefined();
  }, 120_000);

  it('delete: 204, then 404; its memberships go (members stay, without it); its name and handle are free again', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const team = await create(c, 'Temp', 'temp');
    const { member } = await ws.member();
    await patchMembers(c, team, [{ op: 'addItems', path: 'members', value: [{ id: member.id }] }]);
    expect((await c.req('DELETE', `/teams/${team}`)).status).toBe(204);
    expectError(await c.req('GET', `/teams/${team}`), 'resource.notFound');
    expectError(await c.req('GET', `/teams/${team}/members`), 'resource.notFound');
    expectError(await c.req('DELETE', `/teams/${team}`), 'resource.notFound');
    expectError(await c.req('PATCH', `/teams/${team}`, { data: { fields: { name: 'x' } } }), 'resource.notFound');
    expect((await c.ok('GET', `/members/${member.id}`)).json.data.fields.teams).toEqual([]);
    expect(await raw(keys.teamMembership(ws.workspaceId, team, member.id))).toBeUndefined();
    expect(await raw(keys.team(ws.workspaceId, team))).toBeUndefined();
    expect(await names(c, '/teams')).toEqual([]);
    await create(c, 'Temp', 'temp');
  });

  it('a team member list: name and e-mail only with members:pii:read; scopes: a viewer reads, writes take teams:write, deletes teams:delete', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const team = await create(c, 'Readers', 'readers');
    await patchMembers(c, team, [{ op: 'addItems', path: 'members', value: [{ id: ws.admin.id }] }]);
    const full = (await c.ok('GET', `/teams/${team}/members`)).json.data;
    expect(full).toEqual([
      { id: ws.admin.id, type: 'member', fields: { name: ws.admin.name, email: ws.admin.email }, links: { self: `${app.baseUrl}/members/${ws.admin.id}` } },
    ]);
    const noPii = client(app, (await ws.member({ role: 'viewer', scopes: ['teams:read'] })).token);
    expect((await noPii.ok('GET', `/teams/${team}/members`)).json.data[0].fields).toEqual({ name: '[redacted]', email: '[redacted]' });
    const viewer = client(app, (await ws.member({ role: 'viewer' })).token);
    expect(await names(viewer, '/teams')).toEqual(['Readers']);
    expectError(await viewer.req('POST', '/teams', { data: { fields: { name: 'V', handle: 'v' } } }), 'auth.accessDenied');
    expectError(await viewer.req('PATCH', `/teams/${team}`, { data: { fields: { name: 'V' } } }), 'auth.accessDenied');
    expectError(await viewer.req('DELETE', `/teams/${team}`), 'auth.accessDenied');
    const writer = client(app, (await ws.member({ role: 'maker', scopes: ['teams:read', 'teams:write'] })).token);
    expectError(await writer.req('DELETE', `/teams/${team}`), 'auth.accessDenied');
    const noTeams = client(app, (await ws.member({ role: 'maker', scopes: ['entities:read'] })).token);
    expectError(await noTeams.req('GET', '/teams'), 'auth.accessDenied');
  });

  it("another workspace's team is 404 on every team route, and names none of this workspace's members", async () => {
    const a = await newWorkspace();
    const b: TestWorkspace = await newWorkspace();
    const ca = client(app, a.token);
    const cb = client(app, b.token);
    const team = await create(ca, 'Private', 'private');
    for (const [method, path, body] of [
      ['GET', `/teams/${team}`],
      ['GET', `/teams/${team}/members`],
      ['PATCH', `/teams/${team}`, { data: { fields: { name: 'Mine' } } }],
      ['DELETE', `/teams/${team}`],
    ] as const) {
      expectError(await cb.req(method, path, body), 'resource.notFound');
    }
    expect(await names(cb, '/teams')).toEqual([]);
    expect(await names(cb, '/teams/search', { data: { filter: { id: [team] } } })).toEqual([]);
    expectError(await patchMembers(ca, team, [{ op: 'addItems', path: 'members', value: [{ id: b.admin.id }] }]), 'request.invalid', {
      source: { pointer: '/data/patch/0/value/0/id' },
    });
  });
});

describe('entities and teams', () => {
  it('an entity is assigned teams by id or name; reads show their current names; a deleted team drops out', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const web = await create(c, 'Web', 'web');
    const mobile = await create(c, 'Mobile', 'mobile');
    const p = await c.entity('product', undefined, { teams: [{ name: 'web' }, { id: mobile }] });
    const teamsOf = async (id: string) => (await c.ok('GET', `/entities/${id}`)).json.data.fields.teams;
    expect(await teamsOf(p)).toEqual([
      { id: web, name: 'Web' },
      { id: mobile, name: 'Mobile' },
    ]);
    await c.ok('PATCH', `/teams/${web}`, { data: { fields: { name: 'Web & Desktop' } } });
    expect(await teamsOf(p)).toEqual([
      { id: web, name: 'Web & Desktop' },
      { id: mobile, name: 'Mobile' },
    ]);
    await c.ok('PATCH', `/entities/${p}`, { data: { patch: [{ op: 'removeItems', path: 'teams', value: [{ name: 'mobile' }] }] } });
    expect(await teamsOf(p)).toEqual([{ id: web, name: 'Web & Desktop' }]);
    await c.ok('DELETE', `/teams/${web}`);
    expect(await teamsOf(p)).toBeUndefined();
    // A team that does not exist is refused at its place; nothing is written.
    expectError(await c.req('POST', '/entities', { data: { type: 'product', fields: { name: 'x', teams: [{ name: 'Nobody' }] } } }), 'request.invalid', {
      source: { pointer: '/data/fields/teams/0/name' },
      detail: /No team named 'Nobody'/,
    });
    expectError(await c.req('PATCH', `/entities/${p}`, { data: { fields: { teams: [{ id: web }] } } }), 'request.invalid', {
      source: { pointer: '/data/fields/teams/0/id' },
    });
    // Customers have no teams.
    expectError(await c.req('POST', '/entities', { data: { type: 'company', fields: { name: 'x', teams: [{ id: mobile }] } } }), 'request.invalid', {
      source: { pointer: '/data/fields/teams' },
    });
  });

  it('teams[id] and teams[name] filter the entity list, the search filter.fields.teams too; both given → 400; a team that is gone matches nothing', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const web = await create(c, 'Web', 'web');
    const mobile = await create(c, 'Mobile', 'mobile');
    await c.entity('product', undefined, { name: 'Site', teams: [{ id: web }] });
    await c.entity('product', undefined, { name: 'App', teams: [{ id: mobile }, { id: web }] });
    await c.entity('product', undefined, { name: 'Nobody’s' });
    const list = (qs: string) => names(c, `/entities?type=product&${qs}`);
    expect(await list(`teams[id]=${mobile}`)).toEqual(['App']);
    expect(await list('teams[name]=WEB')).toEqual(['Site', 'App']);
    expect(await list('teams[name]=Design')).toEqual([]);
    expectError(await c.req('GET', `/entities?teams[id]=${web}&teams[name]=Web`), 'request.invalid', { source: { parameter: 'teams[name]' } });
    expectError(await c.req('GET', '/entities?teams[id]=web'), 'request.invalid', { source: { parameter: 'teams[id]' } });
    expect(await names(c, '/entities/search', { data: { filter: { type: 'product', fields: { teams: [{ name: 'mobile' }, { id: web }] } } } })).toEqual([
      'Site',
      'App',
    ]);
    expect(await names(c, '/entities/search', { data: { filter: { fields: { teams: [{ id: mobile }] } } } })).toEqual(['App']);
    await c.ok('DELETE', `/teams/${mobile}`);
    expect(await list(`teams[id]=${mobile}`)).toEqual([]);
    expectError(await c.req('POST', '/entities/search', { data: { filter: { fields: { teams: [{ colour: 'red' }] } } } }), 'request.invalid', {
      source: { pointer: '/data/filter/fields/teams/0' },
    });
  });

  it('a team named with 255 four-byte characters, past a key’s 1024 bytes, is assigned and filtered by its name like any other', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const long = `${'😀'.repeat(254)}X`;
    const unknown = '😃'.repeat(255);
    const list = (name: string) => names(c, `/entities?type=product&teams[name]=${encodeURIComponent(name)}`);
    const search = (name: string) => names(c, '/entities/search', { data: { filter: { type: 'product', fields: { teams: [{ name }] } } } });
    await c.entity('product', undefined, { name: 'Other' });
    expect(await list(unknown)).toEqual([]);
    expect(await search(unknown)).toEqual([]);
    const team = await create(c, long, 'long');
    const site = await c.entity('product', undefined, { name: 'Site', teams: [{ name: long.toLowerCase() }] });
    expect((await c.ok('GET', `/entities/${site}`)).json.data.fields.teams).toEqual([{ id: team, name: long }]);
    expect(await list(long.toLowerCase())).toEqual(['Site']);
    expect(await search(long)).toEqual(['Site']);
    expectError(await c.req('POST', '/entities', { data: { type: 'product', fields: { name: 'x', teams: [{ name: unknown }] } } }), 'request.invalid', {
      source: { pointer: '/data/fields/teams/0/name' },
      detail: `No team named '${unknown.slice(0, 100)}' in this workspace (GET /v2/teams lists them).`,
    });
  });
});
