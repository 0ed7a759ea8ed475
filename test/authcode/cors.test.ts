// CORS for browser-based public clients: preflights answered from the registered redirect-URI
// origins (they carry no token), actual API requests only for the access token's own application.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationCode, exchangeCode, newCodeClient, withPassword } from './support.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

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
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
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

  it('without Origin, or asking for a method the path does not have → 400 request.invalid', async () => {
    const { origin } = await setUp();
    expectError(await call(app, 'OPTIONS', '/oauth/token', { headers: { 'access-control-request-method': 'POST' } }), 'request.invalid', { detail: /Origin/ });
    expectError(await preflight('/oauth/token', origin, 'DELETE'), 'request.invalid', { detail: /DELETE/ });
  });

  it('the pages, the applications API and unknown paths have no CORS: 404 route.notFound', async () => {
    const { origin } = await setUp();
    expectError(await preflight('/oauth/authorize', origin, 'GET'), 'route.notFound');
    expectError(await preflight('/oauth2/applications', origin), 'route.notFound');
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
    expect(own.headers.get('access-control-expose-headers')).toBe('X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After, WWW-Authenticate');
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
