// Building blocks of the sign-in and token endpoints: scrypt passwords, cookies, CSRF tokens,
// forms, client authentication, the pages' markup and headers, the RFC 8414 document.
import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authorizationServerMetadata } from '#lib/auth/authorization-server-metadata.ts';
import { authenticateClient, presentedClient, type AuthenticatableClient } from '#lib/auth/client-authentication.ts';
import { OAuthError } from '#lib/auth/oauth-errors.ts';
import { hashPassword, PasswordRejected, verifyPassword } from '#lib/auth/passwords.ts';
import { serviceSecret } from '#lib/auth/service-secret.ts';
import { hostCookie, parseCookies } from '#lib/http/cookies.ts';
import { CSRF_KEY_INFO, csrfToken, csrfTokenMatches } from '#lib/http/csrf.ts';
import { parseForm } from '#lib/http/form.ts';
import { consentPage } from '#lib/http/pages/consent.ts';
import { errorPage } from '#lib/http/pages/error-page.ts';
import { pageCsp } from '#lib/http/pages/layout.ts';
import { signInPage } from '#lib/http/pages/sign-in.ts';

describe('passwords (scrypt)', () => {
  it('a hash names its parameters and a random salt; the right password verifies, a wrong one does not', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery staple', a)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('no stored hash (unknown member) → false, after the same work', async () => {
    expect(await verifyPassword('correct horse battery staple', undefined)).toBe(false);
  });

  it('hashes with other parameters still verify (they are read from the hash); a garbled hash is false', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const { scryptSync } = await import('node:crypto');
    const key = scryptSync('another long password', salt, 32, { N: 1024, r: 8, p: 1 });
    const stored = `scrypt$1024$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    expect(await verifyPassword('another long password', stored)).toBe(true);
    expect(await verifyPassword('another long password', stored.replace('$1024$', '$1000$'))).toBe(false);
    expect(await verifyPassword('another long password', 'plain:another long password')).toBe(false);
  });

  it.each([
    ['too short', 'elevenchars', 'A password needs at least 12 characters.'],
    ['too long', 'x'.repeat(1025), 'A password may have at most 1024 characters.'],
    ['padded with spaces', ' twelve chars ok ', 'A password may not begin or end with white space (it is easily lost when copied).'],
  ])('a new password %s is refused', async (_name, password, message) => {
    await expect(hashPassword(password)).rejects.toEqual(new PasswordRejected(message));
  });
});

describe('cookies', () => {
  it('__Host- cookies are HttpOnly, Secure, SameSite=Lax, Path=/ and have no Domain', () => {
    expect(hostCookie('__Host-pm_session', 'abc', 900)).toBe('__Host-pm_session=abc; Path=/; Max-Age=900; HttpOnly; Secure; SameSite=Lax');
    expect(hostCookie('__Host-pm_session', '', 0)).toBe('__Host-pm_session=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax');
    expect(() => hostCookie('pm_session', 'abc', 1)).toThrow();
    expect(() => hostCookie('__Host-pm_session', 'a;b', 1)).toThrow();
  });

  it('the Cookie header is read name by name; malformed pairs are skipped, the first of a repeated name wins', () => {
    const cookies = parseCookies('a=1; __Host-pm_session=xyz; junk; b="q"; a=2, c=3');
    expect([...cookies]).toEqual([
      ['a', '1'],
      ['__Host-pm_session', 'xyz'],
      ['c', '3'],
    ]);
    expect(parseCookies(undefined).size).toBe(0);
  });
});

describe('CSRF tokens', () => {
  it('a token verifies only with the cookie it is bound to', async () => {
    const token = await csrfToken({ session: 'session-1' });
    expect(await csrfTokenMatches({ session: 'session-1' }, token)).toBe(true);
    expect(await csrfTokenMatches({ session: 'session-2' }, token)).toBe(false);
    expect(await csrfTokenMatches({ preSession: 'session-1' }, token)).toBe(false);
    expect(await csrfTokenMatches({ session: 'session-1' }, undefined)).toBe(false);
    expect(await csrfTokenMatches({ session: 'session-1' }, token.slice(0, -1))).toBe(false);
  });

  it('its key is HKDF-SHA256(service secret, its own info): a token keyed by the secret itself is refused', async () => {
    const secret = await serviceSecret();
    const hmac = (key: Uint8Array) => createHmac('sha256', key).update('pm-csrf/session/session-1').digest('base64url');
    const derived = hkdfSync('sha256', secret, Buffer.alloc(0), CSRF_KEY_INFO, 32);
    expect(await csrfToken({ session: 'session-1' })).toBe(hmac(Buffer.from(derived)));
    expect(await csrfTokenMatches({ session: 'session-1' }, hmac(secret))).toBe(false);
  });
});

describe('forms', () => {
  it('parses a UTF-8 form; refuses another content type, another charset, a repeated parameter, an oversize body', () => {
    const ok = parseForm('application/x-www-form-urlencoded; charset=UTF-8', 'a=1&b=%C3%A9+x');
    expect(ok).toEqual({
      ok: true,
      form: new Map([
        ['a', '1'],
        ['b', 'é x'],
      ]),
    });
    expect(parseForm('application/json', '{}')).toMatchObject({ ok: false, problem: 'contentType' });
    expect(parseForm('application/x-www-form-urlencoded; charset=latin1', 'a=1')).toMatchObject({ ok: false, problem: 'contentType' });
    expect(parseForm('application/x-www-form-urlencoded', 'a=1&a=2')).toEqual({
      ok: false,
      problem: 'repeated',
      detail: "The parameter 'a' is repeated; each parameter may appear once.",
    });
    expect(parseForm('application/x-www-form-urlencoded', 'a=' + 'x'.repeat(64 * 1024))).toMatchObject({ ok: false, problem: 'tooLarge' });
  });
});

describe('client authentication (RFC 6749 §2.3)', () => {
  const hash = (s: string) => createHash('sha256').update(s).digest('base64url');
  const confidential: AuthenticatableClient = { clientId: 'c-1', type: 'authorizationCode', public: false, secretHash: hash('s3cret value') };
  const publicClient: AuthenticatableClient = { clientId: 'p-1', type: 'authorizationCode', public: true };
  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret).replace(/%20/g, '+')}`).toString('base64')}`;
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      if (err instanceof OAuthError) return { error: err.error, description: err.description, result: err.render() };
      throw err;
    }
    throw new Error('not refused');
  };

  it('basic (form-urlencoded inside base64), post and none are told apart', () => {
    expect(presentedClient(basic('c-1', 's3cret value'), new Map())).toEqual({ clientId: 'c-1', secret: 's3cret value', method: 'client_secret_basic' });
    expect(
      presentedClient(
        undefined,
        new Map([
          ['client_id', 'c-1'],
          ['client_secret', 'x'],
        ]),
      ),
    ).toEqual({ clientId: 'c-1', secret: 'x', method: 'client_secret_post' });
    expect(presentedClient(undefined, new Map([['client_id', 'p-1']]))).toEqual({ clientId: 'p-1', method: 'none' });
  });

  it('two methods at once → invalid_request; no client at all, or a non-Basic header → invalid_client (401, Basic challenge, no-store)', () => {
    expect(refusal(() => presentedClient(basic('c-1', 'x'), new Map([['client_secret', 'x']])))).toMatchObject({ error: 'invalid_request' });
    expect(refusal(() => presentedClient(basic('c-1', 'x'), new Map([['client_id', 'other']])))).toMatchObject({ error: 'invalid_request' });
    const none = refusal(() => presentedClient(undefined, new Map()));
    expect(none.error).toBe('invalid_client');
    expect(none.result).toEqual({
      statusCode: 401,
      body: { error: 'invalid_client', error_description: none.description },
      headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache', 'WWW-Authenticate': 'Basic realm="oauth", charset="UTF-8"' },
    });
    expect(refusal(() => presentedClient('Bearer abc', new Map()))).toMatchObject({ error: 'invalid_client' });
  });

  it('a confidential client needs its exact secret; a public client must not send one; a server-to-server client is unauthorized_client', () => {
    expect(authenticateClient(presentedClient(basic('c-1', 's3cret value'), new Map()), confidential, hash)).toBe(confidential);
    expect(refusal(() => authenticateClient({ clientId: 'c-1', secret: 's3cret valuE', method: 'client_secret_post' }, confidential, hash))).toEqual(
      expect.objectContaining({ error: 'invalid_client', description: 'Client authentication failed: wrong client secret.' }),
    );
    expect(refusal(() => authenticateClient({ clientId: 'c-1', method: 'none' }, confidential, hash))).toMatchObject({ error: 'invalid_client' });
    expect(authenticateClient({ clientId: 'p-1', method: 'none' }, publicClient, hash)).toBe(publicClient);
    expect(refusal(() => authenticateClient({ clientId: 'p-1', secret: 'x', method: 'client_secret_post' }, publicClient, hash))).toMatchObject({
      error: 'invalid_client',
    });
    expect(refusal(() => authenticateClient({ clientId: 'x', method: 'none' }, undefined, hash))).toMatchObject({ error: 'invalid_client' });
    expect(refusal(() => authenticateClient({ clientId: 's', method: 'none' }, { ...publicClient, type: 'serverToServer' }, hash))).toMatchObject({
      error: 'unauthorized_client',
    });
  });
});

describe('pages', () => {
  it('the sign-in page names application and workspace, labels its fields and escapes every value', () => {
    const page = signInPage({
      applicationName: 'Roadmap <Sync>',
      workspaceName: 'Acme & Co',
      request: 'client_id=1&state="x"',
      csrfToken: 'tok',
      problem: 'Wrong e-mail or password.',
    });
    expect(page).toContain('<h1>Sign in to Acme &amp; Co</h1>');
    expect(page).toContain('<span class="app">Roadmap &lt;Sync&gt;</span>');
    expect(page).toContain('<label for="email">E-mail address</label>');
    expect(page).toContain('<label for="password">Password</label>');
    expect(page).toContain('<input type="hidden" name="request" value="client_id=1&amp;state=&quot;x&quot;">');
    expect(page).toContain('<input type="hidden" name="csrf_token" value="tok">');
    expect(page).toContain('<p class="alert" role="alert" id="sign-in-problem">Wrong e-mail or password.</p>');
    expect(page).not.toMatch(/<script/i);
  });

  it('the consent page lists each granted scope in words and names what the role withholds', () => {
    const page = consentPage({
      applicationName: 'Roadmap Sync',
      workspaceName: 'Acme',
      memberEmail: 'ann@example.com',
      role: 'viewer',
      granted: ['entities:read'],
      withheld: ['write:entities'],
      redirectHost: 'app.example.com',
      request: 'r',
      csrfToken: 't',
    });
    expect(page).toContain('<h1><span class="app">Roadmap Sync</span> wants to access Acme</h1>');
    expect(page).toContain(
      '<span class="scope-title">Read entities</span><span class="scope-detail">See products, components, features and customers, their fields and customer scores</span>',
    );
    expect(page).not.toContain('<span class="scope-title">Create and modify entities</span>');
    expect(page).toContain('It also asked to create and modify entities, which your role does not allow');
    expect(page).toContain('<button type="submit" name="decision" value="allow" class="primary">Allow</button>');
    expect(page).toContain('<button type="submit" name="decision" value="deny" class="secondary">Deny</button>');
  });

  it("the error page says what went wrong and the request id; the CSP allows no script, only the page's own stylesheet", () => {
    const page = errorPage({ title: 'Unknown application', problem: 'No application <x>.', requestId: 'req-1' });
    expect(page).toContain('<p class="alert" role="alert">No application &lt;x&gt;.</p>');
    expect(page).toContain('<p class="code">req-1</p>');
    const csp = pageCsp(['https://app.example.com']);
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; form-action 'self' https:\/\/app\.example\.com; frame-ancestors 'none'; base-uri 'none'$/,
    );
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;
    expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  });
});

describe('authorization server metadata (RFC 8414)', () => {
  it('issuer {app_url}, the endpoints under it (registration too), code + S256 only, the three client authentication methods', () => {
    expect(authorizationServerMetadata('https://pm.example.com')).toEqual({
      issuer: 'https://pm.example.com',
      authorization_endpoint: 'https://pm.example.com/oauth/authorize',
      token_endpoint: 'https://pm.example.com/oauth/token',
      revocation_endpoint: 'https://pm.example.com/oauth/revoke',
      registration_endpoint: 'https://pm.example.com/oauth/register',
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      scopes_supported: [
        'entities:read',
        'write:entities',
        'entities:delete',
        'notes:read',
        'notes:write',
        'notes:delete',
        'webhooks:read',
        'webhooks:write',
        'webhooks:delete',
        'members:read',
        'members:pii:read',
        'users:pii:read',
        'teams:read',
        'teams:write',
        'teams:delete',
        'fields:write',
      ],
      authorization_response_iss_parameter_supported: true,
    });
  });
});
