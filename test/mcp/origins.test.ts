// The MCP server and browsers: its transport requires a server to refuse (403) a request whose Origin
// is present and not valid (MCP Streamable HTTP transport, Security Warning: DNS rebinding); a
// browser-based client on its own application's origin gets CORS, like a single-page application of
// the REST API (test/authcode/cors.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationCode, exchangeCode, newCodeClient, withPassword } from '../authcode/support.ts';
import { call, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';
import { launchBrowser, startCallbackServer } from '../support/browser.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace('Origins');
}, 60_000);

afterAll(async () => {
  await app?.close();
});

let n = 0;
const uniqueOrigin = () => `https://mcp-${process.pid}-${Date.now()}-${++n}.example.com`;

/** A public application with a redirect URI on `origin`, and an access token of it for the MCP server. */
async function browserClient(origin = uniqueOrigin()) {
  const client = await newCodeClient(app, ws, { public: true, redirectUris: [`${origin}/callback`], scopes: ['entities:read', 'notes:read', 'notes:write'] });
  const member = await withPassword((await ws.member({ role: 'maker' })).member);
  const resource = `${app.url}/mcp`;
  const res = await exchangeCode(app, client, await authorizationCode(app, client, member, { resource }), { resource });
  expect(res.status, res.text).toBe(200);
  return { origin, token: res.json.access_token as string };
}

const ACCEPT = 'application/json, text/event-stream';
const ORIGIN = { parameter: 'Origin' };
const rpc = (token: string | undefined, body: unknown, origin?: string) =>
  call(app, 'POST', '/mcp', { ...(token ? { token } : {}), body, headers: { accept: ACCEPT, ...(origin ? { origin } : {}) } });
/** How many of the workspace's notes are named `name` (the workspace holds a few). */
async function notesNamed(name: string): Promise<number> {
  const res = await call(app, 'GET', '/v2/notes?limit=100', { token: ws.token });
  expect(res.status, res.text).toBe(200);
  return (res.json.data as Array<{ fields: { name: string } }>).filter((note) => note.fields.name === name).length;
}

describe("a token's request from an origin not its application's → 403 auth.accessDenied, and nothing is done for it", () => {
  it("an origin no application registered, or another application's", async () => {
    const own = await browserClient();
    const other = await browserClient();
    for (const origin of [uniqueOrigin(), other.origin]) {
      const name = `Via ${origin}`;
      const res = await rpc(
        own.token,
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_note', arguments: { name, content: 'x' } } },
        origin,
      );
      expectError(res, 'auth.accessDenied', {
        detail: `Origin "${origin}" is not the origin of a redirect URI of the token's application: its token works in a browser only on those origins.`,
        source: ORIGIN,
      });
      // Any origin may read the refusal (the route takes any origin); none of its work was done.
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await notesNamed(name)).toBe(0);
    }
  });

  it('any origin with an API token', async () => {
    const { origin } = await browserClient();
    expectError(await rpc(ws.token, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, origin), 'auth.accessDenied', {
      detail: `Origin "${origin}" comes with an API token, which is not for browsers.`,
      source: ORIGIN,
    });
  });

  it('an Origin that names no origin ("null", a path), with or without a token, on every method', async () => {
    const { token } = await browserClient();
    for (const origin of ['null', 'https://a.example/path']) {
      const detail = `Origin ${JSON.stringify(origin)} is not a serialised origin (scheme://host[:port]), so no application can own it.`;
      for (const res of [
        await rpc(token, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, origin),
        await rpc(undefined, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, origin),
        await call(app, 'GET', '/mcp', { headers: { origin } }),
        await call(app, 'DELETE', '/mcp', { headers: { origin } }),
      ]) {
        expectError(res, 'auth.accessDenied', { detail, source: ORIGIN });
      }
    }
  });
});

