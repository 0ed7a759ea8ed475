// POST {app_url}/oauth/token: the authorization_code and refresh_token grants, every error path of
// issue 12 (PKCE, code reuse, another client's code, redirect URI mismatch, expiry, refresh replay,
// scope escalation, deactivation, deletion), client authentication, and what the tokens can do.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setMemberActive } from '#lib/store/members.ts';
import { authorizationCode, clientAuth, exchangeCode, expectOAuthError, newCodeClient, refresh, tokenCall, VERIFIER, withPassword } from './support.ts';
import { jwtClaims } from '../oauth/support.ts';
import { call, challengeOf, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());
afterEach(() => {
  vi.useRealTimers();
});

/** A workspace, a maker with a password, a confidential client and a fresh code. */
async function setUp(options: { public?: boolean; scopes?: string[]; role?: 'maker' | 'viewer' } = {}) {
  const ws = await newWorkspace('Acme');
  const member = await withPassword((await ws.member({ role: options.role ?? 'maker' })).member);
  const client = await newCodeClient(app, ws, { ...(options.public ? { public: true } : {}), ...(options.scopes ? { scopes: options.scopes } : {}) });
  const code = await authorizationCode(app, client, member, { scope: 'entities:read notes:read' });
  return { ws, member, client, code };
}

