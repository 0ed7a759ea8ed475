// CORS for browser-based public clients: preflights answered from the registered redirect-URI
// origins (they carry no token), actual API requests only for the access token's own application.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationCode, exchangeCode, newCodeClient, withPassword } from './support.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';
import { launchBrowser, startCallbackServer } from '../support/browser.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

let n = 0;
const uniqueOrigin = () => `https://spa-${process.pid}-${Date.now()}-${++n}.example.com`;

async function setUp() {
  const ws = await newWorkspace();
  const member = await withPassword((await ws.member()).member);
  const origin = uniqueOrigin();
  const client = await newCodeClient(app, ws, { public: true, redirectUris: [`${origin}/callback`] });
  return { ws, member, origin, client };
}

const preflight = (path: string, origin: string, method = 'POST', headers = 'authorization, content-type') =>
  call(app, 'OPTIONS', path, { headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });

describe('preflight (OPTIONS)', () => {
  it("from a registered origin → 204 allowing that origin, the path's methods and the headers a client sends", async () => {
    const { origin } = await setUp();
    const res = await preflight('/oauth/token', origin);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, If-Match, Idempotency-Key');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toBe('Origin');
    const api = await preflight('/v2/entities/00000000-0000-4000-8000-000000000000', origin, 'GET');
    expect(api.status).toBe(204);
    expect(api.headers.get('access-control-allow-methods')).toBe('GET, PATCH, DELETE');
  });

  it('from an origin no application registered → 403 auth.accessDenied, no CORS headers', async () => {
    const res = await preflight('/oauth/token', uniqueOrigin());
    expectError(res, 'auth.accessDenied', { detail: /is not the origin of a registered redirect URI/ });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a method asked for without Origin, or a method the path does not have → 400 request.invalid at that header; a body → 400 naming the path', async () => {
    const { origin } = await setUp();
    expectError(await call(app, 'OPTIONS', '/oauth/token', { headers: { 'access-control-request-method': 'POST' } }), 'request.invalid', {
      detail: 'A CORS preflight needs an Origin header naming a scheme, a host and a port.',
      source: { parameter: 'Origin' },
    });
    expectError(await preflight('/oauth/token', origin, 'DELETE'), 'request.invalid', {
      detail: 'Access-Control-Request-Method "DELETE" is not a method of this path (POST).',
      source: { parameter: 'Access-Control-Request-Method' },
    });
    // A body on a preflight is refused naming the path it was sent to.
    const withBody = await call(app, 'OPTIONS', '/v2/entities', { headers: { origin, 'access-control-request-method': 'GET' }, body: { a: 1 } });
    expectError(withBody, 'request.malformed', { detail: 'OPTIONS /v2/entities takes no request body; send the request without one.' });
  });

  it("the public documents (this API's OpenAPI document, the OAuth metadata) from any origin: the preflight and the read allow *", async () => {
    for (const path of ['/v2/openapi.json', '/.well-known/oauth-authorization-server']) {
      const origin = uniqueOrigin();
      const pre = await preflight(path, origin, 'GET', 'content-type');
      expect([pre.status, pre.headers.get('access-control-allow-origin')], path).toEqual([204, '*']);
      const read = await call(app, 'GET', path, { headers: { origin } });
      expect([read.status, read.headers.get('access-control-allow-origin')], path).toEqual([200, '*']);
    }
  });

  it('a plain OPTIONS (no Origin, no method asked for) → 204 with the Allow its 405s give, no CORS headers', async () => {
    for (const [path, allow] of [
      ['/oauth/token', 'POST, OPTIONS'],
      ['/v2/entities/00000000-0000-4000-8000-000000000000', 'GET, PATCH, DELETE, OPTIONS'],
      ['/v2/entities/00000000-0000-4000-8000-000000000000/score', 'GET, OPTIONS'],
    ]) {
      const res = await call(app, 'OPTIONS', path!);
      expect([res.status, res.text, res.headers.get('allow'), res.headers.get('access-control-allow-origin')], path).toEqual([204, '', allow, null]);
      const refused = await call(app, 'PUT', path!, { body: {} });
      expect(refused.headers.get('allow'), path).toBe(allow);
    }
  });

  it('the pages and the applications API have no CORS: 405 without OPTIONS in Allow; unknown paths 404 route.notFound', async () => {
    const { origin } = await setUp();
    const page = await preflight('/oauth/authorize', origin, 'GET');
    expectError(page, 'request.methodNotAllowed', { detail: 'This path does not take OPTIONS; it takes GET.' });
    expect([page.headers.get('allow'), page.headers.get('access-control-allow-methods')]).toEqual(['GET', null]);
    const applications = await preflight('/oauth2/applications', origin);
    expectError(applications, 'request.methodNotAllowed', { detail: 'This path does not take OPTIONS; it takes GET, POST.' });
    expectError(await preflight('/v2/nope', origin, 'GET'), 'route.notFound');
  });

  it("an application's deletion withdraws its origins", async () => {
    const { ws, origin, client } = await setUp();
    expect((await preflight('/oauth/token', origin)).status).toBe(204);
    expect((await call(app, 'DELETE', `/oauth2/applications/${client.clientId}`, { token: ws.token })).status).toBe(204);
    expectError(await preflight('/oauth/token', origin), 'auth.accessDenied');
  });
});

