import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticate } from '#lib/auth/bearer.ts';
import { addKey, exchange, expectSpec, expectTokenError, GRANT, jwtClaims, newClient, nowS, rsaKeyPair, signRaw, tokenRequest } from './support.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());
afterEach(() => {
  vi.useRealTimers();
});

describe('POST /oauth2/token — success', () => {
  it('a valid assertion → 200 {access_token, token_type: "Bearer", expires_in: 300, scope}, no refresh_token, Cache-Control: no-store', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const res = await exchange(app, client.assertion());
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 300, scope: 'entities:read notes:read' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const claims = jwtClaims(res.json.access_token);
    expect(claims).toMatchObject({ tu: 'access', ws: ws.workspaceId, sub: ws.admin.id, cid: client.clientId, scope: 'entities:read notes:read' });
    expect(claims.exp - claims.iat).toBe(300);
  });

  it('the issued token works as Authorization: Bearer on an API route', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const token = (await exchange(app, client.assertion())).json.access_token;
    const res = await call(app, 'GET', '/v2/entities', { token });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual([]);
  });

  it('granted scopes = requested ∩ allowed (unknown names ignored): the token carries exactly those', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws, { scopes: ['entities:read', 'notes:read'], defaultScopes: ['notes:read'] });
    const res = await exchange(app, client.assertion({ scope: 'entities:read write:entities notes:delete bogus:scope' }));
    expect(res.status, res.text).toBe(200);
    expect(res.json.scope).toBe('entities:read');
    expect((await call(app, 'GET', '/v2/entities', { token: res.json.access_token })).status).toBe(200);
    const principal = await authenticate(`Bearer ${res.json.access_token}`);
    expect({ ...principal, scopes: [...principal.scopes] }).toEqual({
      workspaceId: ws.workspaceId,
      memberId: ws.admin.id,
      email: ws.admin.email,
      role: 'admin',
      scopes: ['entities:read'],
      credential: 'access',
      tokenId: jwtClaims(res.json.access_token).jti,
      clientId: client.clientId,
    });
  });

  it('scope omitted → the default scopes; a notes-only token cannot list entities', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws, { scopes: ['entities:read', 'notes:read'], defaultScopes: ['notes:read'] });
    const res = await exchange(app, client.assertion());
    expect(res.json.scope).toBe('notes:read');
    expectError(await call(app, 'GET', '/v2/entities', { token: res.json.access_token }), 'auth.accessDenied');
  });

  it("the form's scope parameter (RFC 7523 §2.1) asks as the claim does; given both, they must ask alike", async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws, { scopes: ['entities:read', 'notes:read'], defaultScopes: ['notes:read'] });
    const byForm = await tokenRequest(app, { grant_type: GRANT, assertion: client.assertion(), scope: 'entities:read' });
    expect(byForm.status, byForm.text).toBe(200);
    expect(byForm.json.scope).toBe('entities:read');
    const alike = await tokenRequest(app, {
      grant_type: GRANT,
      assertion: client.assertion({ scope: 'notes:read entities:read' }),
      scope: 'entities:read  notes:read',
    });
    expect(alike.json.scope).toBe('entities:read notes:read');
    const differing = await tokenRequest(app, { grant_type: GRANT, assertion: client.assertion({ scope: 'notes:read' }), scope: 'entities:read' });
    expectTokenError(
      differing,
      'invalid_request',
      "The scope parameter and the assertion's scope claim ask for different scopes: give one of them, or both alike.",
    );
    expectTokenError(
      await tokenRequest(app, { grant_type: GRANT, assertion: client.assertion(), scope: 'bogus:scope' }),
      'invalid_scope',
      'None of the requested scopes may be granted to this application and user.',
    );
  });

  it('the alias entities:write is accepted in a requested scope and granted as write:entities', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const res = await exchange(app, client.assertion({ scope: 'entities:write' }));
    expect(res.json.scope).toBe('write:entities');
  });

  it("a token never exceeds its member's role: a viewer acting through an all-scopes application gets only read scopes", async () => {
    const ws = await newWorkspace();
    const viewer = await ws.member({ role: 'viewer' });
    const client = await newClient(app, ws);
    const res = await exchange(app, client.assertion({ sub: viewer.member.email, scope: 'entities:read write:entities entities:delete notes:read' }));
    expect(res.json.scope).toBe('entities:read notes:read');
  });

  it('sub is matched case-insensitively (e-mail addresses are stored lower-cased)', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const res = await exchange(app, client.assertion({ sub: ws.admin.email.toUpperCase() }));
    expect(res.status, res.text).toBe(200);
    expect(jwtClaims(res.json.access_token).sub).toBe(ws.admin.id);
  });

  it('a kid naming the key (by key id or by fingerprint) is accepted', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const fingerprint = (await call(app, 'GET', `/oauth2/applications/${client.clientId}`, { token: ws.token })).json.keys[0].fingerprint;
    for (const kid of [client.keyId, fingerprint]) {
      const res = await exchange(app, client.assertion({ jti: kid }, { alg: 'RS256', kid }));
      expect(res.status, res.text).toBe(200);
    }
  });
});