describe('authorization_code grant', () => {
  it('a code and its PKCE verifier → 200 {access_token, token_type Bearer, expires_in 3600, refresh_token, scope}, no-store', async () => {
    const { ws, member, client, code } = await setUp();
    const res = await exchangeCode(app, client, code);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      scope: 'entities:read notes:read',
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const claims = jwtClaims(res.json.access_token);
    expect(claims).toMatchObject({
      tu: 'access',
      ws: ws.workspaceId,
      sub: member.id,
      cid: client.clientId,
      scope: 'entities:read notes:read',
      aud: `${app.url}/v2`,
      gid: expect.any(String),
    });
    expect(claims.exp - claims.iat).toBe(3600);
    // The token works on the API with exactly its scopes.
    expect((await call(app, 'GET', '/v2/entities', { token: res.json.access_token })).status).toBe(200);
    expectError(
      await call(app, 'POST', '/v2/entities', { token: res.json.access_token, body: { data: { type: 'product', fields: { name: 'P' } } } }),
      'auth.accessDenied',
    );
  });

  it('client_secret_basic works as well as client_secret_post', async () => {
    const { client, code } = await setUp();
    const res = await tokenCall(
      app,
      { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: VERIFIER },
      { basic: [client.clientId, client.clientSecret!] },
    );
    expect(res.status, res.text).toBe(200);
  });

  it('a wrong PKCE verifier → invalid_grant; a missing one → invalid_request; the code is not consumed by either', async () => {
    const { client, code } = await setUp();
    expectOAuthError(
      await exchangeCode(app, client, code, { code_verifier: 'z'.repeat(43) }),
      'invalid_grant',
      'code_verifier does not match the code_challenge of the authorization request.',
    );
    expectOAuthError(
      await exchangeCode(app, client, code, { code_verifier: undefined }),
      'invalid_request',
      'code_verifier is missing; the authorization request had a code_challenge.',
    );
    expect((await exchangeCode(app, client, code)).status).toBe(200);
  });

  it('a verifier without a challenge in the request (PKCE downgrade) → invalid_request', async () => {
    const ws = await newWorkspace();
    const member = await withPassword((await ws.member()).member);
    const client = await newCodeClient(app, ws);
    const code = await authorizationCode(app, client, member, { code_challenge: undefined, code_challenge_method: undefined });
    expectOAuthError(await exchangeCode(app, client, code), 'invalid_request', 'code_verifier was sent, but the authorization request had no code_challenge.');
    expect((await exchangeCode(app, client, code, { code_verifier: undefined })).status).toBe(200);
  });

  it('code reuse → invalid_grant, and what the first exchange issued is revoked (access token 401, refresh token invalid_grant)', async () => {
    const { client, code } = await setUp();
    const first = await exchangeCode(app, client, code);
    expect(first.status).toBe(200);
    expect((await call(app, 'GET', '/v2/entities', { token: first.json.access_token })).status).toBe(200);
    expectOAuthError(await exchangeCode(app, client, code), 'invalid_grant', 'The authorization code was already used; every token issued for it is revoked.');
    expectError(await call(app, 'GET', '/v2/entities', { token: first.json.access_token }), 'auth.invalid', { detail: 'The bearer token has been revoked.' });
    expectOAuthError(await refresh(app, client, first.json.refresh_token), 'invalid_grant', 'The grant of this refresh token has been revoked.');
  });

  it('two concurrent exchanges of one code: exactly one succeeds, and its tokens end up revoked too', async () => {
    const { client, code } = await setUp();
    const results = await Promise.all([exchangeCode(app, client, code), exchangeCode(app, client, code)]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expectOAuthError(
      results.find((r) => r.status !== 200)!,
      'invalid_grant',
    );
    expectError(await call(app, 'GET', '/v2/entities', { token: ok[0]!.json.access_token }), 'auth.invalid');
  });

  it("another client's code → invalid_grant, without consuming it", async () => {
    const { ws, client, code } = await setUp();
    const other = await newCodeClient(app, ws, { name: 'Other' });
    expectOAuthError(
      await exchangeCode(app, other, code, { redirect_uri: client.redirectUri }),
      'invalid_grant',
      'The authorization code was issued to another client.',
    );
    expect((await exchangeCode(app, client, code)).status).toBe(200);
  });

  it('a redirect_uri other than the one of the authorization request → invalid_grant', async () => {
    const ws = await newWorkspace();
    const member = await withPassword((await ws.member()).member);
    const client = await newCodeClient(app, ws, { redirectUris: ['https://client.example.com/callback', 'https://client.example.com/other'] });
    const code = await authorizationCode(app, client, member);
    expectOAuthError(
      await exchangeCode(app, client, code, { redirect_uri: 'https://client.example.com/other' }),
      'invalid_grant',
      'redirect_uri differs from the one in the authorization request.',
    );
  });

  it('a code older than 60 seconds → invalid_grant (clock moved, not slept)', async () => {
    const { client, code } = await setUp();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    expectOAuthError(await exchangeCode(app, client, code), 'invalid_grant', 'The authorization code has expired.');
  });

  it('an unknown code → invalid_grant; missing code or redirect_uri → invalid_request', async () => {
    const { client } = await setUp();
    expectOAuthError(await exchangeCode(app, client, 'not-a-code'), 'invalid_grant', 'The authorization code is not valid.');
    expectOAuthError(await exchangeCode(app, client, '', { code: undefined }), 'invalid_request', /^code: /);
    expectOAuthError(await exchangeCode(app, client, 'x', { redirect_uri: undefined }), 'invalid_request', /^redirect_uri: /);
  });

  it('a deactivated member: the code is refused (invalid_grant)', async () => {
    const { ws, member, client, code } = await setUp();
    await setMemberActive(ws.workspaceId, member.email, false);
    expectOAuthError(await exchangeCode(app, client, code), 'invalid_grant', 'The member who granted access is deactivated or no longer exists.');
  });

  it('scope on the exchange may narrow the grant, never widen it (escalation → invalid_scope)', async () => {
    const { client, code } = await setUp();
    expectOAuthError(
      await exchangeCode(app, client, code, { scope: 'entities:read write:entities' }),
      'invalid_scope',
      /^The grant does not include write:entities/,
    );
    const res = await exchangeCode(app, client, code, { scope: 'notes:read' });
    expect(res.json.scope).toBe('notes:read');
  });
});

describe('refresh_token grant', () => {
  it('rotates: a new access and refresh token each time, the grant keeps its scopes; the old access token stays valid until it expires', async () => {
    const { client, code } = await setUp();
    const first = (await exchangeCode(app, client, code)).json;
    const second = await refresh(app, client, first.refresh_token);
    expect(second.status, second.text).toBe(200);
    expect(second.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.any(String),
      scope: 'entities:read notes:read',
    });
    expect(second.json.refresh_token).not.toBe(first.refresh_token);
    expect(jwtClaims(second.json.access_token).gid).toBe(jwtClaims(first.access_token).gid);
    const third = await refresh(app, client, second.json.refresh_token);
    expect(third.status).toBe(200);
    for (const t of [first.access_token, second.json.access_token, third.json.access_token])
      expect((await call(app, 'GET', '/v2/notes', { token: t })).status).toBe(200);
  });

  it('replaying a used refresh token → invalid_grant and the whole family is revoked: the newest access token gets 401, the newest refresh token invalid_grant', async () => {
    const { client, code } = await setUp();
    const first = (await exchangeCode(app, client, code)).json;
    const second = (await refresh(app, client, first.refresh_token)).json;
    expect((await call(app, 'GET', '/v2/entities', { token: second.access_token })).status).toBe(200);
    expectOAuthError(
      await refresh(app, client, first.refresh_token),
      'invalid_grant',
      'The refresh token was already used; every token of this grant is revoked.',
    );
    expectError(await call(app, 'GET', '/v2/entities', { token: second.access_token }), 'auth.invalid', { detail: 'The bearer token has been revoked.' });
    expectError(await call(app, 'GET', '/v2/entities', { token: first.access_token }), 'auth.invalid');
    expectOAuthError(await refresh(app, client, second.refresh_token), 'invalid_grant', 'The grant of this refresh token has been revoked.');
  });

  it('scope escalation on refresh → invalid_scope; narrowing works and later refreshes can widen back up to the grant', async () => {
    const { client, code } = await setUp();
    const first = (await exchangeCode(app, client, code)).json;
    expectOAuthError(
      await refresh(app, client, first.refresh_token, { scope: 'entities:read write:entities' }),
      'invalid_scope',
      /^The grant does not include write:entities/,
    );
    expectOAuthError(await refresh(app, client, first.refresh_token, { scope: 'entities:read bogus' }), 'invalid_scope', 'Unknown scope "bogus".');
    const narrowed = await refresh(app, client, first.refresh_token, { scope: 'entities:read' });
    expect(narrowed.json.scope).toBe('entities:read');
    expectError(await call(app, 'GET', '/v2/notes', { token: narrowed.json.access_token }), 'auth.accessDenied');
    expect((await refresh(app, client, narrowed.json.refresh_token)).json.scope).toBe('entities:read notes:read');
  });

  it('a deactivated member: access tokens 401 on the next request, refresh → invalid_grant', async () => {
    const { ws, member, client, code } = await setUp();
    const tokens = (await exchangeCode(app, client, code)).json;
    await setMemberActive(ws.workspaceId, member.email, false);
    expectError(await call(app, 'GET', '/v2/entities', { token: tokens.access_token }), 'auth.invalid', {
      detail: "The token's member is deactivated or no longer exists.",
    });
    expectOAuthError(await refresh(app, client, tokens.refresh_token), 'invalid_grant', 'The member who granted access is deactivated or no longer exists.');
  });

  it('the application deleted: its access tokens 401, its refresh tokens no longer authenticate (invalid_client)', async () => {
    const { ws, client, code } = await setUp();
    const tokens = (await exchangeCode(app, client, code)).json;
    expect((await call(app, 'DELETE', `/oauth2/applications/${client.clientId}`, { token: ws.token })).status).toBe(204);
    expectError(await call(app, 'GET', '/v2/entities', { token: tokens.access_token }), 'auth.invalid', {
      detail: "The token's application has been deleted.",
    });
    expectOAuthError(await refresh(app, client, tokens.refresh_token), 'invalid_client', undefined, 401);
  });

  it("another client's refresh token → invalid_grant, and it keeps working for its own client", async () => {
    const { ws, client, code } = await setUp();
    const tokens = (await exchangeCode(app, client, code)).json;
    const other = await newCodeClient(app, ws, { name: 'Other' });
    expectOAuthError(await refresh(app, other, tokens.refresh_token), 'invalid_grant', 'The refresh token was issued to another client.');
    expect((await refresh(app, client, tokens.refresh_token)).status).toBe(200);
  });

  it('refresh tokens end 30 days after the grant, however often they rotated', async () => {
    const { client, code } = await setUp();
    const tokens = (await exchangeCode(app, client, code)).json;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 29 * 86_400_000);
    const rotated = await refresh(app, client, tokens.refresh_token);
    expect(rotated.status).toBe(200);
    vi.setSystemTime(Date.now() + 2 * 86_400_000);
    expectOAuthError(
      await refresh(app, client, rotated.json.refresh_token),
      'invalid_grant',
      'The refresh token has expired (30 days after the grant); ask the member again.',
    );
  });

  it("a viewer's consent never grants write scopes, whatever the request asked", async () => {
    const ws = await newWorkspace();
    const viewer = await withPassword((await ws.member({ role: 'viewer' })).member);
    const client = await newCodeClient(app, ws);
    const code = await authorizationCode(app, client, viewer, { scope: 'entities:read write:entities' });
    const res = await exchangeCode(app, client, code);
    expect(res.json.scope).toBe('entities:read');
  });
});

