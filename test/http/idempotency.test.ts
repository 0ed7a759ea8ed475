// Idempotency-Key on every create route, through the real handlers on DynamoDB Local: within 24 h a
// retry with the same key, path and body answers the first result (same status and body, marked
// Idempotent-Replayed) without a second write; another body is 400; the window is exact (on the real
// clock: the stored record of a first use is moved into the past, so a key first used 24 h + 1 s ago
// names a new request, one used 24 h − 5 s ago does not); two requests in flight with one key make
// one write; a key is one member's (another member's request under it is their own); secrets shown
// once stay so (webhooks replay the sealed secret, applications replay without theirs).
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_WINDOW_MS } from '#lib/domain/idempotency.ts';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { verifyScores } from '../../local/admin/score.ts';
import { rsaKeyPair } from '../oauth/support.ts';
import { client } from '../score/helpers.ts';
import { call, expectError, newWorkspace, startApp, type CallResult, type TestApp, type TestWorkspace } from '../support/app.ts';
import { startDns, type TestDns } from '../support/dns.ts';
import { withLateCommits } from '../support/faults.ts';

let app: TestApp;
let dns: TestDns;
beforeAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
  dns = await startDns({ 'hooks.example.com': ['93.184.216.34'] });
  app = await startApp();
});
afterAll(async () => {
  await dns?.close();
  await app?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Moves the first use of every Idempotency-Key of the workspace `ms` into the past, as the table records it. */
async function age(ws: TestWorkspace, ms: number): Promise<void> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :idem)',
      ExpressionAttributeValues: { ':p': keys.partition(ws.workspaceId), ':idem': 'IDEM#' },
      ConsistentRead: true,
    }),
  );
  expect(Items.length).toBeGreaterThan(0);
  for (const { pk, sk } of Items)
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: { pk, sk }, UpdateExpression: 'SET firstAt = firstAt - :ms', ExpressionAttributeValues: { ':ms': ms } }),
    );
}

const keyed = (ws: TestWorkspace, method: string, path: string, body: unknown, key: string) =>
  call(app, method, path, { token: ws.token, body, headers: { 'idempotency-key': key } });
const reused = {
  detail: 'This Idempotency-Key was already used for a request with another body; use a new key for a new request.',
  source: { parameter: 'Idempotency-Key' },
};
const reusedOnAnotherPath = {
  detail: 'This Idempotency-Key was already used for a request to another path (other ids in it); use a new key for a new request.',
  source: { parameter: 'Idempotency-Key' },
};

/** The retry answers exactly the first answer, marked as a replay; the first is not. */
function expectReplay(first: CallResult, again: CallResult, status = 201) {
  expect(first.status, first.text).toBe(status);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(again.status, again.text).toBe(status);
  expect(again.json).toEqual(first.json);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
}

const noteBody = (entityId: string, name = 'Feedback') => ({
  data: { type: 'textNote', fields: { name }, relationships: [{ type: 'link', target: { id: entityId }, importance: 'critical' }] },
});
const notesOf = async (ws: TestWorkspace) => (await call(app, 'GET', '/v2/notes', { token: ws.token })).json.data.map((n: { id: string }) => n.id);

describe('the header itself', () => {
  it('sent as two fields → 400 saying so, nothing created; a malformed key (one field with ", " in it too) → 400 naming its form', async () => {
    const own = await newWorkspace();
    const create = (key: string | string[]) =>
      call(app, 'POST', '/v2/entities', {
        token: own.token,
        headers: { 'idempotency-key': key },
        body: { data: { type: 'product', fields: { name: 'Once' } } },
      });
    expectError(await create(['k-1', 'k-1']), 'request.invalid', {
      detail: 'The Idempotency-Key header was sent 2 times; send it once.',
      source: { parameter: 'Idempotency-Key' },
    });
    for (const malformed of ['k 1', 'k-1, k-1'])
      expectError(await create(malformed), 'request.invalid', {
        detail: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
        source: { parameter: 'Idempotency-Key' },
      });
    expect((await call(app, 'GET', '/v2/entities', { token: own.token })).json.data).toEqual([]);
  });
});

