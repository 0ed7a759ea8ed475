// The request budget through the real pipeline, handlers and DynamoDB Local: per credential owner
// (a member's API tokens share one, an application's access tokens share one), a token bucket that
// a burst across a second boundary cannot double, the X-RateLimit-* headers, and the token endpoint
// limited per client and, for refusals, per source address. Each test sets its own limit.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueApiToken } from '#lib/auth/api-tokens.ts';
import { exchange, newClient } from '../oauth/support.ts';
import { call, expectError, newWorkspace, startApp, type CallResult, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const LIMIT = 10;
const saved = process.env.RATE_LIMIT_PER_SECOND;
beforeEach(() => {
  process.env.RATE_LIMIT_PER_SECOND = String(LIMIT);
});
afterEach(() => {
  process.env.RATE_LIMIT_PER_SECOND = saved;
});

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

  it('20 access tokens minted by one application share one budget, separate from the member\'s API tokens', async () => {
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
