// Productboard's teams operations, as its documents define them.
import { idsOf, reads, writes, type Check } from './check.ts';
import type { Probe } from './probe.ts';
import type { World } from './world.ts';

type TeamPatch =
  { op: 'addItems' | 'removeItems' | 'set'; path: 'members'; value: Array<{ id: string } | { email: string }> } | { op: 'clear'; path: 'members' };

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** The team's names in the order a list answered them. */
const namesOf = (probe: Probe, list: { data?: Array<{ id: string }> }) => (list.data ?? []).map((t) => probe.nameList([t.id]));

const getTeam = (world: World, id: string) => world.pb.teams.GET('/teams/{id}', { params: { path: { id } } });

const patchMembers = (world: World, id: string, patch: TeamPatch[]) =>
  world.pb.teams.PATCH('/teams/{id}', { params: { path: { id } }, body: { data: { patch } } });

/** The team's members, as listTeamMembers answers them. */
async function membersOf(world: World, probe: Probe, id: string): Promise<string[]> {
  const list = await probe.reply('listTeamMembers', 200, world.pb.teams.GET('/teams/{id}/members', { params: { path: { id } } }));
  return idsOf(list);
}

const listChecks: Check[] = [
  reads('listTeams', 'lists the teams of the workspace, newest first', async ({ seed, probe }) => {
    const list = await probe.reply('listTeams', 200, seed.world.pb.teams.GET('/teams'));
    probe.equal('teams', namesOf(probe, list), ['Idle team', 'Payments team']);
  }),
  reads('listTeams.name', 'name keeps the team of that name, compared case-insensitively', async ({ seed, probe }) => {
    const list = await probe.reply('listTeams', 200, seed.world.pb.teams.GET('/teams', { params: { query: { name: 'PAYMENTS TEAM' } } }));
    probe.same('teams named so', idsOf(list), [seed.teams.payments]);
  }),
  reads('listTeams.handle', 'handle keeps the team of that handle', async ({ seed, probe }) => {
    const list = await probe.reply('listTeams', 200, seed.world.pb.teams.GET('/teams', { params: { query: { handle: 'idle' } } }));
    probe.same('teams with handle idle', idsOf(list), [seed.teams.idle]);
  }),
  reads('listTeams.query', 'query matches part of the name or handle, case-insensitively', async ({ seed, probe }) => {
    const list = await probe.reply('listTeams', 200, seed.world.pb.teams.GET('/teams', { params: { query: { query: 'PAY' } } }));
    probe.same('matching teams', idsOf(list), [seed.teams.payments]);
  }),
  reads('performTeamsSearch.id', 'filter.id keeps those teams', async ({ seed, probe }) => {
    const list = await probe.reply(
      'performTeamsSearch',
      200,
      seed.world.pb.teams.POST('/teams/search', { body: { data: { filter: { id: [seed.teams.idle, UNKNOWN] } } } }),
    );
    probe.same('teams', idsOf(list), [seed.teams.idle]);
  }),
  reads('performTeamsSearch.fields', 'filter.fields name and handle (any case) must both hold', async ({ seed, probe }) => {
    const both = await probe.reply(
      'performTeamsSearch',
      200,
      seed.world.pb.teams.POST('/teams/search', { body: { data: { filter: { fields: { name: ['payments team', 'Idle team'], handle: 'IDLE' } } } } }),
    );
    probe.same('teams named so with handle idle', idsOf(both), [seed.teams.idle]);
  }),
  reads('performTeamsSearch.query', 'search.query matches part of the name or handle', async ({ seed, probe }) => {
    const list = await probe.reply('performTeamsSearch', 200, seed.world.pb.teams.POST('/teams/search', { body: { data: { search: { query: 'dle' } } } }));
    probe.same('matching teams', idsOf(list), [seed.teams.idle]);
  }),
  reads('getTeam', 'retrieves a team with its fields and links', async ({ seed, probe }) => {
    const id = seed.teams.payments;
    const got = await probe.reply('getTeam', 200, getTeam(seed.world, id));
    const base = seed.world.app.baseUrl;
    probe.equal('fields', got.data?.fields, { name: 'Payments team', handle: 'payments', avatarUrl: null });
    probe.equal('links self and members', [got.data?.links.self, got.data?.links.members], [`${base}/teams/${id}`, `${base}/teams/${id}/members`]);
  }),
  reads('getTeam.unknown', 'no such team → 404 resource.notFound', async ({ seed, probe }) => {
    await probe.refusal('getTeam', { status: 404, code: 'resource.notFound' }, getTeam(seed.world, UNKNOWN));
  }),
  reads('listTeamMembers', "lists a team's members; a team without members lists none", async ({ seed, probe }) => {
    probe.same('members of Payments team', await membersOf(seed.world, probe, seed.teams.payments), [seed.maker.id]);
    probe.same('members of Idle team', await membersOf(seed.world, probe, seed.teams.idle), []);
  }),
];

