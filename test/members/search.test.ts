// POST /v2/members/search (Productboard's performMembersSearch): ids, e-mails, roles, the state
// filters and flags, the text search; the e-mail filter and the search need members:pii:read.
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

const search = (data: unknown, token = ws.token, query = '') =>
  call(app, 'POST', `/v2/members/search${query}`, { token, body: data === undefined ? {} : { data } });
const ids = async (data: unknown, token = ws.token) => {
  const res = await search(data, token);
  expect(res.status, res.text).toBe(200);
  return res.json.data.map((m: { id: string }) => m.id);
};

describe('POST /v2/members/search', () => {
  it('without filters: the active members, oldest first, in the members shape', async () => {
    expect(await ids(undefined)).toEqual([ws.admin.id, maker.member.id, viewer.member.id]);
    const res = await search({ filter: { id: maker.member.id } });
    expect(res.json).toEqual({ data: [(await call(app, 'GET', `/v2/members/${maker.member.id}`, { token: ws.token })).json.data], links: {} });
  });

  it('filters: ids, e-mails (any case), roles — one value or a list; kinds must all hold', async () => {
    expect(await ids({ filter: { id: [viewer.member.id, maker.member.id] } })).toEqual([maker.member.id, viewer.member.id]);
    expect(await ids({ filter: { fields: { email: maker.member.email.toUpperCase() } } })).toEqual([maker.member.id]);
    expect(await ids({ filter: { fields: { email: [viewer.member.email, 'nobody@example.com'] } } })).toEqual([viewer.member.id]);
    expect(await ids({ filter: { fields: { role: ['admin', 'viewer'] } } })).toEqual([ws.admin.id, viewer.member.id]);
    expect(await ids({ filter: { fields: { role: 'contributor' } } })).toEqual([]);
    expect(await ids({ filter: { id: [viewer.member.id], fields: { role: 'maker' } } })).toEqual([]);
  });

  it('state: disabled true → only deactivated, false → only active; return.includeDisabled → both; the filter wins over the flag', async () => {
    expect(await ids({ filter: { fields: { disabled: true } } })).toEqual([gone.member.id]);
    expect(await ids({ filter: { fields: { disabled: false } }, return: { includeDisabled: true } })).toEqual([ws.admin.id, maker.member.id, viewer.member.id]);
    expect(await ids({ return: { includeDisabled: true } })).toEqual([ws.admin.id, maker.member.id, viewer.member.id, gone.member.id]);
    // No member's invitation is pending here: only those → none; include them → no one more.
    expect(await ids({ filter: { fields: { invitationPending: true } }, return: { includeDisabled: true } })).toEqual([]);
    expect(await ids({ return: { includeInvitationPending: true } })).toEqual([ws.admin.id, maker.member.id, viewer.member.id]);
  });

  it('search.query: part of the name or the e-mail, any case', async () => {
    expect(await ids({ search: { query: 'grace.MAKER' } })).toEqual([maker.member.id]);
    expect(await ids({ search: { query: 'grace' }, filter: { fields: { role: 'viewer' } } })).toEqual([]);
  });

  it('without members:pii:read: names and e-mails read [redacted], and the e-mail filter and the search are refused (400), not answered from hidden values', async () => {
    const { token } = await ws.member({ role: 'viewer', scopes: ['members:read'] });
    const res = await search({ filter: { id: maker.member.id } }, token);
    expect(res.json.data[0].fields).toMatchObject({ name: '[redacted]', username: '[redacted]', email: '[redacted]', role: 'maker' });
    expectError(await search({ filter: { fields: { email: maker.member.email } } }, token), 'request.invalid', {
      source: { pointer: '/data/filter/fields/email' },
      detail: /members:pii:read/,
    });
    expectError(await search({ search: { query: 'grace' } }, token), 'request.invalid', {
      source: { pointer: '/data/search/query' },
      detail: /members:pii:read/,
    });
    const noMembers = await ws.member({ role: 'maker', scopes: ['entities:read'] });
    expectError(await search(undefined, noMembers.token), 'auth.accessDenied');
  });

  it('a filter Productboard does not define, or over 100 values → 400 at it; pages carry a cursor bound to the body', async () => {
    expectError(await search({ filter: { fields: { team: 'x' } } }), 'request.invalid', { source: { pointer: '/data/filter/fields/team' } });
    expectError(await search({ filter: { id: Array.from({ length: 101 }, () => ws.admin.id) } }), 'request.invalid', {
      source: { pointer: '/data/filter/id' },
    });
    expectError(await search({ filter: { fields: { role: 'owner' } } }), 'request.invalid', { source: { pointer: '/data/filter/fields/role' } });
    const first = await search({}, ws.token, '?limit=2');
    expect(first.json.data.map((m: { id: string }) => m.id)).toEqual([ws.admin.id, maker.member.id]);
    const next = (first.json.links.next as string).slice(app.url.length);
    // The next page goes on after the maker (members added by other tests come after the viewer).
    expect((await call(app, 'POST', next, { token: ws.token, body: { data: {} } })).json.data[0].id).toBe(viewer.member.id);
    expectError(await call(app, 'POST', next, { token: ws.token, body: { data: { filter: { fields: { role: 'admin' } } } } }), 'request.invalid', {
      source: { parameter: 'pageCursor' },
    });
  });

  it("another workspace's members are not found", async () => {
    const other = await newWorkspace();
    expect(await ids({ filter: { id: [ws.admin.id] } }, other.token)).toEqual([]);
    expect(await ids({ filter: { fields: { email: ws.admin.email } } }, other.token)).toEqual([]);
  });
});
