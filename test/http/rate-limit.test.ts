// The request budget through the real pipeline, handlers and DynamoDB Local: per credential owner
// (a member's API tokens share one, an application's access tokens share one), a token bucket that
// a burst across a second boundary cannot double, the X-RateLimit-* headers, and the three token
// endpoints (/oauth2/token, /oauth/token, /oauth/revoke) limited per client and, for refusals, per
// source address (each test of those endpoints sends from loopback addresses of its own). Each test
// sets its own limit and stops the clock (Date) the buckets are counted by, so what is admitted
// before the first 429 is exact, whatever its requests take.
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
import { exchange, GRANT, newClient } from '../oauth/support.ts';
import { call, challengeOf, expectError, newWorkspace, rateLimitEachTest, startApp, type CallResult, type TestApp } from '../support/app.ts';
import { checkResponse } from '../support/contract.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const LIMIT = 10;
rateLimitEachTest(LIMIT);

const get = (token: string) => call(app, 'GET', '/v2/notes', { token });

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

/** POSTs a JWT bearer assertion to /oauth2/token from the loopback address `from`. */
const postAssertion = (assertion: string, from: string) => postForm('/oauth2/token', { grant_type: GRANT, assertion }, from);

/** One more answer with the budget it spent full before it (LIMIT - 1 left). */
function expectFirstOfBudget(res: CallResult, status: number): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
  expect(res.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
}

const INVALID_JWT = { error: 'jwt_bearer_invalid', error_description: 'JWT Bearer token is invalid.' };

describe('the token endpoint', () => {
  it("is limited per client: one assertion at a time, 10 are answered 200, the 11th 429 rate.limitExceeded naming the client with Retry-After 1, and so is the next from another address; another client from the same address is answered, and that address paid for none of the client's requests", async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const other = await newClient(app, ws);
    const from = freshAddress();
    stopClock();
    let n = 0;
    const spent = await untilRefused(() => postAssertion(client.assertion({ jti: `burst-${n++}` }), from));
    expectAdmittedThenRefused(spent, LIMIT, 200);
    for (const r of spent.slice(0, LIMIT)) expect(r.json.token_type).toBe('Bearer');
    expectSpent(spent.at(-1)!, 'this client');
    // The budget is the client's wherever it sends from.
    expectSpent(await postAssertion(client.assertion({ jti: 'elsewhere' }), freshAddress()), 'this client');
    // Another client keeps its own budget, from the same address.
    const second = await postAssertion(other.assertion({ jti: 'other' }), from);
    expectFirstOfBudget(second, 200);
    // Neither the client's answers nor its 429s were charged to the address: its first refusal finds it full.
    const refused = await postAssertion('not-a-jwt', from);
    expectFirstOfBudget(refused, 400);
    expect(refused.json).toEqual(INVALID_JWT);
  });

  it("refused assertions spend the budget of their source address: one at a time, 10 are answered 400 jwt_bearer_invalid, the 11th 429 rate.limitExceeded naming the address with Retry-After 1; another address is still answered 400, and a client's valid assertion from the spent address is answered on the client's budget", async () => {
    const ws = await newWorkspace();
    const client = await newClient(app, ws);
    const from = freshAddress();
    stopClock();
    const spent = await untilRefused(() => postAssertion('not-a-jwt', from));
    expectAdmittedThenRefused(spent, LIMIT, 400);
    for (const r of spent.slice(0, LIMIT)) expect(r.json).toEqual(INVALID_JWT);
    expectSpent(spent.at(-1)!, 'this address');
    const elsewhere = await postAssertion('not-a-jwt', freshAddress());
    expectFirstOfBudget(elsewhere, 400);
    expect(elsewhere.json).toEqual(INVALID_JWT);
    const ok = await postAssertion(client.assertion({ jti: 'from-spent-address' }), from);
    expectFirstOfBudget(ok, 200);
    expect(ok.json.token_type).toBe('Bearer');
  });
});

