// The subscriptions API at {base_url}/webhooks through the local gateway and DynamoDB Local:
// Productboard's shapes, our envelope for errors (400, never 422), scopes, tenant and application
// isolation, secrets write-only and sealed at rest, URLs checked against SSRF (not in local mode;
// names answered by a DNS server the test runs, test/support/dns.ts).
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '#lib/domain/events.ts';
import { MAX_SUBSCRIPTIONS } from '#lib/domain/webhooks.ts';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { createWebhook, pauseWebhook } from '#lib/store/webhooks.ts';
import { exchange, newClient } from '../oauth/support.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';
import { startDns, type TestDns } from '../support/dns.ts';

let app: TestApp;
let dns: TestDns;

beforeAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
  dns = await startDns({ 'hooks.example.com': ['93.184.216.34'], 'intranet.example.com': ['10.0.0.8'] });
  app = await startApp();
});

afterAll(async () => {
  await dns?.close();
  await app?.close();
});

const URL = 'https://hooks.example.com/pb';

const body = (fields: Record<string, unknown> = {}) => ({
  data: {
    fields: {
      name: 'Feature changes',
      events: [{ eventType: 'feature.updated' }, { eventType: 'feature.created' }],
      notification: { url: URL, version: 1, headers: { authorization: 'Bearer receiver-secret' } },
      ...fields,
    },
  },
});

const create = (ws: { token: string }, b: unknown = body()) => call(app, 'POST', '/v2/webhooks', { token: ws.token, body: b });

async function created(ws: { token: string }, b: unknown = body()) {
  const res = await create(ws, b);
  expect(res.status, res.text).toBe(201);
  return res.json.data as { id: string; signingSecret: string };
}

