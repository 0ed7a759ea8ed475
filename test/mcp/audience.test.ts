// Audience-bound tokens (RFC 8707 resource indicators) between the REST API and the MCP server, and
// the MCP server's protected resource metadata (RFC 9728): a token minted for one resource is
// refused by the other; without `resource` a token is the REST API's; API tokens work on both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, mcpClient } from './support.ts';
import { authorizationCode, exchangeCode, newCodeClient, withPassword } from '../authcode/support.ts';
import { call, challengeOf, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
let ws: TestWorkspace;
let product: string;

beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace('Audiences');
  product = (await call(app, 'POST', '/v2/entities', { token: ws.token, body: { data: { type: 'product', fields: { name: 'Checkout' } } } })).json.data.id;
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** An access token of the authorization code flow, for `resource` when given. */
async function accessToken(resource?: string): Promise<string> {
  const client = await newCodeClient(app, ws, { public: true, scopes: ['entities:read', 'notes:read', 'notes:write'] });
  const member = await withPassword((await ws.member({ role: 'maker' })).member);
  const code = await authorizationCode(app, client, member, resource ? { resource } : {});
  const res = await exchangeCode(app, client, code, resource ? { resource } : {});
  expect(res.status, res.text).toBe(200);
  return res.json.access_token as string;
}

const listTools = (token: string) =>
  call(app, 'POST', '/mcp', { token, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { accept: 'application/json, text/event-stream' } });

describe('resource indicators', () => {
  it('a token for {app_url}/mcp works on /mcp and is refused by the REST API (401)', async () => {
    const token = await accessToken(`${app.url}/mcp`);
    const client = await mcpClient(app, { token });
    try {
      expect((await callTool(client, 'get_customer_score', { entityId: product })).structuredContent.score).toBe(0);
    } finally {
      await client.close();
    }
    expectError(await call(app, 'GET', `/v2/entities/${product}/score`, { token }), 'auth.invalid', {
      detail: `The bearer token is for another resource, not ${app.baseUrl}.`,
    });
  });

  it("a token without resource is the REST API's: refused by /mcp with the resource metadata challenge", async () => {
    const token = await accessToken();
    expect((await call(app, 'GET', `/v2/entities/${product}/score`, { token })).status).toBe(200);
    const res = await listTools(token);
    expectError(res, 'auth.invalid', { detail: `The bearer token is for another resource, not ${app.url}/mcp.` });
    expect(challengeOf(res)).toBe(`Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('Authorization sent as two fields: refused by /mcp with the resource metadata challenge', async () => {
    const token = await accessToken(`${app.url}/mcp`);
    const res = await call(app, 'POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream', authorization: [`Bearer ${token}`, `Bearer ${token}`] },
    });
    expectError(res, 'auth.invalid', { detail: 'The Authorization header was sent 2 times; send one "Bearer <token>".' });
    expect(challengeOf(res)).toBe(`Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('an unknown resource is invalid_target', async () => {
    const client = await newCodeClient(app, ws, { public: true });
    const res = await call(
      app,
      'GET',
      `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: client.redirectUri, resource: `${app.url}/elsewhere`, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }).toString()}`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
  });

  it('an API token works on both', async () => {
    expect((await call(app, 'GET', `/v2/entities/${product}/score`, { token: ws.token })).status).toBe(200);
    expect((await listTools(ws.token)).status).toBe(200);
  });
});

describe('protected resource metadata (RFC 9728)', () => {
  it('is served at the well-known location and at its /mcp suffix', async () => {
    const expected = {
      resource: `${app.url}/mcp`,
      authorization_servers: [app.url],
      bearer_methods_supported: ['header'],
      scopes_supported: ['entities:read', 'notes:read', 'notes:write'],
      resource_name: 'Product management MCP server',
    };
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await call(app, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.json).toEqual(expected);
    }
  });
});
