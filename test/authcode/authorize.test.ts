// GET {app_url}/oauth/authorize, POST /oauth/sign-in and POST /oauth/consent: the pages, their
// headers and cookies, the open-redirect rule, member sign-in with throttling, CSRF, sessions.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_EMAIL } from '#lib/domain/sign-in-throttle.ts';
import { setMemberActive } from '#lib/store/members.ts';
import {
  authorizeParams,
  authorizePath,
  decide,
  hidden,
  newCodeClient,
  PASSWORD,
  ScriptedBrowser,
  signInAndGetConsent,
  withPassword,
  type Reply,
} from './support.ts';
import { call, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());
afterEach(() => {
  vi.useRealTimers();
});

async function setUp(options: { role?: 'maker' | 'viewer'; public?: boolean } = {}) {
  const ws = await newWorkspace('Acme Product Team');
  const member = await withPassword((await ws.member({ role: options.role ?? 'maker' })).member);
  const client = await newCodeClient(app, ws, options.public ? { public: true } : {});
  return { ws, member, client, path: authorizePath(authorizeParams(client, { scope: 'entities:read write:entities' })) };
}

function expectPageHeaders(res: Reply, status: number): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['content-security-policy']).toMatch(
    /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'( [^;]+)?; frame-ancestors 'none'; base-uri 'none'$/,
  );
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  expect(res.text).not.toMatch(/<script/i);
}

const signInForm = (page: Reply, email: string, password = PASSWORD) => ({
  csrf_token: hidden(page.text, 'csrf_token'),
  request: hidden(page.text, 'request'),
  email,
  password,
});

describe('the authorization request', () => {
  it('no session → the sign-in page naming application and workspace, a __Host- pre-session cookie, the page headers', async () => {
    const { client, path } = await setUp();
    const browser = new ScriptedBrowser(app);
    const res = await browser.send('GET', path);
    expectPageHeaders(res, 200);
    expect(res.text).toContain('<h1>Sign in to Acme Product Team</h1>');
    expect(res.text).toContain('<span class="app">Roadmap Sync</span> is asking for access');
    expect(res.text).toContain('<label for="email">E-mail address</label>');
    expect(res.headers['set-cookie']).toEqual([
      expect.stringMatching(/^__Host-pm_presession=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=3600; HttpOnly; Secure; SameSite=Lax$/),
    ]);
    expect(new URLSearchParams(hidden(res.text, 'request')).get('client_id')).toBe(client.clientId);
  });

  it.each([
    [
      'an unknown client_id',
      () => ({ client_id: '00000000-0000-4000-8000-000000000000' }),
      'No application is registered with the client_id "00000000-0000-4000-8000-000000000000".',
    ],
    ['no client_id', () => ({ client_id: undefined }), 'The request names no application (client_id is missing).'],
    [
      'an unregistered redirect_uri',
      () => ({ redirect_uri: 'https://attacker.example/callback' }),
      'The redirect_uri "https://attacker.example/callback" is not registered for this application; it must match a registered URI exactly.',
    ],
    ['a registered URI with a trailing slash', () => ({ redirect_uri: 'https://client.example.com/callback/' }), /is not registered for this application/],
    [
      'a registered URI plus a query',
      () => ({ redirect_uri: 'https://client.example.com/callback?next=https://attacker.example' }),
      /is not registered for this application/,
    ],
    ['a javascript: URI', () => ({ redirect_uri: 'javascript:alert(document.cookie)' }), /is not registered for this application/],
    ['no redirect_uri', () => ({ redirect_uri: undefined }), 'The request has no redirect_uri; the application must name one of its registered redirect URIs.'],
  ])('open-redirect attempt, %s → 400 error page, never a redirect', async (_name, change, problem) => {
    const { client } = await setUp();
    const browser = new ScriptedBrowser(app);
    const res = await browser.send('GET', authorizePath(authorizeParams(client, change())));
    expectPageHeaders(res, 400);
    expect(res.location).toBeUndefined();
    expect(res.text).toContain('<h1>This application cannot be authorized</h1>');
    const shown = /<p class="alert" role="alert">([^<]*)<\/p>/.exec(res.text)![1]!.replace(/&quot;/g, '"');
    expect(shown).toMatch(problem);
    expect(res.text).toMatch(/<p class="code">[0-9a-f-]{36}<\/p>/);
  });

  it('a server-to-server client_id → error page', async () => {
    const ws = await newWorkspace();
    const s2s = await call(app, 'POST', '/oauth2/applications', { token: ws.token, body: { name: 'S2S', scopes: ['entities:read'] } });
    const res = await new ScriptedBrowser(app).send(
      'GET',
      authorizePath({ response_type: 'code', client_id: s2s.json.clientId, redirect_uri: 'https://x.example/cb' }),
    );
    expectPageHeaders(res, 400);
    expect(res.text).toContain('This application is a server-to-server integration');
  });

  it.each([
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a scope the application may not hold', { scope: 'entities:read notes:delete' }, 'invalid_scope'],
    ['an unknown scope', { scope: 'everything' }, 'invalid_scope'],
  ])('%s → 303 to the registered URI with error, error_description, state and iss (no-store, no-referrer)', async (_name, change, error) => {
    const { client } = await setUp();
    const res = await new ScriptedBrowser(app).send('GET', authorizePath(authorizeParams(client, change)));
    expect(res.status).toBe(303);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const url = new URL(res.location!);
    expect(`${url.origin}${url.pathname}`).toBe(client.redirectUri);
    expect(Object.fromEntries(url.searchParams)).toEqual({ error, error_description: expect.any(String), state: 'state-123', iss: app.url });
  });

  it('a public client without PKCE → invalid_request at the redirect URI', async () => {
    const { client } = await setUp({ public: true });
    const res = await new ScriptedBrowser(app).send(
      'GET',
      authorizePath(authorizeParams(client, { code_challenge: undefined, code_challenge_method: undefined })),
    );
    expect(Object.fromEntries(new URL(res.location!).searchParams)).toEqual({
      error: 'invalid_request',
      error_description: 'This application is a public client: it must use PKCE (code_challenge with code_challenge_method=S256).',
      state: 'state-123',
      iss: app.url,
    });
  });
});

