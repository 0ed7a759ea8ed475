// Every outbound call of a request is bounded by the request (lib/deadline.ts, lib/aws-clients.ts):
// through the local gateway and the real handlers, with a proxy in front of DynamoDB Local that
// injects the faults (test/support/fault-proxy.ts) and counts every call that reaches the table.
// A call in flight at the deadline is cut off and the client gets its 408 in time; nothing more is
// sent for a request once it is answered; the SDK's retries and the store's own stop within the
// deadline, answering 429 while there is time; a write answered 408 may have landed, and a retry
// with its Idempotency-Key answers it once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CALL_BOUNDS } from '#lib/aws-clients.ts';
import { authorizeParams, authorizePath, hidden, newCodeClient, PASSWORD, ScriptedBrowser, withPassword } from '../authcode/support.ts';
import { client } from '../score/helpers.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';
import { FAULTS, startFaultProxy, type FaultProxy } from '../support/fault-proxy.ts';
import { withBudget } from '../support/faults.ts';

let app: TestApp;
let proxy: FaultProxy;
let restore: () => void;
beforeAll(async () => {
  app = await startApp();
  proxy = await startFaultProxy();
  restore = proxy.use();
});
afterAll(async () => {
  restore();
  await proxy.close();
  await app.close();
});
afterEach(() => {
  proxy.rule = FAULTS.forward;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BUDGET_MS = 2000;

/** A new workspace's product, and the create of a note linking it under the Idempotency-Key `key`. */
async function keyedNote(key: string) {
  const ws = await newWorkspace();
  const c = client(app, ws.token);
  const p = await c.entity('product');
  const body = { data: { type: 'textNote', fields: { name: key }, relationships: [{ type: 'link', target: { id: p }, importance: 'critical' }] } };
  const post = () => call(app, 'POST', '/v2/notes', { token: ws.token, body, headers: { 'idempotency-key': key } });
  /** Once the faults stop: the outcome the client did not learn is one note, and a retry with the key answers it. */
  const landedOnce = async () => {
    proxy.rule = FAULTS.forward;
    const notes = (await c.ok('GET', '/notes')).json.data as Array<{ id: string }>;
    expect(notes).toHaveLength(1);
    const retry = await post();
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json.data.id).toBe(notes[0]!.id);
    // A note without a customer counts 1, once.
    expect(await c.score(p)).toBe(1);
  };
  return { post, landedOnce };
}

describe('a request’s calls end with it', () => {
  it('a note create whose TransactWriteItems reaches the table and whose answer is withheld: 408 at the deadline, no later call reaches the table, the write landed, and a retry with its Idempotency-Key answers it once', async () => {
    const { post, landedOnce } = await keyedNote('withheld');
    proxy.calls.length = 0;
    proxy.rule = (sent) => (sent.operation === 'TransactWriteItems' ? FAULTS.withhold() : FAULTS.forward());
    const started = performance.now();
    const res = await withBudget(BUDGET_MS, post);
    const took = performance.now() - started;
    expectError(res, 'request.timeout');
    expect(took).toBeLessThan(BUDGET_MS + 1000);
    const atAnswer = proxy.calls.length;
    // Time for anything the request left behind (its core, the SDK's retries) to try again.
    await sleep(3000);
    expect(proxy.calls.length, proxy.calls.map((x) => x.operation).join()).toBe(atAnswer);
    expect(proxy.calls.filter((x) => x.operation === 'TransactWriteItems').map((x) => x.fault)).toEqual(['withhold']);
    await landedOnce();
  });

  it(`a call that hangs (the bearer check's own read, before the handler runs) is cut off at the deadline: 408 in time, not after the client's ${CALL_BOUNDS.requestMs} ms timeout, and never retried`, async () => {
    const ws = await newWorkspace();
    proxy.calls.length = 0;
    proxy.rule = FAULTS.hang;
    const started = performance.now();
    const res = await withBudget(1000, () => call(app, 'GET', '/v2/entities/00000000-0000-4000-8000-000000000000/score', { token: ws.token }));
    const took = performance.now() - started;
    expectError(res, 'request.timeout');
    expect(took).toBeLessThan(1000 + 700);
    await sleep(CALL_BOUNDS.requestMs + 500);
    expect(proxy.calls.map((x) => x.fault)).toEqual(['hang']);
  }, 30_000);

  it(`a write whose every attempt outlasts the client's ${CALL_BOUNDS.requestMs} ms request timeout, well before the deadline: the SDK's attempts spent, 408 (outcome unknown), not 500; the write landed once, and a retry with its Idempotency-Key answers it`, async () => {
    const { post, landedOnce } = await keyedNote('slow-table');
    proxy.calls.length = 0;
    proxy.rule = (sent) => (sent.operation === 'TransactWriteItems' ? FAULTS.withhold(CALL_BOUNDS.requestMs + 1000) : FAULTS.forward());
    // Room for every attempt and the SDK's backoffs between them before the deadline.
    const budgetMs = CALL_BOUNDS.maxAttempts * CALL_BOUNDS.requestMs + 5_000;
    const started = performance.now();
    const res = await withBudget(budgetMs, post);
    const took = performance.now() - started;
    expectError(res, 'request.timeout', { detail: 'The request took too long and was terminated.' });
    expect(took).toBeLessThan(budgetMs - 1_000);
    expect(proxy.calls.filter((x) => x.operation === 'TransactWriteItems').map((x) => x.fault)).toEqual(Array(CALL_BOUNDS.maxAttempts).fill('withhold'));
    await landedOnce();
  }, 60_000);

  it('throttling that persists on a write: the SDK’s retries and the store’s stop before the deadline, 429 with Retry-After, nothing written, nothing sent after the answer', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    proxy.calls.length = 0;
    proxy.rule = (sent) => (sent.operation === 'TransactWriteItems' ? FAULTS.throttling() : FAULTS.forward());
    const started = performance.now();
    const res = await withBudget(BUDGET_MS, () =>
      c.req('POST', '/notes', { data: { type: 'textNote', fields: { name: 'Throttled' }, relationships: [{ type: 'link', target: { id: p } }] } }),
    );
    const took = performance.now() - started;
    expectError(res, 'rate.limitExceeded', { detail: /^Too many concurrent changes to .*; nothing was changed\. Retry after 1 second\.$/ });
    expect(res.headers.get('retry-after')).toBe('1');
    expect(took).toBeLessThan(BUDGET_MS);
    const atAnswer = proxy.calls.length;
    expect(proxy.calls.filter((x) => x.operation === 'TransactWriteItems').length).toBeGreaterThanOrEqual(2);
    await sleep(2500);
    expect(proxy.calls.length).toBe(atAnswer);
    proxy.rule = FAULTS.forward;
    expect((await c.ok('GET', '/notes')).json.data).toEqual([]);
    expect(await c.score(p)).toBe(0);
  });
});