describe("POST /oauth2/token — the spec's error table", () => {
  it('assertion not provided → jwt_bearer_missing_assertion', async () => {
    expectSpec(await tokenRequest(app, { grant_type: GRANT }), 'missing');
    expectSpec(await tokenRequest(app, { grant_type: GRANT, assertion: '' }), 'missing');
  });

  it('generic failure (not a JWT) → jwt_bearer_invalid', async () => {
    expectSpec(await exchange(app, 'not-a-jwt'), 'invalid');
  });

  it('signature not verifiable with the uploaded public key → jwt_bearer_invalid_signature', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const other = rsaKeyPair();
    expectSpec(await exchange(app, signRaw({ alg: 'RS256' }, client.claims(), other.privateKey)), 'signature');
  });

  it('exp in the past → jwt_bearer_expired', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    expectSpec(await exchange(app, client.assertion({ iat: nowS() - 120, exp: nowS() - 60 })), 'expired');
  });

  it('iss differs from the client id / the application is not found → jwt_bearer_invalid_issuer', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    expectSpec(await exchange(app, client.assertion({ iss: '00000000-0000-4000-8000-000000000000' })), 'issuer');
    expectSpec(await exchange(app, client.assertion({ iss: 'not-a-client-id' })), 'issuer');
    expectSpec(await exchange(app, client.assertion({ iss: undefined })), 'issuer');
  });

  it('aud differs from the token endpoint URL → jwt_bearer_invalid_audience', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    expectSpec(await exchange(app, client.assertion({ aud: 'https://example.com/oauth2/token' })), 'audience');
  });

  it('sub e-mail not found, not activated, or not in the same space → jwt_bearer_invalid_user', async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const inactive = await ws.member({ active: false });
    const client = await newClient(app, ws);
    expectSpec(await exchange(app, client.assertion({ sub: 'nobody@example.com' })), 'user');
    expectSpec(await exchange(app, client.assertion({ sub: inactive.member.email })), 'user');
    expectSpec(await exchange(app, client.assertion({ sub: other.admin.email })), 'user');
  });
});