describe('the 24 h window (the first use moved into the past in the table)', () => {
  it('POST /v2/notes: a retry 24 h − 5 s after the first use replays it; 24 h + 1 s after, the key names a new request (a second note), even with another body', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const first = await keyed(ws, 'POST', '/v2/notes', noteBody(p), 'daily');
    await age(ws, IDEMPOTENCY_WINDOW_MS - 5000);
    expectReplay(first, await keyed(ws, 'POST', '/v2/notes', noteBody(p), 'daily'));
    expectError(await keyed(ws, 'POST', '/v2/notes', noteBody(p, 'other'), 'daily'), 'request.invalid', reused);
    expect(await notesOf(ws)).toEqual([first.json.data.id]);

    await age(ws, 6000);
    const fresh = await keyed(ws, 'POST', '/v2/notes', noteBody(p, 'other'), 'daily');
    expect(fresh.status, fresh.text).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(fresh.json.data.id).not.toBe(first.json.data.id);
    expect((await notesOf(ws)).sort()).toEqual([first.json.data.id, fresh.json.data.id].sort());
    expect(await c.score(p)).toBe(2);
    // The key now names the second request, for a new 24 h.
    expectReplay(fresh, await keyed(ws, 'POST', '/v2/notes', noteBody(p, 'other'), 'daily'));
  });

  it('POST /v2/entities: a key first used 24 h + 1 s ago creates a new entity', async () => {
    const ws = await newWorkspace();
    const body = { data: { type: 'product', fields: { name: 'Mobile' } } };
    const first = await keyed(ws, 'POST', '/v2/entities', body, 'e-1');
    expectReplay(first, await keyed(ws, 'POST', '/v2/entities', body, 'e-1'));
    await age(ws, IDEMPOTENCY_WINDOW_MS + 1000);
    const later = await keyed(ws, 'POST', '/v2/entities', body, 'e-1');
    expect(later.status, later.text).toBe(201);
    expect(later.json.data.id).not.toBe(first.json.data.id);
  });
});