describe('what is answered', () => {
  it('without Origin (every client outside a browser): as before, no CORS headers', async () => {
    const { token } = await browserClient();
    const res = await rpc(token, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.tools.length).toBeGreaterThan(0);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect((await rpc(ws.token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);
    expectError(await call(app, 'GET', '/mcp'), 'request.methodNotAllowed');
  });

  it("from the token's application's own origin: the tools' answers, readable", async () => {
    const { origin, token } = await browserClient();
    const res = await rpc(token, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, origin);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('from any origin without credentials: the 401 that says where to get them, and the 405s, readable (nothing is done)', async () => {
    const origin = uniqueOrigin();
    const res = await rpc(undefined, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, origin);
    expectError(res, 'auth.invalid');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const get = await call(app, 'GET', '/mcp', { headers: { origin } });
    expectError(get, 'request.methodNotAllowed');
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('the preflight of /mcp: any origin, and the MCP protocol version header', async () => {
    const res = await call(app, 'OPTIONS', '/mcp', {
      headers: {
        origin: uniqueOrigin(),
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    expect(res.status, res.text).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, If-Match, Idempotency-Key, Mcp-Protocol-Version');
    // The REST API's paths do not take it, and keep to registered origins.
    const { origin } = await browserClient();
    const api = await call(app, 'OPTIONS', '/v2/notes', { headers: { origin, 'access-control-request-method': 'POST' } });
    expect(api.headers.get('access-control-allow-origin')).toBe(origin);
    expect(api.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, If-Match, Idempotency-Key');
  });
});

describe('discovery and registration take any origin (a client has registered none yet)', () => {
  it('preflights from an origin no application registered → 204 for any origin (*), the MCP header on the documents', async () => {
    const origin = uniqueOrigin();
    const preflight = (path: string, method: string) => call(app, 'OPTIONS', path, { headers: { origin, 'access-control-request-method': method } });
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server']) {
      const res = await preflight(path, 'GET');
      expect(res.status, `${path}: ${res.text}`).toBe(204);
      expect(Object.fromEntries([...res.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'))).toEqual({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET',
        'access-control-allow-headers': 'Authorization, Content-Type, If-Match, Idempotency-Key, Mcp-Protocol-Version',
        'access-control-max-age': '600',
      });
    }
    const register = await preflight('/oauth/register', 'POST');
    expect(register.status).toBe(204);
    expect(register.headers.get('access-control-allow-origin')).toBe('*');
    expect(register.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, If-Match, Idempotency-Key');
    // The token endpoint is not public: the origin must be registered first.
    expectError(await preflight('/oauth/token', 'POST'), 'auth.accessDenied');
  });

  it('the documents and a registration, success or refusal, are readable by any origin', async () => {
    const origin = uniqueOrigin();
    const metadata = await call(app, 'GET', '/.well-known/oauth-protected-resource/mcp', { headers: { origin } });
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
    expect(metadata.headers.get('vary')).toBeNull();
    const refused = await call(app, 'POST', '/oauth/register', { body: { redirect_uris: ['ftp://nope'] }, headers: { origin } });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toBe('invalid_redirect_uri');
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    // Without Origin (a client outside a browser), no CORS headers.
    expect((await call(app, 'GET', '/.well-known/oauth-authorization-server')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('a browser-based MCP client in a real browser (chromium)', () => {
  it('discovers the servers, registers itself, and then reaches the token endpoint from its new origin', async () => {
    const spa = await startCallbackServer('MCP client');
    const browser = await launchBrowser();
    try {
      await browser.page.goto(spa.url);
      const seen = await browser.page.evaluate(
        async ({ app, redirectUri }) => {
          const version = { 'mcp-protocol-version': '2025-11-25' };
          const unauthorized = await fetch(`${app}/mcp`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...version },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          });
          const resource = (await (await fetch(`${app}/.well-known/oauth-protected-resource/mcp`, { headers: version })).json()) as any;
          const server = (await (
            await fetch(`${resource.authorization_servers[0]}/.well-known/oauth-authorization-server`, { headers: version })
          ).json()) as any;
          const registered = await fetch(server.registration_endpoint, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ client_name: 'A page', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
          });
          const client = (await registered.json()) as any;
          const token = await fetch(server.token_endpoint, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'authorization_code',
              code: 'not-a-code',
              client_id: client.client_id,
              redirect_uri: redirectUri,
              code_verifier: 'v'.repeat(43),
            }),
          });
          return {
            unauthorized: unauthorized.status,
            resource: resource.resource,
            registered: [registered.status, typeof client.client_id],
            token: [token.status, ((await token.json()) as any).error],
          };
        },
        { app: app.url, redirectUri: spa.url },
      );
      expect(seen).toEqual({ unauthorized: 401, resource: `${app.url}/mcp`, registered: [201, 'string'], token: [400, 'invalid_grant'] });
    } finally {
      await browser.close();
      await spa.close();
    }
  }, 60_000);

  it('initializes, lists the tools and calls one cross-origin with its access token', async () => {
    const spa = await startCallbackServer('MCP client');
    const browser = await launchBrowser();
    try {
      const { token } = await browserClient(new URL(spa.url).origin);
      await browser.page.goto(spa.url);
      const seen = await browser.page.evaluate(
        async ({ mcp, token }) => {
          const post = async (body: unknown, version?: string) => {
            const res = await fetch(mcp, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${token}`,
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                ...(version ? { 'mcp-protocol-version': version } : {}),
              },
              body: JSON.stringify(body),
            });
            return { status: res.status, json: (await res.json()) as any, requestId: res.headers.get('x-request-id') !== null };
          };
          const init = await post({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'browser', version: '1' } },
          });
          const version = init.json.result.protocolVersion as string;
          const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, version);
          const name = `From the browser ${Date.now()}`;
          const created = await post(
            { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'create_note', arguments: { name, content: 'Typed in a page' } } },
            version,
          );
          return {
            init: [init.status, version, init.requestId],
            tools: [list.status, (list.json.result.tools as Array<{ name: string }>).some((t) => t.name === 'get_customer_score')],
            created: [created.status, created.json.result.isError ?? false, created.json.result.structuredContent?.note?.fields?.name === name],
          };
        },
        { mcp: `${app.url}/mcp`, token },
      );
      expect(seen).toEqual({ init: [200, '2025-11-25', true], tools: [200, true], created: [200, false, true] });
    } finally {
      await browser.close();
      await spa.close();
    }
  }, 60_000);
});