/** A confidential authorization-code client; its secret, wrong. */
const WRONG_SECRET = 'not-the-secret-' + 'x'.repeat(28);
const forms: Record<string, Record<string, string>> = {
  '/oauth/token': { grant_type: 'refresh_token', refresh_token: 'no-such-refresh-token' },
  '/oauth/revoke': { token: 'no-such-token' },
};

/** The refusal of a budget just spent, the clock stopped, as the OAuth endpoints render it: 429 slow_down, Retry-After 1. */
function expectSlowDown(res: CallResult, who: string) {
  expectOAuthError(res, 'slow_down', undefined, 429);
  expect(res.json).toEqual({ error: 'slow_down', error_description: `More than ${LIMIT} requests per second for ${who}; retry after 1 second.` });
  expect(res.headers.get('retry-after')).toBe('1');
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(res.headers.get('x-ratelimit-reset')).toBe('1');
}

function expectWrongSecret(res: CallResult) {
  expectOAuthError(res, 'invalid_client', undefined, 401);
  expect(res.json.error_description).toBe('Client authentication failed: wrong client secret.');
  expect(challengeOf(res)).toBe('Basic realm="oauth", charset="UTF-8"');
}

const NO_REFRESH_TOKEN = { error: 'invalid_grant', error_description: 'The refresh token is not valid.' };

