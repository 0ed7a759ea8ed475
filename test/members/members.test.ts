// GET /v2/members and GET /v2/members/{id}: Productboard's member shape, its list filters, the
// members scopes (e-mails and names only with members:pii:read), and tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
let ws: TestWorkspace;
let maker: Awaited<ReturnType<TestWorkspace['member']>>;
let viewer: Awaited<ReturnType<TestWorkspace['member']>>;
let gone: Awaited<ReturnType<TestWorkspace['member']>>;
beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace();
  maker = await ws.member({ role: 'maker', email: `Grace.Maker-${Date.now()}@example.com` });
  viewer = await ws.member({ role: 'viewer' });
  gone = await ws.member({ role: 'maker', active: false });
});
afterAll(() => app.close());

const get = (path: string, token = ws.token) => call(app, 'GET', path, { token });
const ids = (res: { json: { data: Array<{ id: string }> } }) => res.json.data.map((m) => m.id);

describe('members', () => {
  it('a member: id, type, name, e-mail as username, role, disabled, never invitation-pending, self and html links', async () => {
    const res = await get(`/v2/members/${maker.member.id}`);
    expect(res.status, res.text).toBe(200);
    const email = maker.member.email;
    expect(res.json).toEqual({
      data: {
        id: maker.member.id,
        type: 'member',
        fields: { name: email, username: email, email, role: 'maker', disabled: false, invitationPending: false, teams: [] },
        links: { self: `${app.baseUrl}/members/${maker.member.id}`, html: `${app.webUrl}/members/${maker.member.id}` },
      },
    });
    expect((await get(`/v2/members/${gone.member.id}`)).json.data.fields.disabled).toBe(true);
  });

  it('the list: active members oldest first; includeDisabled adds the deactivated ones', async () => {
    expect(ids(await get('/v2/members'))).toEqual([ws.admin.id, maker.member.id, viewer.member.id]);
    expect(ids(await get('/v2/members?includeDisabled=true'))).toEqual([ws.admin.id, maker.member.id, viewer.member.id, gone.member.id]);
    expect(ids(await get('/v2/members?includeDisabled=true&includeInvitationPending=true&includeInvited=false'))).toHaveLength(4);
  });

  it('roles[] keeps those roles (contributor matches no one); query matches part of the name or e-mail, case-insensitively', async () => {
    expect(ids(await get('/v2/members?roles[]=viewer&roles[]=admin'))).toEqual([ws.admin.id, viewer.member.id]);
    expect(ids(await get('/v2/members?roles[]=contributor'))).toEqual([]);
    expect(ids(await get('/v2/members?query=grace.MAKER'))).toEqual([maker.member.id]);
  });

  it('pages with limit and links.next', async () => {
    const first = await get('/v2/members?limit=2');
    expect(ids(first)).toEqual([ws.admin.id, maker.member.id]);
    const next = new URL(first.json.links.next);
    const second = await get(`${next.pathname}${next.search}`);
    expect(ids(second)).toEqual([viewer.member.id]);
    expect(second.json.links).toEqual({});
  });

  it('bad parameters → 400 request.invalid with source.parameter', async () => {
    expectError(await get('/v2/members?roles[]=owner'), 'request.invalid', { source: { parameter: 'roles[]' } });
    expectError(await get('/v2/members?includeDisabled=yes'), 'request.invalid', { source: { parameter: 'includeDisabled' } });
    expectError(await get('/v2/members?query='), 'request.invalid', { source: { parameter: 'query' } });
    expectError(await get('/v2/members?teams[id]=x'), 'request.invalid', { source: { parameter: 'teams[id]' } });
  });

  it('without members:pii:read, name, username and e-mail read [redacted]; without members:read → 403', async () => {
    const reader = await ws.member({ role: 'viewer', scopes: ['members:read'] });
    const one = await get(`/v2/members/${ws.admin.id}`, reader.token);
    expect(one.json.data.fields).toEqual({
      name: '[redacted]',
      username: '[redacted]',
      email: '[redacted]',
      role: 'admin',
      disabled: false,
      invitationPending: false,
      teams: [],
    });
    expect(new Set((await get('/v2/members', reader.token)).json.data.map((m: { fields: { email: string } }) => m.fields.email))).toEqual(
      new Set(['[redacted]']),
    );
    // Nor may it search the hidden values a prefix at a time: `query` is refused, as the search body's is.
    expectError(await get(`/v2/members?query=${encodeURIComponent(ws.admin.email)}`, reader.token), 'request.invalid', {
      detail: "A search reads members' e-mails and names, which takes the members:pii:read scope; this token lacks it.",
      source: { parameter: 'query' },
    });
    expect((await get(`/v2/members?roles[]=admin`, reader.token)).json.data.map((m: { id: string }) => m.id)).toEqual([ws.admin.id]);
    const notes = await ws.member({ role: 'maker', scopes: ['notes:read'] });
    expectError(await get('/v2/members', notes.token), 'auth.accessDenied');
    expectError(await get(`/v2/members/${ws.admin.id}`, notes.token), 'auth.accessDenied');
  });

  it("another workspace's member, or no such member → 404 resource.notFound; a non-uuid id → 400", async () => {
    const other = await newWorkspace();
    expectError(await get(`/v2/members/${other.admin.id}`), 'resource.notFound');
    expect(ids(await get('/v2/members', other.token))).toEqual([other.admin.id]);
    expectError(await get('/v2/members/00000000-0000-4000-8000-000000000000'), 'resource.notFound');
    expectError(await get('/v2/members/me'), 'request.invalid', { source: { parameter: 'id' } });
  });
});