describe('POST /oauth2/token — the decisions beyond the specification (docs/server-to-server.md)', () => {
  it('missing or unknown grant_type → unsupported_grant_type', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    expectSpec(await tokenRequest(app, { assertion: client.assertion() }), 'grant');
    expectSpec(await tokenRequest(app, { grant_type: 'client_credentials', assertion: client.assertion() }), 'grant');
    expectSpec(await tokenRequest(app, { grant_type: GRANT.toUpperCase(), assertion: client.assertion() }), 'grant');
  });

  it('wrong content type (a JSON body) → invalid_request', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const res = await tokenRequest(app, JSON.stringify({ grant_type: GRANT, assertion: client.assertion() }), 'application/json');
    expectTokenError(res, 'invalid_request', 'The token request must be sent as application/x-www-form-urlencoded.');
    const none = await call(app, 'POST', '/oauth2/token', { body: `grant_type=${GRANT}` });
    expectTokenError(none, 'invalid_request', 'The token request must be sent as application/x-www-form-urlencoded.');
  });

  it('a JSON body sent as a form names no grant_type → unsupported_grant_type', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    expectSpec(await tokenRequest(app, JSON.stringify({ grant_type: GRANT, assertion: client.assertion() })), 'grant');
  });

  it('a repeated parameter → invalid_request', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const a = client.assertion();
    const repeatedAssertion = `grant_type=${encodeURIComponent(GRANT)}&assertion=${a}&assertion=${a}`;
    expectTokenError(await tokenRequest(app, repeatedAssertion), 'invalid_request', "The parameter 'assertion' is repeated; each parameter may appear once.");
    const repeatedGrant = `grant_type=${encodeURIComponent(GRANT)}&grant_type=${encodeURIComponent(GRANT)}&assertion=${a}`;
    expectTokenError(await tokenRequest(app, repeatedGrant), 'invalid_request', "The parameter 'grant_type' is repeated; each parameter may appear once.");
  });

  it('a query string (a stray name, a second grant_type) → invalid_request: the parameters are read from the form only, none is ignored', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const body = new URLSearchParams({ grant_type: GRANT, assertion: client.assertion() }).toString();
    const res = await call(app, 'POST', '/oauth2/token?zzz=1&grant_type=bogus', { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectTokenError(res, 'invalid_request', "This endpoint reads its parameters from the form body only; the query string sends 'zzz' and 'grant_type'.");
    // The same form without the query string is answered.
    expect((await tokenRequest(app, body)).status).toBe(200);
  });

  it('a body over 64 KiB → invalid_request (even when it holds a valid assertion)', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const body = `grant_type=${encodeURIComponent(GRANT)}&assertion=${client.assertion()}&padding=${'x'.repeat(64 * 1024)}`;
    expectTokenError(await tokenRequest(app, body), 'invalid_request', 'The token request body is larger than 65536 bytes.');
  });

  it('a body of exactly 64 KiB is still read', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const head = `grant_type=${encodeURIComponent(GRANT)}&assertion=${client.assertion()}&padding=`;
    const res = await tokenRequest(app, head + 'x'.repeat(64 * 1024 - head.length));
    expect(res.status, res.text).toBe(200);
  });

  it('empty scope intersection → invalid_scope', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws, { scopes: ['entities:read'], defaultScopes: ['entities:read'] });
    expectSpec(await exchange(app, client.assertion({ scope: 'notes:read write:entities' })), 'scope');
    expectSpec(await exchange(app, client.assertion({ scope: '' })), 'scope');
    expectSpec(await exchange(app, client.assertion({ scope: ['entities:read'] })), 'scope');
  });

  it('exp − iat > 300 s → jwt_bearer_invalid', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    expectSpec(await exchange(app, client.assertion({ iat: nowS() - 10, exp: nowS() + 291 })), 'invalid');
    expect((await exchange(app, client.assertion({ iat: nowS() - 10, exp: nowS() + 290 }))).status).toBe(200);
  });

  it('iat within the 30 s clock skew is accepted; beyond it → jwt_bearer_invalid', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    expect((await exchange(app, client.assertion({ iat: nowS() + 20, exp: nowS() + 60 }))).status).toBe(200);
    expectSpec(await exchange(app, client.assertion({ iat: nowS() + 45, exp: nowS() + 60 })), 'invalid');
  });

  it('a jti is single-use: replay → jwt_bearer_invalid', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const assertion = client.assertion({ jti: 'once' });
    expect((await exchange(app, assertion)).status).toBe(200);
    expectSpec(await exchange(app, assertion), 'invalid');
    // Another assertion with the same jti is the same replay; a new jti is fine.
    expectSpec(await exchange(app, client.assertion({ jti: 'once', exp: nowS() + 30 })), 'invalid');
    expect((await exchange(app, client.assertion({ jti: 'twice' }))).status).toBe(200);
  });

  it('a jti is scoped to its application: another application may use the same value', async () => {
    const ws = await newWorkspace();
    const a = await newClient(app, ws);
    const b = await newClient(app, ws);
    expect((await exchange(app, a.assertion({ jti: 'shared' }))).status).toBe(200);
    expect((await exchange(app, b.assertion({ jti: 'shared' }))).status).toBe(200);
  });

  it('an assertion refused for another reason does not use up its jti', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws, { scopes: ['entities:read'], defaultScopes: ['entities:read'] });
    expectSpec(await exchange(app, client.assertion({ jti: 'retry', scope: 'notes:read' })), 'scope');
    expect((await exchange(app, client.assertion({ jti: 'retry' }))).status).toBe(200);
  });

  it('without a jti, the same assertion may be exchanged again while it is valid', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const assertion = client.assertion();
    expect((await exchange(app, assertion)).status).toBe(200);
    expect((await exchange(app, assertion)).status).toBe(200);
  });
});