const writeChecks: Check[] = [
  writes('createTeam', '→ 201 with the reference; the team reads back as created', async ({ world, probe }) => {
    const created = await probe.reply(
      'createTeam',
      201,
      world.pb.teams.POST('/teams', { body: { data: { fields: { name: 'Design', handle: 'design', description: 'Draws it' } } } }),
    );
    const id = created.data.id;
    world.names.set(id, 'Design');
    probe.equal('reference', [created.data.type, created.data.links.self], ['team', `${world.app.baseUrl}/teams/${id}`]);
    const got = await probe.reply('getTeam', 200, getTeam(world, id));
    probe.equal('fields', got.data?.fields, { name: 'Design', handle: 'design', description: 'Draws it', avatarUrl: null });
  }),
  writes('createTeam.duplicate', 'a name another team has (any case) → 409 conflict.uniqueViolation at the name; nothing made', async ({ world, probe }) => {
    const first = await world.team(probe, 'Design', 'design');
    await probe.refusal(
      'createTeam',
      { status: 409, code: 'conflict.uniqueViolation', pointer: '/data/fields/name' },
      world.pb.teams.POST('/teams', { body: { data: { fields: { name: 'DESIGN', handle: 'other' } } } }),
    );
    const list = await probe.reply('listTeams', 200, world.pb.teams.GET('/teams'));
    probe.same('teams', idsOf(list), [first]);
  }),
  writes('updateTeam.fields', 'PATCH fields renames the team and changes its handle', async ({ world, probe }) => {
    const id = await world.team(probe, 'Core', 'core');
    const updated = await probe.reply(
      'updateTeam',
      200,
      world.pb.teams.PATCH('/teams/{id}', { params: { path: { id } }, body: { data: { fields: { name: 'Platform', handle: 'platform' } } } }),
    );
    probe.equal('reference id', updated.data.id, id);
    const got = await probe.reply('getTeam', 200, getTeam(world, id));
    probe.equal('fields', got.data?.fields, { name: 'Platform', handle: 'platform', avatarUrl: null });
  }),
  writes('updateTeam.members', 'PATCH patch members: addItems (by id or e-mail), removeItems, set and clear', async ({ world, probe }) => {
    const id = await world.team(probe, 'Core', 'core');
    const ada = await world.member('ada');
    const bob = await world.member('bob');
    const admin = world.workspace.admin;
    await probe.reply('updateTeam', 200, patchMembers(world, id, [{ op: 'addItems', path: 'members', value: [{ id: ada.id }, { email: bob.email }] }]));
    probe.same('after addItems', await membersOf(world, probe, id), [ada.id, bob.id]);
    await probe.reply('updateTeam', 200, patchMembers(world, id, [{ op: 'removeItems', path: 'members', value: [{ id: ada.id }] }]));
    probe.same('after removeItems', await membersOf(world, probe, id), [bob.id]);
    await probe.reply('updateTeam', 200, patchMembers(world, id, [{ op: 'set', path: 'members', value: [{ id: admin.id }, { id: ada.id }] }]));
    probe.same('after set', await membersOf(world, probe, id), [admin.id, ada.id]);
    await probe.reply('updateTeam', 200, patchMembers(world, id, [{ op: 'clear', path: 'members' }]));
    probe.same('after clear', await membersOf(world, probe, id), []);
  }),
  writes('updateTeam.unknown-member', 'a member the workspace does not have → 400 request.invalid at it; nothing changed', async ({ world, probe }) => {
    const id = await world.team(probe, 'Core', 'core');
    const ada = await world.member('ada');
    await probe.refusal(
      'updateTeam',
      { status: 400, code: 'request.invalid', pointer: '/data/patch/0/value/1/email' },
      patchMembers(world, id, [{ op: 'addItems', path: 'members', value: [{ id: ada.id }, { email: 'nobody@example.com' }] }]),
    );
    probe.same('members', await membersOf(world, probe, id), []);
  }),
  writes(
    'deleteTeam.malformed',
    'an id that is not a uuid → 400 request.invalid at it (a status Productboard does not define here)',
    async ({ world, probe }) => {
      await probe.refusal(
        'deleteTeam',
        { status: 400, code: 'request.invalid', parameter: 'id' },
        world.pb.teams.DELETE('/teams/{id}', { params: { path: { id: 'not-a-uuid' } } }),
      );
    },
  ),
  writes('deleteTeam', '→ 204; the team is gone (404) and the entity assigned to it no longer names it', async ({ world, probe }) => {
    const id = await world.team(probe, 'Temp', 'temp');
    const product = await world.entity(probe, 'product', 'Product');
    const feature = await world.entity(probe, 'feature', 'Feature', { parent: product, fields: { teams: [{ id }] } });
    await probe.reply('deleteTeam', 204, world.pb.teams.DELETE('/teams/{id}', { params: { path: { id } } }));
    await probe.refusal('getTeam', { status: 404, code: 'resource.notFound' }, getTeam(world, id));
    const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: feature } } }));
    probe.equal("the feature's teams", got.data.fields?.teams ?? [], []);
  }),
];

export const TEAM_CHECKS: Check[] = [...listChecks, ...writeChecks];