describe('sign-in never answers 500 for throttling', () => {
  const counters = (input: Record<string, any>) => JSON.stringify(input).includes('SIGNINFAIL#');

  async function signInPage() {
    const ws = await newWorkspace();
    const member = await withPassword((await ws.member({ role: 'maker' })).member);
    const codeClient = await newCodeClient(app, ws);
    const browser = new ScriptedBrowser(app);
    const page = await browser.send('GET', authorizePath(authorizeParams(codeClient)));
    expect(page.status, page.text).toBe(200);
    const form = { csrf_token: hidden(page.text, 'csrf_token'), request: hidden(page.text, 'request'), email: member.email, password: PASSWORD };
    return { browser, form };
  }

  it('its failure counters left unprocessed once are read again, and the member signs in', async () => {
    const { browser, form } = await signInPage();
    let refused = 0;
    proxy.rule = (sent) =>
      sent.operation === 'BatchGetItem' && counters(sent.input) && refused++ === 0 ? FAULTS.unprocessedKeys(sent.input) : FAULTS.forward();
    const res = await browser.send('POST', 'sign-in', form);
    expect(res.status, res.text).toBe(303);
    expect(refused).toBe(2);
  });

  it('counters that stay unprocessed: 429 with Retry-After on the error page, no session', async () => {
    const { browser, form } = await signInPage();
    proxy.rule = (sent) => (sent.operation === 'BatchGetItem' && counters(sent.input) ? FAULTS.unprocessedKeys(sent.input) : FAULTS.forward());
    const res = await browser.send('POST', 'sign-in', form);
    expect(res.status, res.text).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('Too many concurrent changes to this workspace (the table is throttling requests)');
    expect(browser.cookies.has('__Host-pm_session')).toBe(false);
  });

  it('throttling on every call of it (ThrottlingException after the SDK’s retries): 429, not 500', async () => {
    const { browser, form } = await signInPage();
    proxy.rule = (sent) => (counters(sent.input) ? FAULTS.throttling() : FAULTS.forward());
    const res = await browser.send('POST', 'sign-in', form);
    expect(res.status, res.text).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
  });
});