describe("the authorization code flow's token and revocation endpoints", () => {
  it.each(Object.keys(forms))(
    '%s: wrong client secrets from one address, one at a time: 10 are answered 401 invalid_client, the 11th 429 slow_down naming the address with Retry-After 1; another address is still answered 401, and the client with its right secret from the spent address is answered on its own budget',
    async (path) => {
      const ws = await newWorkspace();
      const client = await newCodeClient(app, ws);
      const from = freshAddress();
      stopClock();
      const spent = await untilRefused(() => postForm(path, forms[path]!, from, [client.clientId, WRONG_SECRET]));
      expectAdmittedThenRefused(spent, LIMIT, 401);
      for (const r of spent.slice(0, LIMIT)) expectWrongSecret(r);
      expectSlowDown(spent.at(-1)!, 'this address');
      const elsewhere = await postForm(path, forms[path]!, freshAddress(), [client.clientId, WRONG_SECRET]);
      expectWrongSecret(elsewhere);
      expectFirstOfBudget(elsewhere, 401);
      // The right secret from the spent address is the client's own request, not the address's.
      const ok = await postForm('/oauth/revoke', forms['/oauth/revoke']!, from, [client.clientId, client.clientSecret!]);
      expectFirstOfBudget(ok, 200);
      expect(ok.text).toBe('');
    },
  );

  it('/oauth/revoke: a client that authenticates spends its own budget — one at a time, 10 are answered 200, the 11th 429 slow_down naming the client, and so is the next from another address; its source address stays unspent and another client from it is answered', async () => {
    const ws = await newWorkspace();
    const client = await newCodeClient(app, ws);
    const other = await newCodeClient(app, ws);
    const from = freshAddress();
    const revoke = (c: CodeClient, secret: string, at = from) => postForm('/oauth/revoke', forms['/oauth/revoke']!, at, [c.clientId, secret]);
    stopClock();
    const spent = await untilRefused(() => revoke(client, client.clientSecret!));
    expectAdmittedThenRefused(spent, LIMIT, 200);
    for (const r of spent.slice(0, LIMIT)) expect(r.text).toBe('');
    expectSlowDown(spent.at(-1)!, 'this client');
    expectSlowDown(await revoke(client, client.clientSecret!, freshAddress()), 'this client');
    // The address paid for none of those: its first refusal finds its budget full, and another client passes.
    const refused = await revoke(client, WRONG_SECRET);
    expectWrongSecret(refused);
    expectFirstOfBudget(refused, 401);
    expectFirstOfBudget(await revoke(other, other.clientSecret!), 200);
  });

  it("/oauth/token: a client's refused grants spend its budget and their address's alike: one at a time, 10 are answered 400 invalid_grant, the 11th 429 slow_down naming the client (checked first), and the address's next refusal 429 naming the address; a second later, a good refresh from an address whose refusals spent its budget is answered on the client's budget", async () => {
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
    stopClock(started);
    const spent = await untilRefused(() => postForm('/oauth/token', forms['/oauth/token']!, from, [client.clientId, client.clientSecret!]));
    expectAdmittedThenRefused(spent, LIMIT, 400);
    for (const r of spent.slice(0, LIMIT)) {
      expectOAuthError(r, 'invalid_grant');
      expect(r.json).toEqual(NO_REFRESH_TOKEN);
    }
    expectSlowDown(spent.at(-1)!, 'this client');
    // Each of the 10 was refused after the client paid for it, so the address paid too: its own next
    // refusal is a 429 naming it. Another address's refusal is answered.
    expectSlowDown(await postForm('/oauth/token', forms['/oauth/token']!, from, [client.clientId, WRONG_SECRET]), 'this address');
    const elsewhere = await postForm('/oauth/token', forms['/oauth/token']!, freshAddress(), [client.clientId, WRONG_SECRET]);
    expectWrongSecret(elsewhere);
    expectFirstOfBudget(elsewhere, 401);

    // A second later every budget is full again. Wrong secrets from another address spend that address's
    // budget alone; the client's good refresh from it is answered all the same (charged to the client only).
    vi.setSystemTime(started + 1000);
    const shared = freshAddress();
    const wrong = await untilRefused(() => postForm('/oauth/token', forms['/oauth/token']!, shared, [client.clientId, WRONG_SECRET]));
    expectAdmittedThenRefused(wrong, LIMIT, 401);
    expectSlowDown(wrong.at(-1)!, 'this address');
    const refreshed = await postForm('/oauth/token', { grant_type: 'refresh_token', refresh_token: issued.json.refresh_token }, shared, [
      client.clientId,
      client.clientSecret!,
    ]);
    expectFirstOfBudget(refreshed, 200);
    expect(refreshed.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.any(String),
      scope: issued.json.scope,
    });
  });

  /** What the public client's request with the endpoint's form is answered, its budget not spent. */
  const publicAnswer: Record<string, number> = { '/oauth/token': 400, '/oauth/revoke': 200 };

  it.each(Object.keys(forms))(
    "%s: a public client's id names it, but proves nothing: one at a time, 10 requests naming it from one address are answered, the 11th 429 slow_down naming the address, and the client's own users elsewhere are answered in full",
    async (path) => {
      const ws = await newWorkspace();
      const client = await newCodeClient(app, ws, { public: true });
      const member = await withPassword((await ws.member({ role: 'maker' })).member);
      process.env.RATE_LIMIT_PER_SECOND = '0';
      const code = await authorizationCode(app, client, member);
      process.env.RATE_LIMIT_PER_SECOND = String(LIMIT);
      const from = freshAddress();
      stopClock();
      const flood = await untilRefused(() => postForm(path, { ...forms[path]!, client_id: client.clientId }, from));
      expectAdmittedThenRefused(flood, LIMIT, publicAnswer[path]!);
      for (const r of flood.slice(0, LIMIT)) if (path === '/oauth/token') expect(r.json).toEqual(NO_REFRESH_TOKEN);
      expectSlowDown(flood.at(-1)!, 'this address');
      // Every request of the flood was the address's: none reached a budget of the client, so a
      // burst of the client's real users from other addresses is answered in full.
      const exchanged = await postForm(
        '/oauth/token',
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER, client_id: client.clientId },
        freshAddress(),
      );
      expectFirstOfBudget(exchanged, 200);
      for (let i = 0; i < LIMIT; i++)
        expectFirstOfBudget(await postForm('/oauth/revoke', { token: 'no-such-token', client_id: client.clientId }, freshAddress()), 200);
    },
  );
});