describe('the issued token over time, rotation and deletion', () => {
  it('works for 300 s, then 401 auth.invalid (clock moved with fake timers)', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const token = (await exchange(app, client.assertion())).json.access_token;
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    vi.setSystemTime(start + 299_000);
    expect((await call(app, 'GET', '/v2/entities', { token })).status).toBe(200);
    vi.setSystemTime(start + 301_000);
    expectError(await call(app, 'GET', '/v2/entities', { token }), 'auth.invalid');
  });

  it('deleting the application revokes its tokens: 401 auth.invalid, and its assertions → jwt_bearer_invalid_issuer', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const token = (await exchange(app, client.assertion())).json.access_token;
    expect((await call(app, 'GET', '/v2/entities', { token })).status).toBe(200);
    expect((await call(app, 'DELETE', `/oauth2/applications/${client.clientId}`, { token: ws.token })).status).toBe(204);
    expectError(await call(app, 'GET', '/v2/entities', { token }), 'auth.invalid', { detail: "The token's application has been deleted." });
    expectSpec(await exchange(app, client.assertion()), 'issuer');
  });

  it('deactivating the member ends its access tokens (401) and its assertions (jwt_bearer_invalid_user)', async () => {
    const ws = await newWorkspace();
    const maker = await ws.member();
    const client = await newClient(app, ws);
    const token = (await exchange(app, client.assertion({ sub: maker.member.email }))).json.access_token;
    const { setMemberActive } = await import('#lib/store/members.ts');
    await setMemberActive(ws.workspaceId, maker.member.email, false);
    expectError(await call(app, 'GET', '/v2/entities', { token }), 'auth.invalid');
    expectSpec(await exchange(app, client.assertion({ sub: maker.member.email })), 'user');
  });

  it('rotation as the spec: upload the new key; both verify while both are present; after removing the old one it fails', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const next = rsaKeyPair();
    const newKeyId = await addKey(app, ws, client.clientId, next.publicPem);
    const signedNew = () => signRaw({ alg: 'RS256' }, client.claims(), next.privateKey);
    expect((await exchange(app, client.assertion())).status).toBe(200);
    expect((await exchange(app, signedNew())).status).toBe(200);
    const removed = await call(app, 'DELETE', `/oauth2/applications/${client.clientId}/keys/${client.keyId}`, { token: ws.token });
    expect(removed.status, removed.text).toBe(204);
    expectSpec(await exchange(app, client.assertion()), 'signature');
    expect((await exchange(app, signedNew())).status).toBe(200);
    // A kid naming the removed key is no way back in.
    expectSpec(await exchange(app, client.assertion({}, { alg: 'RS256', kid: client.keyId })), 'signature');
    expect((await call(app, 'GET', `/oauth2/applications/${client.clientId}`, { token: ws.token })).json.keys.map((k: { id: string }) => k.id)).toEqual([
      newKeyId,
    ]);
  });

  it('an application without keys → jwt_bearer_invalid_signature', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    await call(app, 'DELETE', `/oauth2/applications/${client.clientId}/keys/${client.keyId}`, { token: ws.token });
    expectSpec(await exchange(app, client.assertion()), 'signature');
  });
});