describe('relationships', () => {
  it('POST /v2/notes/{id}/relationships (link): a retry answers the first 201 instead of 409, the score counts the link once; another body → 400', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const [p, q] = [await c.entity('product'), await c.entity('product')];
    const note = await c.note();
    const link = (target: string) => ({ data: { type: 'link', target: { id: target }, importance: 'critical' } });
    const first = await keyed(ws, 'POST', `/v2/notes/${note}/relationships`, link(p), 'l-1');
    expectReplay(first, await keyed(ws, 'POST', `/v2/notes/${note}/relationships`, link(p), 'l-1'));
    expect(await c.score(p)).toBe(1);
    expectError(await keyed(ws, 'POST', `/v2/notes/${note}/relationships`, link(q), 'l-1'), 'request.invalid', reused);
    expect(await c.score(q)).toBe(0);
    // The path is part of the request: the same key and body on another note is another request too.
    const other = await c.note();
    expectError(await keyed(ws, 'POST', `/v2/notes/${other}/relationships`, link(p), 'l-1'), 'request.invalid', reusedOnAnotherPath);
    // Without a key, the same request is the 409 it always was.
    expectError(await call(app, 'POST', `/v2/notes/${note}/relationships`, { token: ws.token, body: link(p) }), 'conflict.uniqueViolation');
  });

  it('POST /v2/notes/{id}/relationships (customer): a retry answers the first 201 instead of 400 "already has a customer"', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const acme = await c.entity('company');
    const note = await c.note();
    const body = { data: { type: 'customer', target: { id: acme } } };
    const first = await keyed(ws, 'POST', `/v2/notes/${note}/relationships`, body, 'cust');
    expectReplay(first, await keyed(ws, 'POST', `/v2/notes/${note}/relationships`, body, 'cust'));
  });

  it('POST /v2/entities/{id}/relationships: a retried link and a retried parent answer their first 201', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const [a, b] = [await c.entity('feature', await c.entity('product')), await c.entity('feature', await c.entity('product'))];
    const link = { data: { type: 'link', target: { id: b } } };
    const first = await keyed(ws, 'POST', `/v2/entities/${a}/relationships`, link, 'rel');
    expectReplay(first, await keyed(ws, 'POST', `/v2/entities/${a}/relationships`, link, 'rel'));
    const p2 = await c.entity('product');
    const parent = { data: { type: 'parent', target: { id: p2 } } };
    const moved = await keyed(ws, 'POST', `/v2/entities/${a}/relationships`, parent, 'move');
    expectReplay(moved, await keyed(ws, 'POST', `/v2/entities/${a}/relationships`, parent, 'move'));
  });

  it('a retry after a 408 whose link had committed (a proxy forwards the commit and holds its answer past the budget) answers 201 once: no 409, the anonymous note counted once', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const note = await c.note();
    const link = { data: { type: 'link', target: { id: p }, importance: 'critical' } };
    expectError(await withLateCommits(() => keyed(ws, 'POST', `/v2/notes/${note}/relationships`, link, 'slow')), 'request.timeout');
    const retry = await keyed(ws, 'POST', `/v2/notes/${note}/relationships`, link, 'slow');
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await c.score(p)).toBe(1);
  });

  it('two link requests in flight with one key: both answer the same 201, one link is written, the score counts it once', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const note = await c.note();
    const link = { data: { type: 'link', target: { id: p }, importance: 'important' } };
    const both = await Promise.all([1, 2].map(() => keyed(ws, 'POST', `/v2/notes/${note}/relationships`, link, 'race')));
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both[1]!.json).toEqual(both[0]!.json);
    expect(both.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    expect(await c.score(p)).toBe(1);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  });
});

describe('teams and field values', () => {
  it('POST /v2/teams: a retry answers the first team instead of 409 (its name and handle taken); one team; another body → 400', async () => {
    const ws = await newWorkspace();
    const body = { data: { fields: { name: 'Payments', handle: 'payments' } } };
    const first = await keyed(ws, 'POST', '/v2/teams', body, 'team-1');
    expectReplay(first, await keyed(ws, 'POST', '/v2/teams', body, 'team-1'));
    expectError(await keyed(ws, 'POST', '/v2/teams', { data: { fields: { name: 'Growth', handle: 'growth' } } }, 'team-1'), 'request.invalid', reused);
    const teams = (await call(app, 'GET', '/v2/teams', { token: ws.token })).json.data;
    expect(teams.map((t: { id: string }) => t.id)).toEqual([first.json.data.id]);
  });

  it('POST /v2/entities/fields/tags/values: a retry answers the first value instead of 409; one value', async () => {
    const ws = await newWorkspace();
    const body = { data: { fields: { name: 'Enterprise' } } };
    const first = await keyed(ws, 'POST', '/v2/entities/fields/tags/values', body, 'tag-1');
    expectReplay(first, await keyed(ws, 'POST', '/v2/entities/fields/tags/values', body, 'tag-1'));
    const listed = (await call(app, 'GET', '/v2/entities/fields/tags/values', { token: ws.token })).json.data;
    expect(listed.map((v: { id: string }) => v.id)).toEqual([first.json.data.id]);
  });
});

