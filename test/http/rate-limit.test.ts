// The request budget through the real pipeline, handlers and DynamoDB Local: per credential owner
// (a member's API tokens share one, an application's access tokens share one), a token bucket that
// a burst across a second boundary cannot double, the X-RateLimit-* headers, and the three token
// endpoints (/oauth2/token, /oauth/token, /oauth/revoke) limited per client and, for refusals, per
// source address (each test that needs one sends from a loopback address of its own). Each test
// sets its own limit.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '#lib/auth/api-tokens.ts';
import {
  authorizationCode,
  clientAuth,
  expectOAuthError,
  freshAddress,
  newCodeClient,
  REDIRECT_URI,
  VERIFIER,
  withPassword,
  type CodeClient,
} from '../authcode/support.ts';
import { exchange, newClient } from '../oauth/support.ts';
import { call, challengeOf, expectError, newWorkspace, rateLimitEachTest, startApp, type CallResult, type TestApp } from '../support/app.ts';
import { checkResponse } from '../support/contract.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const LIMIT = 10;
rateLimitEachTest(LIMIT);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Sleeps until `ms` milliseconds past a whole second. */
const untilMsPastSecond = async (ms: number) => {
  while (Math.abs((Date.now() % 1000) - ms) > 15) await sleep(5);
};
const get = (token: string) => call(app, 'GET', '/v2/notes', { token });
/** What the bucket can have admitted in `ms`: full at the start, refilled at LIMIT per second, plus one lease in flight. */
const bound = (ms: number) => LIMIT + Math.ceil((LIMIT * ms) / 1000) + 1;

function expectRefusal(res: CallResult, who: string) {
  expectError(res, 'rate.limitExceeded', { detail: new RegExp(`^More than ${LIMIT} requests per second for ${who}; retry after [1-9]\\d* seconds?\\.$`) });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
}

function expectCounters(res: CallResult) {
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
  const remaining = Number(res.headers.get('x-ratelimit-remaining'));
  expect(remaining).toBeGreaterThanOrEqual(0);
  expect(remaining).toBeLessThanOrEqual(LIMIT);
  expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
}

describe('rate limit per credential owner', () => {
  it("a member's two API tokens share one budget: together they get at most one bucket's worth; every response carries the counters; another member is unaffected", async () => {
    const ws = await newWorkspace();
    const m = await ws.member({ role: 'maker' });
    const m2 = await issueApiToken(m.member);
    const second = await ws.member({ role: 'maker' });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => get(i % 2 ? m.token : m2.token)));
    const took = Date.now() - started;
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(LIMIT);
    expect(ok.length).toBeLessThanOrEqual(bound(took));
    for (const r of results) {
      expectCounters(r);
      if (r.status !== 200) expectRefusal(r, "this member's API tokens");
    }
    expect((await get(second.token)).status).toBe(200);
  });

  it('a caller refused for its scopes spends its budget too: each 403 carries the counters, and past the budget the answer is 429', async () => {
    const ws = await newWorkspace();
    const viewer = await ws.member({ role: 'viewer' });
    const create = () => call(app, 'POST', '/v2/entities', { token: viewer.token, body: { data: { type: 'product', fields: { name: 'Not allowed' } } } });
    const results = await Promise.all(Array.from({ length: 3 * LIMIT }, create));
    const denied = results.filter((r) => r.status === 403);
    expect(denied.length).toBeGreaterThanOrEqual(LIMIT);
    expect(results.length - denied.length).toBeGreaterThan(0);
    for (const r of results) {
      expectCounters(r);
      if (r.status === 403) expectError(r, 'auth.accessDenied', { detail: "This operation needs the scope 'write:entities', which the token does not carry." });
      else expectRefusal(r, "this member's API tokens");
    }
  });

  it('a burst across a second boundary is not doubled: 10 just before it and 10 just after admit one bucket and what refilled in between, not 20', async () => {
    const ws = await newWorkspace();
    const m = await ws.member({ role: 'maker' });
    await untilMsPastSecond(850);
    const started = Date.now();
    const first = await Promise.all(Array.from({ length: LIMIT }, () => get(m.token)));
    await untilMsPastSecond(100);
    const second = await Promise.all(Array.from({ length: LIMIT }, () => get(m.token)));
    const took = Date.now() - started;
    expect(first.map((r) => r.status)).toEqual(Array(LIMIT).fill(200));
    const admitted = second.filter((r) => r.status === 200).length;
    // A fixed one-second window would admit all 10 again; the bucket only what refilled since.
    expect(admitted).toBeLessThanOrEqual(bound(took) - LIMIT);
    if (took < 800) expect(admitted).toBeLessThan(LIMIT);
    for (const r of second.filter((x) => x.status !== 200)) expectRefusal(r, "this member's API tokens");
  });

  it("20 access tokens minted by one application share one budget, separate from the member's API tokens", async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    process.env.RATE_LIMIT_PER_SECOND = '0';
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await exchange(app, client.assertion({ jti: `mint-${i}` }));
      expect(res.status, res.text).toBe(200);
      tokens.push(res.json.access_token);
    }
    expect(new Set(tokens).size).toBe(20);
    process.env.RATE_LIMIT_PER_SECOND = String(LIMIT);
    const started = Date.now();
    const results = await Promise.all(tokens.flatMap((t) => [get(t), get(t)]));
    const took = Date.now() - started;
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(LIMIT);
    expect(ok).toBeLessThanOrEqual(bound(took));
    for (const r of results.filter((x) => x.status !== 200)) expectRefusal(r, "this application's access tokens");
    // The member's own API token draws on another budget.
    expect((await get(ws.token)).status).toBe(200);
  });
});