describe('client authentication and request form', () => {
  it('a wrong secret with Basic → 401 invalid_client with the Basic challenge', async () => {
    const { client, code } = await setUp();
    const res = await tokenCall(
      app,
      { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: VERIFIER },
      { basic: [client.clientId, 'wrong'] },
    );
    expectOAuthError(res, 'invalid_client', 'Client authentication failed: wrong client secret.', 401);
    expect(challengeOf(res)).toBe('Basic realm="oauth", charset="UTF-8"');
    // The code survived the failed attempt.
    expect((await exchangeCode(app, client, code)).status).toBe(200);
  });

  it('a confidential client without its secret, a public client with one, an unknown client → invalid_client', async () => {
    const { client, code } = await setUp();
    expectOAuthError(
      await exchangeCode(app, client, code, { client_secret: undefined }),
      'invalid_client',
      'Client authentication failed: this confidential client must authenticate with its client secret.',
      401,
    );
    const pub = await setUp({ public: true });
    expectOAuthError(await exchangeCode(app, pub.client, pub.code, { client_secret: 'anything' }), 'invalid_client', /public client/, 401);
    expectOAuthError(
      await exchangeCode(app, client, code, { client_id: '00000000-0000-4000-8000-000000000000', client_secret: 'x' }),
      'invalid_client',
      'Client authentication failed: unknown client.',
      401,
    );
    expect((await exchangeCode(app, pub.client, pub.code)).status).toBe(200);
  });

  it('a server-to-server application → unauthorized_client', async () => {
    const ws = await newWorkspace();
    const s2s = await call(app, 'POST', '/oauth2/applications', { token: ws.token, body: { name: 'S2S', scopes: ['entities:read'] } });
    const res = await tokenCall(app, { grant_type: 'refresh_token', refresh_token: 'x', client_id: s2s.json.clientId });
    expectOAuthError(res, 'unauthorized_client', /server-to-server/);
  });

  it('grant_type missing → invalid_request; unknown (or the JWT bearer grant here) → unsupported_grant_type', async () => {
    const { client } = await setUp();
    expectOAuthError(await tokenCall(app, { ...clientAuth(client) }), 'invalid_request', 'grant_type is missing.');
    expectOAuthError(
      await tokenCall(app, { grant_type: 'password', ...clientAuth(client) }),
      'unsupported_grant_type',
      /^grant_type "password" is not supported here/,
    );
    expectOAuthError(
      await tokenCall(app, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'x', ...clientAuth(client) }),
      'unsupported_grant_type',
    );
  });

  it('not a form, a repeated parameter, two client authentication methods → invalid_request', async () => {
    const { client, code } = await setUp();
    expectOAuthError(
      await call(app, 'POST', '/oauth/token', { body: { grant_type: 'authorization_code' } }),
      'invalid_request',
      'The request must be sent as application/x-www-form-urlencoded.',
    );
    const repeated = `grant_type=authorization_code&code=${code}&code=${code}&client_id=${client.clientId}`;
    expectOAuthError(
      await call(app, 'POST', '/oauth/token', { body: repeated, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      'invalid_request',
      "The parameter 'code' is repeated; each parameter may appear once.",
    );
    const both = await tokenCall(
      app,
      { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: VERIFIER, client_secret: client.clientSecret! },
      { basic: [client.clientId, client.clientSecret!] },
    );
    expectOAuthError(both, 'invalid_request', /authenticated twice/);
  });

  it('a query string on /oauth/token or /oauth/revoke → invalid_request naming it: the parameters are read from the form only', async () => {
    const { client, code } = await setUp();
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      code_verifier: VERIFIER,
      ...clientAuth(client),
    });
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const wording = "This endpoint reads its parameters from the form body only; the query string sends 'zzz'.";
    expectOAuthError(await call(app, 'POST', '/oauth/token?zzz=1', { body: form.toString(), headers }), 'invalid_request', wording);
    const tokens = (await exchangeCode(app, client, code)).json;
    const revocation = new URLSearchParams({ token: tokens.refresh_token, ...clientAuth(client) }).toString();
    expectOAuthError(await call(app, 'POST', '/oauth/revoke?zzz=1', { body: revocation, headers }), 'invalid_request', wording);
    // Not revoked: the refresh token still works.
    expect((await refresh(app, client, tokens.refresh_token)).status).toBe(200);
  });

  it('the JWT bearer grant stays at /oauth2/token, unchanged', async () => {
    const res = await call(app, 'POST', '/oauth2/token', {
      body: 'grant_type=authorization_code',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.json).toEqual({ error: 'unsupported_grant_type', error_description: 'The grant_type must be urn:ietf:params:oauth:grant-type:jwt-bearer.' });
  });
});

