// Dynamic client registration (RFC 7591) for public clients, and what a self-registered client may
// do: stored apart from the workspaces' applications, bound to a workspace only when a member
// consents, refused like any client when its requests are wrong.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { registerClient } from '#lib/auth/client-registration.ts';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { authorizationCode, exchangeCode, expectOAuthError, withPassword, type CodeClient } from '../authcode/support.ts';
import { call, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.close();
});

const register = (body: unknown) => call(app, 'POST', '/oauth/register', { body });

describe('POST /oauth/register', () => {
  it('registers a public client and answers its metadata (RFC 7591 §3.2.1); unknown metadata is ignored', async () => {
    const res = await register({
      client_name: 'Assistant',
      redirect_uris: ['http://127.0.0.1:33418/callback'],
      token_endpoint_auth_method: 'none',
      logo_uri: 'https://x.example/logo.png',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.json).toEqual({
      client_id: expect.stringMatching(/^dyn-[0-9a-f-]{36}$/),
      client_id_issued_at: expect.any(Number),
      client_name: 'Assistant',
      redirect_uris: ['http://127.0.0.1:33418/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope:
        'entities:read write:entities entities:delete notes:read notes:write notes:delete webhooks:read webhooks:write webhooks:delete members:read members:pii:read users:pii:read teams:read teams:write teams:delete fields:write',
    });
    // Stored apart: a global item, no workspace's application, no client-id index entry.
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.dynamicClient(res.json.client_id) }));
    expect(Item).toMatchObject({ kind: 'dynamicClient', clientId: res.json.client_id, name: 'Assistant' });
    expect(Item!.workspaceId).toBeUndefined();
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.clientIdIndex(res.json.client_id) }))).Item).toBeUndefined();
  });

  it.each([
    [{}, 'invalid_redirect_uri', 'redirect_uris must be a non-empty array of URIs.'],
    [{ redirect_uris: ['http://app.example.com/cb'] }, 'invalid_redirect_uri', /uses http on a host that is not a loopback address/],
    [{ redirect_uris: ['https://app.example.com/cb#x'] }, 'invalid_redirect_uri', /has a fragment/],
    [{ redirect_uris: ['https://app.example.com/cb'], token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata', /public clients only/],
    [
      { redirect_uris: ['https://app.example.com/cb'], grant_types: ['client_credentials'] },
      'invalid_client_metadata',
      /grant_types must include authorization_code/,
    ],
    [{ redirect_uris: ['https://app.example.com/cb'], scope: 'entities:read admin' }, 'invalid_client_metadata', 'scope names unknown scopes: admin.'],
    [{ redirect_uris: ['https://app.example.com/cb'], client_name: '' }, 'invalid_client_metadata', /client_name must be a non-empty string/],
  ])('refuses %j with %s (RFC 7591 §3.2.2)', async (body, error, description) => {
    expectOAuthError(await register(body), error, description);
  });

  it.each([
    ['{"redirect_uris": [', 'invalid_request', /not valid JSON/i],
    ['{"__proto__": {}, "redirect_uris": ["https://app.example.com/cb"]}', 'invalid_client_metadata', /__proto__/],
  ])('refuses %s before the handler in RFC 7591 terms too (%s), not the envelope', async (body, error, description) => {
    expectOAuthError(await call(app, 'POST', '/oauth/register', { body, headers: { 'content-type': 'application/json' } }), error, description);
  });

  it('refuses more than 20 registrations per address over a sliding hour (the default): no second burst at the hour', async () => {
    // Through the module: the local gateway's address is the one every test registers from.
    const address = `203.0.113.${process.pid % 250}`;
    const register = (at: string) => registerClient({ redirect_uris: ['https://a.example/cb'] }, address, new Date(at));
    const limit = process.env.REGISTRATION_LIMIT_PER_HOUR;
    delete process.env.REGISTRATION_LIMIT_PER_HOUR;
    onTestFinished(() => {
      if (limit !== undefined) process.env.REGISTRATION_LIMIT_PER_HOUR = limit;
    });
    for (let i = 0; i < 20; i++) expect((await register('2031-05-01T10:20:00Z')).ok).toBe(true);
    // 21 counted (the refused one too), a third of the way into the hour: 2/3 of it left, then 2/21 of the next.
    expect(await register('2031-05-01T10:20:00Z')).toEqual({ ok: false, retryAfterS: 2_743 });
    // At the hour the previous hour's 21 still count in full (fixed windows let 20 more through here):
    // refused until 21 × (1 − f) + 1 ≤ 19, f = 3/21 of the hour, 514.3 s rounded up.
    expect(await register('2031-05-01T11:00:00Z')).toEqual({ ok: false, retryAfterS: 515 });
    expect((await register('2031-05-01T11:08:35Z')).ok).toBe(true);
    expect((await register('2031-05-01T11:08:36Z')).ok).toBe(false);
  });

  it('the authorization server metadata names the registration endpoint', async () => {
    const res = await call(app, 'GET', '/.well-known/oauth-authorization-server');
    expect(res.json.registration_endpoint).toBe(`${app.url}/oauth/register`);
  });
});

describe('a self-registered client', () => {
  it('gets a code in the workspace its member signed in to; requests without PKCE or to another redirect URI are refused', async () => {
    const res = await register({ client_name: 'Assistant', redirect_uris: ['https://assistant.example/cb'] });
    const client: CodeClient = { clientId: res.json.client_id, redirectUri: 'https://assistant.example/cb' };
    const ws = await newWorkspace('Self-registered');
    const member = await withPassword((await ws.member({ role: 'viewer' })).member);
    // PKCE is required of it (a public client), and the redirect URI must be registered.
    const noPkce = await call(
      app,
      'GET',
      `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUri }).toString()}`,
      { redirect: 'manual' },
    );
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const elsewhere = await call(
      app,
      'GET',
      `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: 'https://evil.example/cb' }).toString()}`,
    );
    expect(elsewhere.status).toBe(400);

    const code = await authorizationCode(app, client, member, { resource: `${app.url}/mcp` }, { workspace: ws.workspaceId });
    const tokens = await exchangeCode(app, client, code, { resource: `${app.url}/mcp` });
    expect(tokens.status, tokens.text).toBe(200);
    // A viewer's grant: read scopes only, whatever the client may ask for.
    expect(tokens.json.scope).toBe('entities:read notes:read webhooks:read members:read members:pii:read users:pii:read teams:read');
    const listed = await call(app, 'POST', '/mcp', {
      token: tokens.json.access_token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(listed.status).toBe(200);
  });
});
