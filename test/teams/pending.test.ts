// A team change larger than one transaction (lib/store/teams.ts) records the rest as pending work
// with its first step (lib/store/work.ts). A crash right after that step (injected at the SDK
// client's middleware stack, test/score/crash.ts: a mock) stops the request; the team answers as the
// first step left it, and the sweep (lib/store/sweep.ts) finishes the rest without another request.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { addMember } from '#lib/store/members.ts';
import { MAX_MEMBER_CHANGES, MEMBERS_PER_TRANSACTION } from '#lib/store/teams.ts';
import { workOf } from '#lib/store/work.ts';
import { crashAt, crashedAfter, heal, sweepWhenDue, writesKey } from '../score/crash.ts';
import { client } from '../score/helpers.ts';
import { expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());
afterEach(() => heal());

type Client = ReturnType<typeof client>;
const MANY = MEMBERS_PER_TRANSACTION + 15;
const raw = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const memberIdsOf = async (c: Client, team: string) =>
  ((await c.ok('GET', `/teams/${team}/members?limit=100`)).json.data.map((m: { id: string }) => m.id) as string[]).sort();

async function teamOf(ws: TestWorkspace, c: Client, members: number) {
  const id = (await c.ok('POST', '/teams', { data: { fields: { name: 'Everyone', handle: 'everyone' } } })).json.data.id as string;
  const ids: string[] = [];
  for (let i = 0; i < members; i++) ids.push((await ws.member({ role: 'viewer' })).member.id);
  return { id, ids };
}

