// The pure rules of the authorization code flow: PKCE, redirect URIs, the authorization request,
// what consent can grant.
import { describe, expect, it } from 'vitest';
import { checkAuthorizationRequest, consentScopes, requestedClientId, type AuthorizationClient } from '#lib/domain/authorization-request.ts';
import { isCodeVerifier, s256Challenge, verifierMatches } from '#lib/domain/pkce.ts';
import { isRegisteredRedirectUri, redirectOrigins, redirectUriProblem, redirectWith } from '#lib/domain/redirect-uris.ts';

describe('PKCE (RFC 7636)', () => {
  it("S256 of RFC 7636 Appendix B's verifier is its challenge", () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifierMatches('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
  });

  it('a different verifier, or the challenge itself sent as verifier (plain), does not match', () => {
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    expect(verifierMatches('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXl', challenge)).toBe(false);
    expect(verifierMatches(challenge, challenge)).toBe(false);
  });

  it('a verifier is 43 to 128 unreserved characters', () => {
    expect(isCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isCodeVerifier('a'.repeat(43))).toBe(true);
    expect(isCodeVerifier('a'.repeat(128))).toBe(true);
    expect(isCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isCodeVerifier('a'.repeat(42) + '+')).toBe(false);
    expect(isCodeVerifier('-._~' + 'Z9'.repeat(20))).toBe(true);
  });
});

describe('redirect URIs', () => {
  it.each([
    ['https://app.example.com/callback', undefined],
    ['https://app.example.com/cb?tenant=1', undefined],
    ['http://127.0.0.1:8765/callback', undefined],
    ['http://[::1]:8765/callback', undefined],
    ['http://localhost:3001/cb', undefined],
    ['http://app.example.com/callback', 'uses http on a host that is not a loopback address (127.0.0.1, [::1], localhost); use https'],
    ['http://127.0.0.1.example.com/cb', 'uses http on a host that is not a loopback address (127.0.0.1, [::1], localhost); use https'],
    ['http://LocalHost:80/cb', undefined],
    // Loopback once parsed, but matched as written: only its names are accepted.
    ['http://0x7f.1:8/cb', "writes its loopback host as '0x7f.1'; write it as 127.0.0.1, [::1] or localhost"],
    ['http://127.0.0.1.:8/cb', "writes its loopback host as '127.0.0.1.'; write it as 127.0.0.1, [::1] or localhost"],
    ['http://2130706433/cb', "writes its loopback host as '2130706433'; write it as 127.0.0.1, [::1] or localhost"],
    ['http://[0:0:0:0:0:0:0:1]:8/cb', "writes its loopback host as '[0:0:0:0:0:0:0:1]'; write it as 127.0.0.1, [::1] or localhost"],
    ['https://app.example.com/cb#frag', 'has a fragment (#), which RFC 6749 §3.1.2 forbids'],
    ['https://*.example.com/cb', 'has a wildcard (*); register every URI in full'],
    ['https://user:pw@app.example.com/cb', 'carries user credentials'],
    ['/callback', 'is not an absolute URL'],
    ['com.example.app:/oauth', 'uses the scheme com.example.app; only https (or http on a loopback address) is accepted'],
    ['javascript:alert(1)', 'uses the scheme javascript; only https (or http on a loopback address) is accepted'],
    ['', 'is empty'],
    // Characters no URI holds: a parser would percent-encode them, so the redirect would not be the URI registered.
    ['https://x.example/cb?a="><script>', 'contains "\\"", which no URI holds as written (RFC 3986 §2): percent-encode it'],
    ['https://x.example/cb?a=<b>', 'contains "<", which no URI holds as written (RFC 3986 §2): percent-encode it'],
    ['https://x.example/c\u00e9', 'contains "\u00e9", which no URI holds as written (RFC 3986 §2): percent-encode it'],
    ['https://x.example/cb?a=%zz', 'has a % that is not followed by two hexadecimal digits (RFC 3986 §2.1)'],
    ["https://x.example/cb?a=%22%3E&b=[1]!$'()+,;=~", undefined],
  ])('%s → %s', (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
  });

  it('a URI over 2000 characters is refused', () => {
    expect(redirectUriProblem('https://a.example/' + 'x'.repeat(2000))).toBe('is longer than 2000 characters');
  });

  it('matching is exact: no prefix, case, trailing-slash or query leniency', () => {
    const registered = ['https://app.example.com/callback'];
    expect(isRegisteredRedirectUri(registered, 'https://app.example.com/callback')).toBe(true);
    for (const other of [
      'https://app.example.com/callback/',
      'https://app.example.com/callback?x=1',
      'https://APP.example.com/callback',
      'https://app.example.com/callbackx',
      'https://app.example.com/Callback',
    ]) {
      expect(isRegisteredRedirectUri(registered, other)).toBe(false);
    }
  });

  it('origins are deduplicated; parameters are appended to a redirect URI that has a query of its own', () => {
    expect(redirectOrigins(['https://a.example/cb', 'https://a.example/other', 'http://127.0.0.1:9000/cb'])).toEqual([
      'https://a.example',
      'http://127.0.0.1:9000',
    ]);
    expect(redirectWith('https://a.example/cb?tenant=7', { code: 'c d', state: 's&t' })).toBe('https://a.example/cb?tenant=7&code=c+d&state=s%26t');
  });
});