describe('the token endpoint', () => {
  it('is limited per client: past the budget → 429 rate.limitExceeded with Retry-After', async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    process.env.RATE_LIMIT_PER_SECOND = '3';
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => exchange(app, client.assertion({ jti: `burst-${i}` }))));
    const refused = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(3);
    expect(refused.length).toBeGreaterThan(0);
    expectError(refused[0]!, 'rate.limitExceeded', { detail: /^More than 3 requests per second for this client; retry after [1-9]\d* seconds?\.$/ });
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('refused assertions (an unknown client) spend the budget of their source address', async () => {
    process.env.RATE_LIMIT_PER_SECOND = '3';
    const results = await Promise.all(Array.from({ length: 8 }, () => exchange(app, 'not-a-jwt')));
    expect(results.filter((r) => r.status === 400).length).toBeGreaterThanOrEqual(3);
    const refused = results.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expectError(refused[0]!, 'rate.limitExceeded', { detail: /^More than 3 requests per second for this address; retry after/ });
  });
});

/** POSTs a form from the loopback address `from` (the request's source address); the answer must keep the document's contract. */
function postForm(path: string, form: Record<string, string>, from: string, basic?: [string, string]): Promise<CallResult> {
  const body = new URLSearchParams(form).toString();
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic[0])}:${encodeURIComponent(basic[1])}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, app.url), { method: 'POST', localAddress: from, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const received = new Headers();
        for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) received.append(name, v);
        checkResponse({ method: 'POST', target: path, status: res.statusCode!, headers: received, text });
        resolve({ status: res.statusCode!, headers: received, text, json: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A confidential authorization-code client; its secret, wrong. */
const WRONG_SECRET = 'not-the-secret-' + 'x'.repeat(28);
const forms: Record<string, Record<string, string>> = {
  '/oauth/token': { grant_type: 'refresh_token', refresh_token: 'no-such-refresh-token' },
  '/oauth/revoke': { token: 'no-such-token' },
};

function expectSlowDown(res: CallResult, who: string) {
  expectOAuthError(res, 'slow_down', new RegExp(`^More than ${LIMIT} requests per second for ${who}; retry after [1-9]\\d* seconds?\\.$`), 429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
}

describe("the authorization code flow's token and revocation endpoints", () => {
  it.each(Object.keys(forms))(
    '%s: 150 wrong client secrets in a burst from one address → 401 invalid_client until the address has spent its budget, then 429 slow_down with Retry-After; the client itself keeps its budget',
    async (path) => {
      const ws = await newWorkspace();
      const client = await newCodeClient(app, ws);
      const from = freshAddress();
      const started = Date.now();
      const results = await Promise.all(Array.from({ length: 150 }, () => postForm(path, forms[path]!, from, [client.clientId, WRONG_SECRET])));
      const took = Date.now() - started;
      const refused = results.filter((r) => r.status === 401);
      const limited = results.filter((r) => r.status === 429);
      // One bucket and what refilled during the burst, not 150; every other answer a 429.
      expect(refused.length).toBeGreaterThanOrEqual(LIMIT);
      expect(refused.length).toBeLessThanOrEqual(bound(took));
      expect(limited.length).toBe(150 - refused.length);
      for (const r of refused) {
        expectOAuthError(r, 'invalid_client', 'Client authentication failed: wrong client secret.', 401);
        expect(challengeOf(r)).toBe('Basic realm="oauth", charset="UTF-8"');
      }
      for (const r of limited) expectSlowDown(r, 'this address');
      // The right secret from another address is the client's own request, not the address's.
      const ok = await postForm('/oauth/revoke', forms['/oauth/revoke']!, freshAddress(), [client.clientId, client.clientSecret!]);
      expect(ok.status, ok.text).toBe(200);
    },
  );

  it('/oauth/revoke: a client that authenticates spends its own budget — 200 until it is spent, then 429 slow_down naming the client; its source address stays unspent and another client is unaffected', async () => {
    const ws = await newWorkspace();
    const client = await newCodeClient(app, ws);
    const other = await newCodeClient(app, ws);
    const from = freshAddress();
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 30 }, () => postForm('/oauth/revoke', forms['/oauth/revoke']!, from, [client.clientId, client.clientSecret!])),
    );
    const took = Date.now() - started;
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(LIMIT);
    expect(ok.length).toBeLessThanOrEqual(bound(took));
    for (const r of ok) expect(r.text).toBe('');
    for (const r of results.filter((x) => x.status !== 200)) expectSlowDown(r, 'this client');
    // The address paid for none of those: a refusal from it is still a 401, and another client passes.
    expectOAuthError(await postForm('/oauth/revoke', forms['/oauth/revoke']!, from, [client.clientId, WRONG_SECRET]), 'invalid_client', undefined, 401);
    expect((await postForm('/oauth/revoke', forms['/oauth/revoke']!, from, [other.clientId, other.clientSecret!])).status).toBe(200);
  });

  it("/oauth/token: a client's refused grants spend its budget first (429 naming the client), and a good refresh from an address whose refusals spent its budget is still answered", async () => {
    const ws = await newWorkspace();
    const client: CodeClient = await newCodeClient(app, ws);
    const member = await withPassword((await ws.member({ role: 'maker' })).member);
    // A real refresh token, through the front channel with the limit off.
    process.env.RATE_LIMIT_PER_SECOND = '0';
    const code = await authorizationCode(app, client, member);
    const issued = await postForm(
      '/oauth/token',
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER, ...clientAuth(client) },
      freshAddress(),
    );
    expect(issued.status, issued.text).toBe(200);
    process.env.RATE_LIMIT_PER_SECOND = String(LIMIT);

    const from = freshAddress();
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 30 }, () => postForm('/oauth/token', forms['/oauth/token']!, from, [client.clientId, client.clientSecret!])),
    );
    const took = Date.now() - started;
    const invalid = results.filter((r) => r.status === 400);
    expect(invalid.length).toBeGreaterThanOrEqual(LIMIT);
    expect(invalid.length).toBeLessThanOrEqual(bound(took));
    for (const r of invalid) expectOAuthError(r, 'invalid_grant');
    // Each admitted request is then refused and spends the address's budget as well, which the
    // client's bucket has already held to the same rate: the 429s name the client (the address at
    // most for a lease's worth at the end).
    const limited = results.filter((x) => x.status !== 400);
    for (const r of limited) expectSlowDown(r, r.json?.error_description?.includes('this address') ? 'this address' : 'this client');
    expect(limited.filter((r) => r.json.error_description.includes('this client')).length).toBeGreaterThan(0);

    // Another address, the client's budget refilled: a wrong-secret burst spends that address's budget,
    // and the client's good refresh from it is answered all the same (charged to the client only).
    await sleep(1000);
    const shared = freshAddress();
    const wrong = await Promise.all(
      Array.from({ length: 6 * LIMIT }, () => postForm('/oauth/token', forms['/oauth/token']!, shared, [client.clientId, WRONG_SECRET])),
    );
    expect(wrong.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    const refreshed = await postForm('/oauth/token', { grant_type: 'refresh_token', refresh_token: issued.json.refresh_token }, shared, [
      client.clientId,
      client.clientSecret!,
    ]);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.any(String),
      scope: issued.json.scope,
    });
  });

  it.each(Object.keys(forms))(
    "%s: a public client's id names it, but proves nothing: a flood naming it spends its source address's budget (429 naming the address), and the client's own users elsewhere are answered",
    async (path) => {
      const ws = await newWorkspace();
      const client = await newCodeClient(app, ws, { public: true });
      const member = await withPassword((await ws.member({ role: 'maker' })).member);
      process.env.RATE_LIMIT_PER_SECOND = '0';
      const code = await authorizationCode(app, client, member);
      process.env.RATE_LIMIT_PER_SECOND = String(LIMIT);
      const from = freshAddress();
      const flood = await Promise.all(Array.from({ length: 10 * LIMIT }, () => postForm(path, { ...forms[path]!, client_id: client.clientId }, from)));
      const limited = flood.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      for (const r of limited) expectSlowDown(r, 'this address');
      // Every request of the flood was the address's: none reached the client's budget, so a
      // burst of the client's real users from another address is answered in full.
      const user = freshAddress();
      const exchanged = await postForm(
        '/oauth/token',
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER, client_id: client.clientId },
        user,
      );
      expect(exchanged.status, exchanged.text).toBe(200);
      const others = await Promise.all(
        Array.from({ length: LIMIT }, () => postForm('/oauth/revoke', { token: 'no-such-token', client_id: client.clientId }, freshAddress())),
      );
      expect(others.map((r) => r.status)).toEqual(Array.from({ length: LIMIT }, () => 200));
    },
  );
});