describe('team changes beyond one transaction', () => {
  it(`a membership change of ${MANY} members that crashed after its first step: ${MEMBERS_PER_TRANSACTION} are in, the sweep adds the rest, every member's teams agree`, async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const { id, ids } = await teamOf(ws, c, MANY);
    await crashedAfter('WORK#teamMembers#', () =>
      c.req('PATCH', `/teams/${id}`, { data: { patch: [{ op: 'set', path: 'members', value: ids.map((m) => ({ id: m })) }] } }),
    );
    expect(await memberIdsOf(c, id)).toHaveLength(MEMBERS_PER_TRANSACTION);
    const [pending] = await workOf(ws.workspaceId);
    expect(pending).toMatchObject({ work: 'teamMembers', subject: expect.stringMatching(new RegExp(`^${id}:[0-9a-f-]{36}$`)) });
    expect(pending!.members).toHaveLength(MANY - MEMBERS_PER_TRANSACTION);
    expect(await sweepWhenDue(ws.workspaceId)).toEqual({ finished: 1, handedBack: 0, failed: 0 });
    expect(await memberIdsOf(c, id)).toEqual([...ids].sort());
    for (const m of ids) expect((await raw(keys.member(ws.workspaceId, m)))!.teamIds).toEqual(new Set([id]));
    expect(await workOf(ws.workspaceId)).toEqual([]);
  }, 120_000);

  it('an update after a membership change that crashed lands after it: refused (429, nothing changed) while the crashed request holds the rest, then it finishes the rest and makes its own change', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const { id, ids } = await teamOf(ws, c, MANY);
    await crashedAfter('WORK#teamMembers#', () =>
      c.req('PATCH', `/teams/${id}`, { data: { patch: [{ op: 'set', path: 'members', value: ids.map((m) => ({ id: m })) }] } }),
    );
    const only = { data: { patch: [{ op: 'set', path: 'members', value: [{ id: ids[0] }] }] } };
    const refused = await c.req('PATCH', `/teams/${id}`, only);
    expectError(refused, 'rate.limitExceeded', {
      detail: new RegExp(
        `^Too many concurrent changes to the members of team ${id}; nothing was changed\\. Retry after ${refused.headers.get('retry-after')} seconds?\\.$`,
      ),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await memberIdsOf(c, id)).toHaveLength(MEMBERS_PER_TRANSACTION);
    const [pending] = await workOf(ws.workspaceId);
    await new Promise((r) => setTimeout(r, Math.max(0, pending!.due - Date.now() + 50)));
    const res = await c.req('PATCH', `/teams/${id}`, only);
    expect(res.status, res.text).toBe(200);
    // Had the update not finished the rest first, the sweep would add the crashed request's other members back here.
    expect(await workOf(ws.workspaceId)).toEqual([]);
    expect(await sweepWhenDue(ws.workspaceId)).toEqual({ finished: 0, handedBack: 0, failed: 0 });
    expect(await memberIdsOf(c, id)).toEqual([ids[0]]);
    expect((await raw(keys.member(ws.workspaceId, ids[0]!)))!.teamIds).toEqual(new Set([id]));
    for (const m of ids.slice(1)) expect((await raw(keys.member(ws.workspaceId, m)))!.teamIds).toBeUndefined();
  }, 120_000);

  it(`a delete of a team of ${MANY} that crashed after marking it: gone for every reader, its name free; the sweep removes its memberships and the item`, async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const { id, ids } = await teamOf(ws, c, MANY);
    expect((await c.req('PATCH', `/teams/${id}`, { data: { patch: [{ op: 'set', path: 'members', value: ids.map((m) => ({ id: m })) }] } })).status).toBe(200);
    await crashedAfter('WORK#deleteTeam#', () => c.req('DELETE', `/teams/${id}`));
    expectError(await c.req('GET', `/teams/${id}`), 'resource.notFound');
    expectError(await c.req('GET', `/teams/${id}/members`), 'resource.notFound');
    expect((await c.ok('GET', `/members/${ids[0]}`)).json.data.fields.teams).toEqual([]);
    expect(await raw(keys.teamMembership(ws.workspaceId, id, ids[0]!))).toBeDefined();
    expect((await workOf(ws.workspaceId)).map((w) => [w.work, w.subject])).toEqual([['deleteTeam', id]]);
    // Its name and handle are free at once.
    const again = (await c.ok('POST', '/teams', { data: { fields: { name: 'Everyone', handle: 'everyone' } } })).json.data.id as string;
    expect(await sweepWhenDue(ws.workspaceId)).toEqual({ finished: 1, handedBack: 0, failed: 0 });
    expect(await raw(keys.team(ws.workspaceId, id))).toBeUndefined();
    for (const m of ids) {
      expect(await raw(keys.teamMembership(ws.workspaceId, id, m))).toBeUndefined();
      expect((await raw(keys.member(ws.workspaceId, m)))!.teamIds).toBeUndefined();
    }
    expect((await c.ok('GET', `/teams/${again}`)).json.data.fields.name).toBe('Everyone');
    expect(await workOf(ws.workspaceId)).toEqual([]);
  }, 120_000);

  it(`a delete of a team of ${MEMBERS_PER_TRANSACTION} is one transaction: nothing is left pending, every membership is gone`, async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const { id, ids } = await teamOf(ws, c, MEMBERS_PER_TRANSACTION);
    expect((await c.req('PATCH', `/teams/${id}`, { data: { patch: [{ op: 'set', path: 'members', value: ids.map((m) => ({ id: m })) }] } })).status).toBe(200);
    const crash = crashAt((sent) => writesKey(sent, 'WORK#'));
    expect((await c.req('DELETE', `/teams/${id}`)).status).toBe(204);
    expect(crash.crashed).toBe(false);
    heal();
    expect(await raw(keys.team(ws.workspaceId, id))).toBeUndefined();
    for (const m of ids) expect((await raw(keys.member(ws.workspaceId, m)))!.teamIds).toBeUndefined();
  }, 120_000);

  it(`an update that would change more than ${MAX_MEMBER_CHANGES} members → 400 at data.patch, nothing changed`, async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const { id } = await teamOf(ws, c, 0);
    const ids: string[] = [];
    for (let i = 0; i <= MAX_MEMBER_CHANGES; i += 50)
      ids.push(
        ...(await Promise.all(
          Array.from(
            { length: Math.min(50, MAX_MEMBER_CHANGES + 1 - i) },
            async (_, j) => (await addMember(ws.workspaceId, { email: `m${i + j}@example.com`, role: 'viewer', active: true })).id,
          ),
        )),
      );
    const patch = Array.from({ length: Math.ceil(ids.length / 100) }, (_, op) => ({
      op: 'addItems',
      path: 'members',
      value: ids.slice(op * 100, op * 100 + 100).map((m) => ({ id: m })),
    }));
    expectError(await c.req('PATCH', `/teams/${id}`, { data: { fields: { name: 'Renamed' }, patch } }), 'request.invalid', {
      detail: `This update would add or remove ${MAX_MEMBER_CHANGES + 1} members; one request may change at most ${MAX_MEMBER_CHANGES}: split it into several.`,
      source: { pointer: '/data/patch' },
    });
    expect((await c.ok('GET', `/teams/${id}`)).json.data.fields.name).toBe('Everyone');
    expect(await memberIdsOf(c, id)).toEqual([]);
  }, 120_000);
});