describe('POST /oauth/revoke (RFC 7009)', () => {
  const revoke = (client: { clientId: string; clientSecret?: string }, token: string, extra: Record<string, string> = {}) =>
    call(app, 'POST', '/oauth/revoke', {
      body: new URLSearchParams({
        token,
        client_id: client.clientId,
        ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
        ...extra,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('revoking the refresh token ends the whole grant: its access token 401 on the next request', async () => {
    const { client, code } = await setUp();
    const tokens = (await exchangeCode(app, client, code)).json;
    const res = await revoke(client, tokens.refresh_token, { token_type_hint: 'refresh_token' });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expectError(await call(app, 'GET', '/v2/entities', { token: tokens.access_token }), 'auth.invalid', { detail: 'The bearer token has been revoked.' });
    expectOAuthError(await refresh(app, client, tokens.refresh_token), 'invalid_grant');
  });

  it('revoking the access token ends the grant too', async () => {
    const { client, code } = await setUp();
    const tokens = (await exchangeCode(app, client, code)).json;
    expect((await revoke(client, tokens.access_token)).status).toBe(200);
    expectError(await call(app, 'GET', '/v2/entities', { token: tokens.access_token }), 'auth.invalid');
    expectOAuthError(await refresh(app, client, tokens.refresh_token), 'invalid_grant');
  });

  it("an unknown token → 200 (RFC 7009 §2.2); another client's token → unauthorized_client and nothing revoked; a hint naming no token type is ignored (RFC 7009 §2.1)", async () => {
    const { ws, client, code } = await setUp();
    const tokens = (await exchangeCode(app, client, code)).json;
    expect((await revoke(client, 'no-such-token')).status).toBe(200);
    const other = await newCodeClient(app, ws, { name: 'Other' });
    expectOAuthError(await revoke(other, tokens.refresh_token), 'unauthorized_client', 'The token was not issued to this client.');
    expectOAuthError(await revoke(other, tokens.access_token), 'unauthorized_client');
    expect((await call(app, 'GET', '/v2/entities', { token: tokens.access_token })).status).toBe(200);
    expectOAuthError(await revoke(client, tokens.refresh_token, { client_secret: 'wrong' }), 'invalid_client', undefined, 401);
    // A wrong hint, or one naming no type, still finds the token, and the grant ends.
    const revoked = await revoke(client, tokens.access_token, { token_type_hint: 'id_token' });
    expect(revoked.status, revoked.text).toBe(200);
    expect((await call(app, 'GET', '/v2/entities', { token: tokens.access_token })).status).toBe(401);
  });
});