describe('the authorization request', () => {
  const client: AuthorizationClient = {
    clientId: '11111111-1111-4111-8111-111111111111',
    type: 'authorizationCode',
    redirectUris: ['https://app.example.com/cb'],
    public: true,
    scopes: ['entities:read', 'notes:read', 'write:entities'],
    defaultScopes: ['entities:read'],
  };
  const challenge = s256Challenge('v'.repeat(50));
  const base = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: 'https://app.example.com/cb',
    state: 'xyz',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  const AUD = ['http://api.test/v2'] as const;
  /** `c` null: the client_id names no application. */
  const check = (params: Record<string, string | undefined>, c: AuthorizationClient | null = client, extra: Array<[string, string]> = []) =>
    checkAuthorizationRequest([...Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined), ...extra], c ?? undefined, AUD);

  it('a complete request is valid: scopes default to the application defaults, the audience to {base_url}', () => {
    expect(check(base)).toEqual({
      kind: 'valid',
      request: {
        clientId: client.clientId,
        redirectUri: 'https://app.example.com/cb',
        scopes: ['entities:read'],
        state: 'xyz',
        codeChallenge: challenge,
        audience: 'http://api.test/v2',
      },
    });
    expect(check({ ...base, scope: 'notes:read entities:write' })).toMatchObject({ kind: 'valid', request: { scopes: ['notes:read', 'write:entities'] } });
  });

  it('unknown client, missing or repeated client_id, unregistered redirect URI, a server-to-server client: an error page, never a redirect', () => {
    expect(check({ ...base, client_id: undefined })).toEqual({ kind: 'page', problem: 'The request names no application (client_id is missing).' });
    expect(check(base, null)).toEqual({ kind: 'page', problem: `No application is registered with the client_id "${client.clientId}".` });
    expect(check(base, client, [['client_id', client.clientId]])).toEqual({
      kind: 'page',
      problem: 'The request names the application (client_id) more than once.',
    });
    expect(check({ ...base, redirect_uri: 'https://evil.example/cb' })).toEqual({
      kind: 'page',
      problem: 'The redirect_uri "https://evil.example/cb" is not registered for this application; it must match a registered URI exactly.',
    });
    expect(check({ ...base, redirect_uri: undefined })).toMatchObject({ kind: 'page' });
    expect(check(base, client, [['redirect_uri', 'https://evil.example/cb']])).toMatchObject({ kind: 'page' });
    expect(check(base, { ...client, type: 'serverToServer' })).toMatchObject({ kind: 'page' });
    expect(
      requestedClientId([
        ['client_id', 'a'],
        ['client_id', 'b'],
      ]),
    ).toBeUndefined();
    expect(requestedClientId([['client_id', 'x'.repeat(101)]])).toBeUndefined();
    expect(requestedClientId([['client_id', client.clientId]])).toBe(client.clientId);
  });

  it.each([
    ['response_type missing', { response_type: undefined }, 'invalid_request', 'response_type is missing; it must be code.'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type', 'response_type "token" is not supported; it must be code.'],
    [
      'public client without PKCE',
      { code_challenge: undefined, code_challenge_method: undefined },
      'invalid_request',
      'This application is a public client: it must use PKCE (code_challenge with code_challenge_method=S256).',
    ],
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request', 'code_challenge_method "plain" is not accepted; use S256.'],
    [
      'method omitted (plain by default)',
      { code_challenge_method: undefined },
      'invalid_request',
      'code_challenge_method is missing; the plain method is not accepted, use S256.',
    ],
    ['method without challenge', { code_challenge: undefined }, 'invalid_request', 'code_challenge_method is given without a code_challenge.'],
    ['malformed challenge', { code_challenge: 'short' }, 'invalid_request', 'code_challenge is not an S256 challenge (43 base64url characters).'],
    ['unknown scope', { scope: 'entities:read admin:everything' }, 'invalid_scope', 'Unknown scope "admin:everything".'],
    ['scope beyond the application', { scope: 'entities:read notes:delete' }, 'invalid_scope', 'The application may not ask for notes:delete.'],
    ['empty scope', { scope: '' }, 'invalid_scope', 'scope names no scope.'],
    [
      'foreign resource',
      { resource: 'https://elsewhere.example/api' },
      'invalid_target',
      'resource "https://elsewhere.example/api" is not a resource this service issues tokens for.',
    ],
    ['request object', { request: 'eyJ...' }, 'invalid_request', 'Request objects (the request parameter) are not supported.'],
  ])('%s → redirect with %s', (_name, change, error, description) => {
    expect(check({ ...base, ...change })).toEqual({ kind: 'redirect', redirectUri: 'https://app.example.com/cb', error, description, state: 'xyz' });
  });

  it('a repeated parameter → invalid_request; an over-long state is refused and not echoed; unknown parameters are ignored (RFC 6749 §3.1)', () => {
    expect(check({ ...base, scope: 'notes:read' }, client, [['scope', 'entities:read']])).toEqual({
      kind: 'redirect',
      redirectUri: 'https://app.example.com/cb',
      error: 'invalid_request',
      description: 'The parameter scope appears more than once.',
      state: 'xyz',
    });
    expect(check({ ...base, state: 's'.repeat(1025) })).toEqual({
      kind: 'redirect',
      redirectUri: 'https://app.example.com/cb',
      error: 'invalid_request',
      description: 'state is longer than 1024 characters.',
    });
    expect(
      check(base, client, [
        ['prompt', 'login'],
        ['nonce', 'n'],
      ]),
    ).toMatchObject({ kind: 'valid' });
  });

  it('a confidential client may omit PKCE; if it sends a challenge, the challenge binds the code', () => {
    const confidential = { ...client, public: false };
    expect(check({ ...base, code_challenge: undefined, code_challenge_method: undefined }, confidential)).toMatchObject({
      kind: 'valid',
      request: { clientId: client.clientId },
    });
    expect(check(base, confidential)).toMatchObject({ kind: 'valid', request: { codeChallenge: challenge } });
  });

  it("consent grants the requested scopes the member's role permits and names the rest", () => {
    expect(consentScopes(['entities:read', 'write:entities', 'notes:read'], 'viewer')).toEqual({
      granted: ['entities:read', 'notes:read'],
      withheld: ['write:entities'],
    });
    expect(consentScopes(['entities:read', 'write:entities'], 'maker')).toEqual({ granted: ['entities:read', 'write:entities'], withheld: [] });
  });
});
