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

describe('a request whose Origin is not valid → 403 auth.accessDenied, and nothing is done for it', () => {
  it('an origin no application registered, with or without a token, on every method', async () => {
    const { token } = await browserClient();
    const stranger = uniqueOrigin();
    const detail = `Origin "${stranger}" is not the origin of a registered redirect URI of any application: this server answers browsers only from those origins.`;
    const name = `Via ${stranger}`;
    const create = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_note', arguments: { name, content: 'x' } } };
    for (const res of [
      await rpc(token, create, stranger),
      await rpc(undefined, create, stranger),
      await call(app, 'GET', '/mcp', { headers: { origin: stranger } }),
      await call(app, 'DELETE', '/mcp', { headers: { origin: stranger } }),
    ]) {
      expectError(res, 'auth.accessDenied', { detail, source: ORIGIN });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(await notesNamed(name)).toBe(0);
  });

  it('an Origin that is not a serialised origin ("null", a path)', async () => {
    const { token } = await browserClient();
    for (const origin of ['null', 'https://a.example/path']) {
      expectError(await rpc(token, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, origin), 'auth.accessDenied', {
        detail: `Origin ${JSON.stringify(origin)} is not a serialised origin (scheme://host[:port]): this server answers browsers only from those origins.`,
        source: ORIGIN,
      });
    }
  });

  it("another application's registered origin, or any origin with an API token", async () => {
    const own = await browserClient();
    const other = await browserClient();
    const name = `Via ${other.origin}`;
    const res = await rpc(
      own.token,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_note', arguments: { name, content: 'x' } } },
      other.origin,
    );
    expectError(res, 'auth.accessDenied', {
      detail: `Origin "${other.origin}" is not the origin of a redirect URI of the token's application: this server answers browsers only from those origins.`,
      source: ORIGIN,
    });
    expect(await notesNamed(name)).toBe(0);
    expectError(await rpc(ws.token, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, own.origin), 'auth.accessDenied', {
      detail: `Origin "${own.origin}" comes with an API token, which is not for browsers: this server answers browsers only from those origins.`,
      source: ORIGIN,
    });
  });
});

describe('requests without Origin, or from the token application’s own origin', () => {
  it('without Origin (every non-browser client): answered as before', async () => {
    const { token } = await browserClient();
    const res = await rpc(token, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.tools.length).toBeGreaterThan(0);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect((await rpc(ws.token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);
    expectError(await call(app, 'GET', '/mcp'), 'request.methodNotAllowed');
  });

  it('from its own origin: answered, readable by that origin; the 405s too', async () => {
    const { origin, token } = await browserClient();
    const res = await rpc(token, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, origin);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('vary')).toBe('Origin');
    const get = await call(app, 'GET', '/mcp', { headers: { origin } });
    expectError(get, 'request.methodNotAllowed');
    expect(get.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('the preflight of /mcp allows the MCP protocol version header', async () => {
    const { origin } = await browserClient();
    const res = await call(app, 'OPTIONS', '/mcp', {
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' },
    });
    expect(res.status, res.text).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, If-Match, Idempotency-Key, Mcp-Protocol-Version');
    // The REST API's paths do not take it.
    const api = await call(app, 'OPTIONS', '/v2/notes', { headers: { origin, 'access-control-request-method': 'POST' } });
    expect(api.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, If-Match, Idempotency-Key');
  });
});

describe('a browser-based MCP client in a real browser (chromium)', () => {
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