describe('webhook subscriptions', () => {
  it('create → 201 with the reference and the signing secret (once); get, list and delete; no secret is ever shown again', async () => {
    const ws = await newWorkspace();
    const res = await create(ws);
    expect(res.status, res.text).toBe(201);
    const id = res.json.data.id as string;
    expect(res.json).toEqual({
      data: { id, type: 'webhook', links: { self: `${app.baseUrl}/webhooks/${id}` }, signingSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) },
    });
    expect(res.headers.get('location')).toBe(`${app.baseUrl}/webhooks/${id}`);

    const read = await call(app, 'GET', `/v2/webhooks/${id}`, { token: ws.token });
    expect(read.status).toBe(200);
    expect(read.json).toEqual({
      data: {
        id,
        type: 'webhook',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        fields: {
          name: 'Feature changes',
          events: [{ eventType: 'feature.updated' }, { eventType: 'feature.created' }],
          notification: { url: URL, version: 1 },
          status: 'active',
        },
        links: { self: `${app.baseUrl}/webhooks/${id}` },
      },
    });
    const list = await call(app, 'GET', '/v2/webhooks', { token: ws.token });
    expect(list.json).toEqual({ data: [read.json.data], links: {} });
    expect(list.text).not.toContain('receiver-secret');
    expect(list.text).not.toContain('whsec_');

    expect((await call(app, 'DELETE', `/v2/webhooks/${id}`, { token: ws.token })).status).toBe(204);
    expectError(await call(app, 'GET', `/v2/webhooks/${id}`, { token: ws.token }), 'resource.notFound', {
      detail: `No webhook subscription ${id} in this workspace.`,
    });
    expectError(await call(app, 'DELETE', `/v2/webhooks/${id}`, { token: ws.token }), 'resource.notFound');
  });

  it('the signing secret and the Authorization value are stored sealed: neither appears in the item', async () => {
    const ws = await newWorkspace();
    const { id, signingSecret } = await created(ws);
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhook(ws.workspaceId, id), ConsistentRead: true }));
    const stored = JSON.stringify(Item);
    expect(stored).not.toContain(signingSecret.slice('whsec_'.length));
    expect(stored).not.toContain('receiver-secret');
    expect(Item!.sealedSigningSecret).toMatch(/^v1\.[A-Za-z0-9_-]{60,}$/);
    expect(Item!.sealedAuthorization).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
  });

  it.each([
    [
      { events: [{ eventType: 'release-group.created' }] },
      '/data/fields/events/0/eventType',
      `'/data/fields/events/0/eventType' is 'release-group.created', which this service does not produce; supported: ${EVENT_TYPES.join(', ')}.`,
    ],
    [
      { events: [{ eventType: 'note.created' }, { eventType: 'note.created' }] },
      '/data/fields/events/1/eventType',
      "'/data/fields/events/1/eventType' is 'note.created', which is listed twice.",
    ],
    [{ notification: { url: 'http://hooks.example.com/pb', version: 1 } }, '/data/fields/notification/url', 'The URL must use https, not http.'],
    [
      { notification: { url: 'https://127.0.0.1/pb', version: 1 } },
      '/data/fields/notification/url',
      "The URL's host must be publicly reachable: 127.0.0.1 is in 127.0.0.0/8 (Loopback).",
    ],
    [
      { notification: { url: 'https://169.254.169.254/latest', version: 1 } },
      '/data/fields/notification/url',
      "The URL's host must be publicly reachable: 169.254.169.254 is in 169.254.0.0/16 (Link Local).",
    ],
    [
      { notification: { url: 'https://[::ffff:0:a9fe:a9fe]/pb', version: 1 } },
      '/data/fields/notification/url',
      "The URL's host must be publicly reachable: ::ffff:0:a9fe:a9fe carries the IPv4 address 169.254.169.254 (IPv4-translated), which is in 169.254.0.0/16 (Link Local).",
    ],
    [
      { notification: { url: 'https://intranet.example.com/pb', version: 1 } },
      '/data/fields/notification/url',
      "The URL's host must be publicly reachable: intranet.example.com resolves to 10.0.0.8, which is in 10.0.0.0/8 (Private-Use).",
    ],
    [
      { notification: { url: 'https://localhost:8443/pb', version: 1 } },
      '/data/fields/notification/url',
      "The URL's host must be publicly reachable: localhost resolves to 127.0.0.1, which is in 127.0.0.0/8 (Loopback).",
    ],
    [
      { notification: { url: 'https://nowhere.example.com/pb', version: 1 } },
      '/data/fields/notification/url',
      'The host nowhere.example.com does not resolve.',
    ],
    [
      { notification: { url: URL, version: 1, headers: { 'x-token': 'a' } } },
      '/data/fields/notification/headers/x-token',
      "Unknown property 'x-token' in '/data/fields/notification/headers'.",
    ],
    [{ notification: { url: URL, version: 2 } }, '/data/fields/notification/version', "'/data/fields/notification/version' must be 1 (got 2)."],
    [{ name: '' }, '/data/fields/name', "'/data/fields/name' must not be empty."],
  ])('%j → 400 request.invalid at %s, nothing stored', async (fields, pointer, detail) => {
    const ws = await newWorkspace();
    expectError(await create(ws, body(fields)), 'request.invalid', { source: { pointer }, detail });
    expect((await call(app, 'GET', '/v2/webhooks', { token: ws.token })).json.data).toEqual([]);
  });

  it.each([
    ['a zero-width space', '\u200b'],
    ['NUL', '\u0000'],
    ['a right-to-left override', '\u202e'],
    ['spaces', '   '],
  ])('a name of %s only → 400 as every other name without a visible character; nothing stored', async (_what, name) => {
    const ws = await newWorkspace();
    const res = await create(ws, body({ name }));
    expect(res.status, res.text).toBe(400);
    expect(res.json).toEqual({
      id: res.headers.get('x-request-id'),
      errors: [
        {
          code: 'request.invalid',
          title: 'Request schema invalid',
          detail: `'/data/fields/name' must have a visible character, not only white space (got '${name}').`,
          source: { pointer: '/data/fields/name' },
        },
      ],
    });
    expect((await call(app, 'GET', '/v2/webhooks', { token: ws.token })).json.data).toEqual([]);
  });

  it('a name is kept as sent, surrounding white space too, as entity and team names are', async () => {
    const ws = await newWorkspace();
    const { id } = await created(ws, body({ name: '  padded  ' }));
    const read = await call(app, 'GET', `/v2/webhooks/${id}`, { token: ws.token });
    expect(read.status, read.text).toBe(200);
    expect(read.json.data.fields.name).toBe('  padded  ');
    expect((await call(app, 'GET', '/v2/webhooks', { token: ws.token })).json.data.map((w: { fields: { name: string } }) => w.fields.name)).toEqual([
      '  padded  ',
    ]);
  });

  it('unknown query parameters are refused; a malformed id is 400 at the parameter', async () => {
    const ws = await newWorkspace();
    expectError(await call(app, 'GET', '/v2/webhooks?status=active', { token: ws.token }), 'request.invalid', {
      source: { parameter: 'status' },
      detail: "Unknown query parameter 'status'; this operation takes pageCursor, limit.",
    });
    expectError(await call(app, 'GET', '/v2/webhooks/not-a-uuid', { token: ws.token }), 'request.invalid', { source: { parameter: 'webhookId' } });
  });

  it('scopes: webhooks:read to read, webhooks:write to create, webhooks:delete to delete; a viewer only reads', async () => {
    const ws = await newWorkspace();
    const { id } = await created(ws);
    const reader = await ws.member({ scopes: ['webhooks:read'] });
    expect((await call(app, 'GET', `/v2/webhooks/${id}`, { token: reader.token })).status).toBe(200);
    expectError(await create(reader), 'auth.accessDenied', { detail: "This operation needs the scope 'webhooks:write', which the token does not carry." });
    expectError(await call(app, 'DELETE', `/v2/webhooks/${id}`, { token: reader.token }), 'auth.accessDenied');
    const other = await ws.member({ scopes: ['entities:read', 'notes:read'] });
    expectError(await call(app, 'GET', '/v2/webhooks', { token: other.token }), 'auth.accessDenied');
    const viewer = await ws.member({ role: 'viewer' });
    expect((await call(app, 'GET', '/v2/webhooks', { token: viewer.token })).status).toBe(200);
    expectError(await create(viewer), 'auth.accessDenied');
  });

  it('subscribing to events about notes needs notes:read (the receiver would learn of them): 403 naming the scope', async () => {
    const ws = await newWorkspace();
    const writer = await ws.member({ scopes: ['webhooks:write', 'entities:read'] });
    expect((await create(writer)).status).toBe(201);
    expectError(await create(writer, body({ events: [{ eventType: 'insight.created' }, { eventType: 'customer-score.updated' }] })), 'auth.accessDenied', {
      detail: 'Subscribing to these events needs the scope notes:read, which the token does not carry.',
    });
  });

  it("another workspace's subscription is 404 on get and delete, and never listed", async () => {
    const mine = await newWorkspace();
    const theirs = await newWorkspace();
    const { id } = await created(theirs);
    expectError(await call(app, 'GET', `/v2/webhooks/${id}`, { token: mine.token }), 'resource.notFound');
    expectError(await call(app, 'DELETE', `/v2/webhooks/${id}`, { token: mine.token }), 'resource.notFound');
    expect((await call(app, 'GET', '/v2/webhooks', { token: mine.token })).json.data).toEqual([]);
    expect((await call(app, 'GET', `/v2/webhooks/${id}`, { token: theirs.token })).status).toBe(200);
  });

  it("an access token sees only its own application's subscriptions; an API token sees them all", async () => {
    const ws = await newWorkspace();
    const a = await newClient(app, ws, {
      scopes: ['entities:read', 'webhooks:read', 'webhooks:write', 'webhooks:delete'],
      defaultScopes: ['entities:read', 'webhooks:read', 'webhooks:write', 'webhooks:delete'],
    });
    const b = await newClient(app, ws, { scopes: ['entities:read', 'webhooks:read'], defaultScopes: ['entities:read', 'webhooks:read'] });
    const tokenA = (await exchange(app, a.assertion())).json.access_token as string;
    const tokenB = (await exchange(app, b.assertion())).json.access_token as string;
    const byA = await created({ token: tokenA });
    const byApiToken = await created(ws);
    const ids = async (token: string) => ((await call(app, 'GET', '/v2/webhooks', { token })).json.data as Array<{ id: string }>).map((w) => w.id);
    expect(await ids(tokenA)).toEqual([byA.id]);
    expect(await ids(tokenB)).toEqual([]);
    expect((await ids(ws.token)).sort()).toEqual([byA.id, byApiToken.id].sort());
    expectError(await call(app, 'GET', `/v2/webhooks/${byApiToken.id}`, { token: tokenA }), 'resource.notFound');
    expectError(await call(app, 'DELETE', `/v2/webhooks/${byApiToken.id}`, { token: tokenA }), 'resource.notFound');
  });

  it('the list is paginated like the others: limit, links.next with a cursor bound to the query', async () => {
    const ws = await newWorkspace();
    const ids = [(await created(ws)).id, (await created(ws)).id, (await created(ws)).id];
    const first = await call(app, 'GET', '/v2/webhooks?limit=2', { token: ws.token });
    expect(first.json.data.map((w: { id: string }) => w.id)).toEqual(ids.slice(0, 2));
    const next = first.json.links.next as string;
    expect(next).toMatch(new RegExp(`^${app.baseUrl}/webhooks\\?limit=2&pageCursor=`));
    const second = await call(app, 'GET', next.slice(app.url.length), { token: ws.token });
    expect([second.json.data.map((w: { id: string }) => w.id), second.json.links]).toEqual([ids.slice(2), {}]);
    const other = await newWorkspace();
    expectError(await call(app, 'GET', next.slice(app.url.length), { token: other.token }), 'request.invalid', { source: { parameter: 'pageCursor' } });
  });

  it('a paused subscription shows status "paused"; re-creating it gives a new, active one', async () => {
    const ws = await newWorkspace();
    const { id } = await created(ws);
    await pauseWebhook(ws.workspaceId, id);
    expect((await call(app, 'GET', `/v2/webhooks/${id}`, { token: ws.token })).json.data.fields.status).toBe('paused');
    const again = await created(ws);
    expect(again.id).not.toBe(id);
    expect((await call(app, 'GET', `/v2/webhooks/${again.id}`, { token: ws.token })).json.data.fields.status).toBe('active');
  });

  it(`a workspace holds at most ${MAX_SUBSCRIPTIONS} subscriptions; deleting one makes room`, async () => {
    const ws = await newWorkspace();
    const now = new Date().toISOString();
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) {
      await createWebhook(ws.workspaceId, {
        id: randomUUID(),
        name: `s${i}`,
        events: ['note.created'],
        url: URL,
        version: 1,
        createdAt: now,
        sealedSigningSecret: 'v1.x',
        sealedAuthorization: undefined,
      });
    }
    expectError(await create(ws), 'request.invalid', {
      source: { pointer: '/data' },
      detail: `A workspace holds at most ${MAX_SUBSCRIPTIONS} webhook subscriptions; delete one first.`,
    });
    const first = (await call(app, 'GET', '/v2/webhooks?limit=1', { token: ws.token })).json.data[0].id as string;
    expect((await call(app, 'DELETE', `/v2/webhooks/${first}`, { token: ws.token })).status).toBe(204);
    expect((await create(ws)).status).toBe(201);
  });
});