describe('actual requests', () => {
  it('the token endpoint answers a registered origin with CORS headers, on success and on error', async () => {
    const { member, origin, client } = await setUp();
    const code = await authorizationCode(app, client, member);
    const ok = await exchangeCode(app, client, code, {});
    expect(ok.status).toBe(200);
    const withOrigin = await call(app, 'POST', '/oauth/token', {
      body: `grant_type=refresh_token&refresh_token=${ok.json.refresh_token}&client_id=${client.clientId}`,
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(withOrigin.status).toBe(200);
    expect(withOrigin.headers.get('access-control-allow-origin')).toBe(origin);
    expect(withOrigin.headers.get('vary')).toBe('Origin');
    const failed = await call(app, 'POST', '/oauth/token', {
      body: 'grant_type=refresh_token&refresh_token=nope&client_id=' + client.clientId,
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(failed.status).toBe(400);
    expect(failed.headers.get('access-control-allow-origin')).toBe(origin);
    const stranger = await call(app, 'POST', '/oauth/token', {
      body: 'grant_type=refresh_token&refresh_token=nope&client_id=' + client.clientId,
      headers: { origin: uniqueOrigin(), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("an API request with an access token gets CORS only for that token's application's origins", async () => {
    const { ws, member, origin, client } = await setUp();
    const other = await newCodeClient(app, ws, { public: true, redirectUris: [`${uniqueOrigin()}/cb`], name: 'Other' });
    const tokens = (await exchangeCode(app, client, await authorizationCode(app, client, member))).json;
    const own = await call(app, 'GET', '/v2/entities', { token: tokens.access_token, headers: { origin } });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(origin);
    expect(own.headers.get('access-control-expose-headers')).toBe(
      'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, Idempotent-Replayed, WWW-Authenticate, x-amzn-Remapped-WWW-Authenticate',
    );
    const foreign = await call(app, 'GET', '/v2/entities', { token: tokens.access_token, headers: { origin: new URL(other.redirectUri).origin } });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    // An API token is not for browsers: no CORS, whatever the origin.
    expect((await call(app, 'GET', '/v2/entities', { token: ws.token, headers: { origin } })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a 401 on an API route is readable by a registered origin (so the client can refresh)', async () => {
    const { origin } = await setUp();
    const res = await call(app, 'GET', '/v2/entities', { headers: { origin } });
    expectError(res, 'auth.invalid');
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  });
});

describe('a single-page application in a real browser (chromium)', () => {
  it("sends If-Match and Idempotency-Key cross-origin and reads ETag, Idempotent-Replayed, the request budget, the challenge and the edge's own answers", async () => {
    const spa = await startCallbackServer('SPA');
    const browser = await launchBrowser();
    // The suite runs without request budgets (test/setup/env.ts); this page reads their headers.
    const limit = process.env.RATE_LIMIT_PER_SECOND;
    process.env.RATE_LIMIT_PER_SECOND = '1000';
    try {
      const ws = await newWorkspace();
      const member = await withPassword((await ws.member({ role: 'maker' })).member);
      const client = await newCodeClient(app, ws, { public: true, redirectUris: [spa.url], scopes: ['notes:read', 'notes:write'] });
      const token = (await exchangeCode(app, client, await authorizationCode(app, client, member, { scope: 'notes:read notes:write' }))).json.access_token;
      await browser.page.goto(spa.url);
      const seen = await browser.page.evaluate(
        async ({ api, token }) => {
          const auth = { authorization: `Bearer ${token}` };
          const json = { ...auth, 'content-type': 'application/json' };
          const create = () =>
            fetch(`${api}/notes`, {
              method: 'POST',
              headers: { ...json, 'idempotency-key': 'spa-create-1' },
              body: JSON.stringify({ data: { type: 'textNote', fields: { name: 'From the SPA' } } }),
            });
          const first = await create();
          const again = await create();
          const id = ((await first.json()) as { data: { id: string } }).data.id;
          const read = await fetch(`${api}/notes/${id}`, { headers: auth });
          const etag = read.headers.get('etag') ?? '';
          const rename = (tag: string, name: string) =>
            fetch(`${api}/notes/${id}`, { method: 'PATCH', headers: { ...json, 'if-match': tag }, body: JSON.stringify({ data: { fields: { name } } }) });
          const renamed = await rename(etag, 'Renamed');
          const stale = await rename(etag, 'Again');
          const refused = await fetch(`${api}/notes/${id}`, { headers: { authorization: 'Bearer not-a-token' } });
          // An answer of the edge (no function runs) is readable too: an unknown route's 404.
          const unknown = await fetch(`${api}/nope`);
          return {
            created: [first.status, again.status, again.headers.get('idempotent-replayed')],
            budget: [
              read.headers.get('x-ratelimit-limit'),
              /^\d+$/.test(read.headers.get('x-ratelimit-reset') ?? ''),
              /^[\w-]+$/.test(read.headers.get('x-request-id') ?? ''),
            ],
            etag,
            renamed: [renamed.status, stale.status],
            challenge: refused.headers.get('x-amzn-remapped-www-authenticate'),
            edge: [
              unknown.status,
              ((await unknown.json()) as { errors: Array<{ code: string }> }).errors[0]!.code,
              /^[\w-]+$/.test(unknown.headers.get('x-request-id') ?? ''),
            ],
          };
        },
        { api: app.baseUrl, token },
      );
      expect(seen).toEqual({
        created: [201, 201, 'true'],
        budget: ['1000', true, true],
        etag: expect.stringMatching(/^"[0-9T:.Z-]+"$/),
        renamed: [200, 412],
        challenge: 'Bearer',
        edge: [404, 'route.notFound', true],
      });
    } finally {
      process.env.RATE_LIMIT_PER_SECOND = limit;
      await browser.close();
      await spa.close();
    }
  }, 60_000);
});
