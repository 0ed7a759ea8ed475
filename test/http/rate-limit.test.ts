// The request budget through the real pipeline, handlers and DynamoDB Local: per credential owner
// (a member's API tokens share one, an application's access tokens share one), a token bucket that
// a burst across a second boundary cannot double, the X-RateLimit-* headers, and the three token
// endpoints (/oauth2/token, /oauth/token, /oauth/revoke) limited per client and, for refusals, per
// source address (each test that needs one sends from a loopback address of its own). Each test
// sets its own limit. The tests of the owners' budgets stop the clock (Date) the bucket is counted
// by, so what a burst is admitted is exact, whatever its requests take.
import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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
const get = (token: string) => call(app, 'GET', '/v2/notes', { token });
/** What the bucket can have admitted in `ms`: full at the start, refilled at LIMIT per second, plus one lease in flight. */
const bound = (ms: number) => LIMIT + Math.ceil((LIMIT * ms) / 1000) + 1;

/**
 * Stops the clock the budget is counted by (Date) at `at`: the bucket refills only when the test
 * moves the clock, so what a burst is admitted does not depend on how long its requests take.
 */
function stopClock(at = Date.now()): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
}
afterEach(() => {
  vi.useRealTimers();
});

/** Sends requests one at a time until the first refusal (at most 2 × LIMIT); their answers. */
async function untilRefused(send: () => Promise<CallResult>): Promise<CallResult[]> {
  const answers: CallResult[] = [];
  do answers.push(await send());
  while (answers.at(-1)!.status !== 429 && answers.length < 2 * LIMIT);
  return answers;
}

/** Answers `status` `admitted` times, each with what is left of the budget after it, then a 429 with nothing left. */
function expectAdmittedThenRefused(answers: CallResult[], admitted: number, status: number, leftBefore = LIMIT): void {
  expect(answers.map((r) => r.status)).toEqual([...Array<number>(admitted).fill(status), 429]);
  expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual([...Array.from({ length: admitted }, (_, i) => String(leftBefore - 1 - i)), '0']);
  for (const r of answers) expect(r.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
}

/** The refusal of a budget just spent, the clock stopped: the next request passes in one interval (1/LIMIT s), so Retry-After 1. */
function expectSpent(res: CallResult, who: string) {
  expectError(res, 'rate.limitExceeded', { detail: `More than ${LIMIT} requests per second for ${who}; retry after 1 second.` });
  expect(res.headers.get('retry-after')).toBe('1');
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(res.headers.get('x-ratelimit-reset')).toBe('1');
}

describe('rate limit per credential owner', () => {
  it("a member's two API tokens share one budget: once one token has spent it (10 answered, then 429), the other's next request is refused too; another member is unaffected", async () => {
    const ws = await newWorkspace();
    const m = await ws.member({ role: 'maker' });
    const m2 = await issueApiToken(m.member);
    const second = await ws.member({ role: 'maker' });
    stopClock();
    const spent = await untilRefused(() => get(m.token));
    expectAdmittedThenRefused(spent, LIMIT, 200);
    expectSpent(spent.at(-1)!, "this member's API tokens");
    expectSpent(await get(m2.token), "this member's API tokens");
    const other = await get(second.token);
    expect(other.status, other.text).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
  });

  it('a caller refused for its scopes spends its budget too: each 403 carries the counters, and past the budget the answer is 429', async () => {
    const ws = await newWorkspace();
    const viewer = await ws.member({ role: 'viewer' });
    const create = () => call(app, 'POST', '/v2/entities', { token: viewer.token, body: { data: { type: 'product', fields: { name: 'Not allowed' } } } });
    stopClock();
    const answers = await untilRefused(create);
    expectAdmittedThenRefused(answers, LIMIT, 403);
    for (const r of answers.slice(0, LIMIT))
      expectError(r, 'auth.accessDenied', { detail: "This operation needs the scope 'write:entities', which the token does not carry." });
    expectSpent(answers.at(-1)!, "this member's API tokens");
  });

  it('a token bucket, not a one-second window: 10 spent 150 ms before a second boundary leave 2 for 100 ms after it (what refilled in 250 ms), not 10; the half request left over counts 100 ms later', async () => {
    const ws = await newWorkspace();
    const m = await ws.member({ role: 'maker' });
    const boundary = (Math.floor(Date.now() / 1000) + 2) * 1000;
    stopClock(boundary - 150);
    expectAdmittedThenRefused(await untilRefused(() => get(m.token)), LIMIT, 200);
    // A fixed one-second window would admit all 10 again; the bucket refilled 2.5 requests.
    vi.setSystemTime(boundary + 100);
    const after = await untilRefused(() => get(m.token));
    expectAdmittedThenRefused(after, 2, 200, 2);
    expectSpent(after.at(-1)!, "this member's API tokens");
    vi.setSystemTime(boundary + 200);
    const later = await untilRefused(() => get(m.token));
    expectAdmittedThenRefused(later, 1, 200, 1);
    expectSpent(later.at(-1)!, "this member's API tokens");
  });

  it("the access tokens one application minted share one budget, separate from the member's API tokens: once one has spent it, the others are refused", async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    process.env.RATE_LIMIT_PER_SECOND = '0';
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await exchange(app, client.assertion({ jti: `mint-${i}` }));
      expect(res.status, res.text).toBe(200);
      tokens.push(res.json.access_token);
    }
    expect(new Set(tokens).size).toBe(3);
    process.env.RATE_LIMIT_PER_SECOND = String(LIMIT);
    stopClock();
    const spent = await untilRefused(() => get(tokens[0]!));
    expectAdmittedThenRefused(spent, LIMIT, 200);
    expectSpent(spent.at(-1)!, "this application's access tokens");
    for (const t of tokens.slice(1)) expectSpent(await get(t), "this application's access tokens");
    // The member's own API token draws on another budget.
    const own = await get(ws.token);
    expect(own.status, own.text).toBe(200);
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
