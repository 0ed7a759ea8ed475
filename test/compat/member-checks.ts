// Productboard's members operations (read-only), as its documents define them.
import { setMemberActive } from '#lib/store/members.ts';
import { idsOf, reads, writes, type Check } from './check.ts';

export const MEMBER_CHECKS: Check[] = [
  reads('listMembers', 'lists the active members of the workspace', async ({ seed, probe }) => {
    const list = await probe.reply('listMembers', 200, seed.world.pb.members.GET('/members'));
    probe.same('members', idsOf(list), [seed.world.workspace.admin.id, seed.maker.id]);
  }),
  reads('listMembers.roles[]', 'roles[] keeps the members of those roles', async ({ seed, probe }) => {
    const list = await probe.reply('listMembers', 200, seed.world.pb.members.GET('/members', { params: { query: { 'roles[]': ['admin'] } } }));
    probe.same('admins', idsOf(list), [seed.world.workspace.admin.id]);
  }),
  reads('listMembers.query', 'query matches part of the e-mail, case-insensitively', async ({ seed, probe }) => {
    const part = seed.maker.email.split('@')[0]!.toUpperCase();
    const list = await probe.reply('listMembers', 200, seed.world.pb.members.GET('/members', { params: { query: { query: part } } }));
    probe.same('matching members', idsOf(list), [seed.maker.id]);
  }),
  writes('listMembers.includeDisabled', 'a deactivated member is listed only with includeDisabled=true, as disabled', async ({ world, probe }) => {
    const gone = await world.member('gone');
    await setMemberActive(world.workspace.workspaceId, gone.email, false);
    const active = await probe.reply('listMembers', 200, world.pb.members.GET('/members'));
    probe.same('members by default', idsOf(active), [world.workspace.admin.id]);
    const all = await probe.reply('listMembers', 200, world.pb.members.GET('/members', { params: { query: { includeDisabled: true } } }));
    probe.same('members with includeDisabled', idsOf(all), [world.workspace.admin.id, gone.id]);
    probe.equal('disabled flags', (all.data ?? []).map((m) => `${probe.nameList([m.id])} ${m.fields.disabled}`).sort(), ['admin false', 'gone true']);
  }),
  reads('performMembersSearch', 'without filters: the active members', async ({ seed, probe }) => {
    const list = await probe.reply('performMembersSearch', 200, seed.world.pb.members.POST('/members/search', { body: {} }));
    probe.same('members', idsOf(list), [seed.world.workspace.admin.id, seed.maker.id]);
  }),
  reads('performMembersSearch.filter', 'filter.fields email (any case) and role must both hold', async ({ seed, probe }) => {
    const search = (role: 'maker' | 'admin') =>
      seed.world.pb.members.POST('/members/search', { body: { data: { filter: { fields: { email: seed.maker.email.toUpperCase(), role } } } } });
    probe.same('makers with that e-mail', idsOf(await probe.reply('performMembersSearch', 200, search('maker'))), [seed.maker.id]);
    probe.same('admins with that e-mail', idsOf(await probe.reply('performMembersSearch', 200, search('admin'))), []);
  }),
  reads('performMembersSearch.query', 'search.query matches part of the e-mail, case-insensitively', async ({ seed, probe }) => {
    const part = seed.maker.email.split('@')[0]!.toUpperCase();
    const list = await probe.reply('performMembersSearch', 200, seed.world.pb.members.POST('/members/search', { body: { data: { search: { query: part } } } }));
    probe.same('matching members', idsOf(list), [seed.maker.id]);
  }),
  writes('performMembersSearch.disabled', 'filter.fields.disabled=true finds the deactivated member only', async ({ world, probe }) => {
    const gone = await world.member('gone');
    await setMemberActive(world.workspace.workspaceId, gone.email, false);
    const list = await probe.reply(
      'performMembersSearch',
      200,
      world.pb.members.POST('/members/search', { body: { data: { filter: { fields: { disabled: true } } } } }),
    );
    probe.same('disabled members', idsOf(list), [gone.id]);
  }),
  reads('getMember', 'retrieves a member with e-mail and role (a token holding the members e-mail scope)', async ({ seed, probe }) => {
    const admin = seed.world.workspace.admin;
    const got = await probe.reply('getMember', 200, seed.world.pb.members.GET('/members/{id}', { params: { path: { id: admin.id } } }));
    probe.equal('email and role', [got.data?.fields.email, got.data?.fields.role], [admin.email, 'admin']);
  }),
  writes('getMember.redacted', "without the members e-mail scope, the member's e-mail reads [redacted]", async ({ world, probe }) => {
    const reader = await world
      .member('reader', { role: 'viewer', scopes: ['members:read'] })
      .catch((err: Error) => probe.stop(`setup: a token with the scope members:read cannot be issued: ${err.message}`));
    const got = await probe.reply('getMember', 200, reader.pb.members.GET('/members/{id}', { params: { path: { id: world.workspace.admin.id } } }));
    probe.equal('email', got.data?.fields.email, '[redacted]');
  }),
  reads(
    'getMember.malformed',
    'an id that is not a uuid, or a parameter the operation does not define → 400 request.invalid naming it (a status Productboard does not define here)',
    async ({ seed, probe }) => {
      await probe.refusal(
        'getMember',
        { status: 400, code: 'request.invalid', parameter: 'id' },
        seed.world.pb.members.GET('/members/{id}', { params: { path: { id: 'not-a-uuid' } } }),
      );
      await probe.refusal(
        'getMember',
        { status: 400, code: 'request.invalid', parameter: 'bogus' },
        seed.world.pb.members.GET('/members/{id}', { params: { path: { id: seed.world.workspace.admin.id }, query: { bogus: '1' } as never } }),
      );
    },
  ),
  reads('getMember.unknown', 'no such member → 404 resource.notFound', async ({ seed, probe }) => {
    await probe.refusal(
      'getMember',
      { status: 404, code: 'resource.notFound' },
      seed.world.pb.members.GET('/members/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } }),
    );
  }),
];