describe('member sign-in', () => {
  it('the right password → 303 back to the authorization request with a __Host- session cookie (HttpOnly, Secure, SameSite=Lax, 15 min); then the consent page', async () => {
    const { member, path } = await setUp();
    const browser = new ScriptedBrowser(app);
    const page = await browser.send('GET', path);
    const res = await browser.send('POST', 'sign-in', signInForm(page, member.email.toUpperCase()));
    expect(res.status, res.text).toBe(303);
    expect(res.location).toBe(`authorize?${hidden(page.text, 'request')}`);
    expect(res.headers['set-cookie']).toEqual([
      expect.stringMatching(/^__Host-pm_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=900; HttpOnly; Secure; SameSite=Lax$/),
      '__Host-pm_presession=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax',
    ]);
    const consent = await browser.send('GET', res.location!);
    expectPageHeaders(consent, 200);
    expect(consent.text).toContain(`Signed in as <strong>${member.email}</strong>`);
  });

  it('a wrong password, an unknown e-mail, a deactivated member and a member without a password get the same answer, and no session', async () => {
    const { ws, member, path } = await setUp();
    const inactive = await withPassword((await ws.member()).member);
    await setMemberActive(ws.workspaceId, inactive.email, false);
    const noPassword = (await ws.member()).member;
    const answers: string[] = [];
    for (const [email, password] of [
      [member.email, 'wrong password!!'],
      ['nobody@example.com', PASSWORD],
      [inactive.email, PASSWORD],
      [noPassword.email, PASSWORD],
    ] as const) {
      const browser = new ScriptedBrowser(app);
      const page = await browser.send('GET', path);
      const res = await browser.send('POST', 'sign-in', signInForm(page, email, password));
      expectPageHeaders(res, 401);
      expect(browser.cookies.has('__Host-pm_session')).toBe(false);
      answers.push(/<p class="alert" role="alert" id="sign-in-problem">([^<]*)<\/p>/.exec(res.text)![1]!);
      expect(res.text).toContain(`value="${email}"`);
    }
    expect(new Set(answers)).toEqual(new Set(['The e-mail address or the password is not right, or this account cannot sign in here.']));
  });

  it(`more than ${MAX_FAILURES_PER_EMAIL} failures for one e-mail → 429 with Retry-After, even with the right password; other members still sign in`, async () => {
    const { ws, member, path } = await setUp();
    const other = await withPassword((await ws.member()).member);
    const browser = new ScriptedBrowser(app);
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) {
      const page = await browser.send('GET', path);
      expect((await browser.send('POST', 'sign-in', signInForm(page, member.email, `wrong password ${i}`))).status).toBe(401);
    }
    const page = await browser.send('GET', path);
    const res = await browser.send('POST', 'sign-in', signInForm(page, member.email));
    expectPageHeaders(res, 429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // The rest of this window, then the share of the next after which the 5 count as 4 (lib/domain/sign-in-throttle.ts).
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(900 + 900 / MAX_FAILURES_PER_EMAIL);
    expect(res.text).toMatch(/Too many failed sign-in attempts\. Wait \d+ minutes? and try again\./);
    expect(browser.cookies.has('__Host-pm_session')).toBe(false);
    // An unknown e-mail is throttled the same way: the answer does not reveal membership.
    const stranger = new ScriptedBrowser(app);
    for (let i = 0; i <= MAX_FAILURES_PER_EMAIL; i++) {
      const p = await stranger.send('GET', path);
      const r = await stranger.send('POST', 'sign-in', signInForm(p, 'stranger@example.com', 'wrong password!!'));
      expect(r.status).toBe(i < MAX_FAILURES_PER_EMAIL ? 401 : 429);
    }
    const consent = await signInAndGetConsent(new ScriptedBrowser(app), path, other.email);
    expect(consent.text).toContain(other.email);
  });

  it(`more than ${MAX_FAILURES_PER_ADDRESS} failures from one address → 429 for every e-mail from there; another address still signs in`, async () => {
    const { member, path } = await setUp();
    const browser = new ScriptedBrowser(app);
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      const page = await browser.send('GET', path);
      expect((await browser.send('POST', 'sign-in', signInForm(page, `guess-${i}@example.com`, 'wrong password!!'))).status).toBe(401);
    }
    // The member's own e-mail has no failures, and the right password: refused all the same, for the address.
    const page = await browser.send('GET', path);
    const res = await browser.send('POST', 'sign-in', signInForm(page, member.email));
    expectPageHeaders(res, 429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    // The rest of this window, then the share of the next after which the 20 count as 19 (lib/domain/sign-in-throttle.ts).
    expect(retryAfter).toBeLessThanOrEqual(900 + 900 / MAX_FAILURES_PER_ADDRESS);
    const minutes = Math.ceil(retryAfter / 60);
    expect(/<p class="alert" role="alert" id="sign-in-problem">([^<]*)<\/p>/.exec(res.text)?.[1]).toBe(
      `Too many failed sign-in attempts. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
    );
    expect(browser.cookies.has('__Host-pm_session')).toBe(false);
    await signInAndGetConsent(new ScriptedBrowser(app), path, member.email);
  });

  it("a sign-in form without its CSRF token, or with another browser's, → 403 page and no session", async () => {
    const { member, path } = await setUp();
    const browser = new ScriptedBrowser(app);
    const page = await browser.send('GET', path);
    const { csrf_token: _dropped, ...withoutToken } = signInForm(page, member.email);
    const res = await browser.send('POST', 'sign-in', withoutToken);
    expectPageHeaders(res, 403);
    expect(res.text).toContain('<h1>This form has expired</h1>');
    expect(browser.cookies.has('__Host-pm_session')).toBe(false);
    const other = new ScriptedBrowser(app);
    await other.send('GET', path);
    expect((await other.send('POST', 'sign-in', signInForm(page, member.email))).status).toBe(403);
  });

  it('a session of another workspace does not count here: the sign-in page again', async () => {
    const first = await setUp();
    const second = await setUp();
    const browser = new ScriptedBrowser(app);
    await signInAndGetConsent(browser, first.path, first.member.email);
    const res = await browser.send('GET', second.path);
    expect(res.text).toContain('<h1>Sign in to Acme Product Team</h1>');
  });

  it('a session lasts 15 minutes', async () => {
    const { member, path } = await setUp();
    const browser = new ScriptedBrowser(app);
    await signInAndGetConsent(browser, path, member.email);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 14 * 60_000);
    expect((await browser.send('GET', path)).text).toContain('Signed in as');
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect((await browser.send('GET', path)).text).toContain('<h1>Sign in to');
  });
});

describe('consent', () => {
  it("names application, workspace, member and each scope in words; a viewer's withheld scope is named and not granted", async () => {
    const { member, path } = await setUp({ role: 'viewer' });
    const consent = await signInAndGetConsent(new ScriptedBrowser(app), path, member.email);
    expect(consent.text).toContain('<h1><span class="app">Roadmap Sync</span> wants to access Acme Product Team</h1>');
    expect(consent.text).toContain(`Signed in as <strong>${member.email}</strong>`);
    expect(consent.text).toContain(
      '<span class="scope-title">Read entities</span><span class="scope-detail">See products, components, features and customers, their fields and customer scores</span>',
    );
    expect(consent.text).not.toContain('<span class="scope-title">Create and modify entities</span>');
    expect(consent.text).toContain('It also asked to create and modify entities, which your role does not allow; it will not get that permission.');
    expect(consent.text).toContain('Access ends after 30 days, or sooner if it is revoked, and never exceeds what your role allows.');
    expect(consent.headers['content-security-policy']).toContain("form-action 'self' https://client.example.com;");
  });

  it('Deny → 303 with error=access_denied, state and iss', async () => {
    const { member, path, client } = await setUp();
    const browser = new ScriptedBrowser(app);
    const params = await decide(browser, await signInAndGetConsent(browser, path, member.email), 'deny');
    expect(Object.fromEntries(params)).toEqual({
      error: 'access_denied',
      error_description: 'The member denied the request.',
      state: 'state-123',
      iss: app.url,
    });
    expect(client.redirectUri).toBe('https://client.example.com/callback');
  });

  it('Allow → 303 with a code, state and iss', async () => {
    const { member, path } = await setUp();
    const browser = new ScriptedBrowser(app);
    const params = await decide(browser, await signInAndGetConsent(browser, path, member.email), 'allow');
    expect(Object.fromEntries(params)).toEqual({ code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), state: 'state-123', iss: app.url });
  });

  it('a consent form without its CSRF token → 403 page, no code', async () => {
    const { member, path } = await setUp();
    const browser = new ScriptedBrowser(app);
    const consent = await signInAndGetConsent(browser, path, member.email);
    const res = await browser.send('POST', 'consent', { request: hidden(consent.text, 'request'), decision: 'allow' });
    expectPageHeaders(res, 403);
    expect(res.location).toBeUndefined();
    // A token bound to another session does not do either.
    const other = new ScriptedBrowser(app);
    await signInAndGetConsent(other, path, member.email);
    expect(
      (await other.send('POST', 'consent', { csrf_token: hidden(consent.text, 'csrf_token'), request: hidden(consent.text, 'request'), decision: 'allow' }))
        .status,
    ).toBe(403);
  });

  it('a member deactivated while the consent page is open is sent back to sign in; no code', async () => {
    const { ws, member, path } = await setUp();
    const browser = new ScriptedBrowser(app);
    const consent = await signInAndGetConsent(browser, path, member.email);
    await setMemberActive(ws.workspaceId, member.email, false);
    const res = await browser.send('POST', 'consent', {
      csrf_token: hidden(consent.text, 'csrf_token'),
      request: hidden(consent.text, 'request'),
      decision: 'allow',
    });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^authorize\?/);
    expect((await browser.send('GET', res.location!)).text).toContain('<h1>Sign in to');
  });

  it('a tampered request in the consent form is judged again: an unregistered redirect URI → error page', async () => {
    const { member, path } = await setUp();
    const browser = new ScriptedBrowser(app);
    const consent = await signInAndGetConsent(browser, path, member.email);
    const tampered = new URLSearchParams(hidden(consent.text, 'request'));
    tampered.set('redirect_uri', 'https://attacker.example/cb');
    const res = await browser.send('POST', 'consent', { csrf_token: hidden(consent.text, 'csrf_token'), request: tampered.toString(), decision: 'allow' });
    expectPageHeaders(res, 400);
    expect(res.location).toBeUndefined();
  });
});