describe('webhooks and applications', () => {
  const hook = (name = 'Feature changes') => ({
    data: { fields: { name, events: [{ eventType: 'feature.created' }], notification: { url: 'https://hooks.example.com/pb', version: 1 } } },
  });
  const hooksOf = async (ws: TestWorkspace) => (await call(app, 'GET', '/v2/webhooks', { token: ws.token })).json.data.map((w: { id: string }) => w.id);

  it('POST /v2/webhooks: a retry answers the first subscription with the same signing secret (kept sealed, opened for the replay); one subscription; another body → 400', async () => {
    const ws = await newWorkspace();
    const first = await keyed(ws, 'POST', '/v2/webhooks', hook(), 'w-1');
    const again = await keyed(ws, 'POST', '/v2/webhooks', hook(), 'w-1');
    expectReplay(first, again);
    expect(again.json.data.signingSecret).toMatch(/^whsec_/);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await hooksOf(ws)).toEqual([first.json.data.id]);
    expectError(await keyed(ws, 'POST', '/v2/webhooks', hook('Other'), 'w-1'), 'request.invalid', reused);
    expect(await hooksOf(ws)).toHaveLength(1);
  });

  it("POST /v2/webhooks: another admin's request with the same key and body is their own: a second subscription with its own signing secret, not a replay of the first", async () => {
    const ws = await newWorkspace();
    const other = await ws.member({ role: 'admin' });
    const first = await keyed(ws, 'POST', '/v2/webhooks', hook(), 'w-shared');
    const theirs = await call(app, 'POST', '/v2/webhooks', { token: other.token, body: hook(), headers: { 'idempotency-key': 'w-shared' } });
    expect([first.status, theirs.status], theirs.text).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.json.data.id).not.toBe(first.json.data.id);
    expect(theirs.json.data.signingSecret).toMatch(/^whsec_/);
    expect(theirs.json.data.signingSecret).not.toBe(first.json.data.signingSecret);
    expect((await hooksOf(ws)).sort()).toEqual([first.json.data.id, theirs.json.data.id].sort());
  });

  it('POST /v2/webhooks: two in flight with one key make one subscription', async () => {
    const ws = await newWorkspace();
    const both = await Promise.all([1, 2].map(() => keyed(ws, 'POST', '/v2/webhooks', hook(), 'w-race')));
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both[1]!.json).toEqual(both[0]!.json);
    expect(await hooksOf(ws)).toEqual([both[0]!.json.data.id]);
  });

  it('POST /oauth2/applications: a retry answers the first application without its client secret (only its hash is kept); one application', async () => {
    const ws = await newWorkspace();
    const body = { type: 'authorizationCode', name: 'Roadmap Sync', scopes: ['entities:read'], redirectUris: ['https://roadmap.example.com/cb'] };
    const first = await keyed(ws, 'POST', '/oauth2/applications', body, 'app-1');
    expect(first.status, first.text).toBe(201);
    expect(first.json.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await keyed(ws, 'POST', '/oauth2/applications', body, 'app-1');
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const { clientSecret: _once, ...view } = first.json;
    expect(again.json).toEqual(view);
    const list = (await call(app, 'GET', '/oauth2/applications', { token: ws.token })).json.data;
    expect(list.map((a: { clientId: string }) => a.clientId)).toEqual([first.json.clientId]);
  });

  it('POST /oauth2/applications/{clientId}/keys: a retry answers the first key instead of 409; another key under the same key → 400', async () => {
    const ws = await newWorkspace();
    const created = await call(app, 'POST', '/oauth2/applications', { token: ws.token, body: { name: 'S2S', scopes: ['entities:read'] } });
    const clientId = created.json.clientId as string;
    const body = { publicKey: rsaKeyPair().publicPem };
    const first = await keyed(ws, 'POST', `/oauth2/applications/${clientId}/keys`, body, 'key-1');
    expectReplay(first, await keyed(ws, 'POST', `/oauth2/applications/${clientId}/keys`, body, 'key-1'));
    expectError(await keyed(ws, 'POST', `/oauth2/applications/${clientId}/keys`, { publicKey: rsaKeyPair().publicPem }, 'key-1'), 'request.invalid', reused);
    const read = await call(app, 'GET', `/oauth2/applications/${clientId}`, { token: ws.token });
    expect(read.json.keys.map((k: { id: string }) => k.id)).toEqual([first.json.id]);
  });
});
