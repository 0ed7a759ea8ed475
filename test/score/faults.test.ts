// Faults DynamoDB Local never raises by itself (TransactionConflict, throttling) are injected by
// wrapping the document client's send; everything else is the real emulator.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as createNote } from '#functions/notes/create.ts';
import * as routes from '#lib/routes.ts';
import { db } from '#lib/store/client.ts';
import { setParent } from '#lib/store/entity-writes.ts';
import { Contention } from '#lib/store/errors.ts';
import { upsertLink } from '#lib/store/notes.ts';
import { BACKOFF, RETRY, transact } from '#lib/store/tx.ts';
import { client } from './helpers.ts';
import { verifyScores } from '../../local/admin/score.ts';
import { buildEvent } from '../../local/gateway.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());
afterEach(() => vi.restoreAllMocks());

const conflict = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]',
    $metadata: {},
    CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }],
  });
const throttled = () => Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException', $metadata: {} });

/** Makes the next `failures` TransactWriteItems calls fail with `fault()` before they reach DynamoDB. */
function injectTransactFaults(failures: number, fault: () => Error) {
  const doc = db();
  const real = doc.send.bind(doc) as (c: unknown) => Promise<unknown>;
  const seen = { transactions: 0, failed: 0 };
  vi.spyOn(doc, 'send').mockImplementation((async (command: unknown) => {
    if (command instanceof TransactWriteCommand) {
      seen.transactions++;
      if (seen.failed < failures) {
        seen.failed++;
        throw fault();
      }
    }
    return real(command);
  }) as never);
  return seen;
}

describe('injected faults', () => {
  it('mocked TransactionCanceled with TransactionConflict on a link write: retried with backoff, lands once, score exact', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const f = await c.entity('feature', p);
    const acme = await c.entity('company');
    const n = await c.note({ customer: acme });
    const seen = injectTransactFaults(3, conflict);
    const res = await c.req('POST', `/notes/${n}/relationships`, { data: { type: 'link', target: { id: f }, importance: 'critical' } });
    expect(res.status, res.text).toBe(201);
    expect(seen).toEqual({ transactions: 4, failed: 3 });
    vi.restoreAllMocks();
    expect([await c.score(f), await c.score(p)]).toEqual([3, 3]);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  });

  it('mocked throttling (ThrottlingException) on a subtree move: retried, the move lands whole', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p1 = await c.entity('product');
    const p2 = await c.entity('product');
    const comp = await c.entity('component', p1);
    const f = await c.entity('feature', comp);
    await c.note({ links: [[f], [comp]] });
    const seen = injectTransactFaults(2, throttled);
    const res = await c.req('PUT', `/entities/${comp}/relationships/parent`, { data: { target: { id: p2 } } });
    expect(res.status, res.text).toBe(200);
    expect(seen.failed).toBe(2);
    vi.restoreAllMocks();
    expect([await c.score(p1), await c.score(p2), await c.score(comp)]).toEqual([0, 2, 2]);
  });

  it('mocked TransactionConflict on every attempt: retried until the request budget is nearly spent, then 429 rate.limitExceeded with Retry-After naming the contended entity, and nothing is written', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p1 = await c.entity('product');
    const p2 = await c.entity('product');
    const comp = await c.entity('component', p1);
    await c.note({ links: [[comp, 'critical']] });
    const budget = process.env.REQUEST_TIMEOUT_MS;
    process.env.REQUEST_TIMEOUT_MS = '1500';
    try {
      const seen = injectTransactFaults(Infinity, conflict);
      const started = Date.now();
      const move = await c.req('PUT', `/entities/${comp}/relationships/parent`, { data: { target: { id: p2 } } });
      const took = Date.now() - started;
      // The mocked conflict is on the transaction's second item: one of the entities the move touches.
      expectError(move, 'rate.limitExceeded', { detail: new RegExp(`^Too many concurrent changes to entity (${comp}|${p1}|${p2}); nothing was changed\\. Retry after 1 second\\.$`) });
      expect(move.headers.get('retry-after')).toBe('1');
      // Retried by time, not a fixed count, and answered before the 408 budget.
      expect(seen.transactions).toBeGreaterThan(3);
      expect(took).toBeLessThan(1500);
      const before = seen.transactions;
      const n = await c.req('POST', '/notes', { data: { type: 'textNote', fields: { name: 'x' }, relationships: [{ type: 'link', target: { id: p2 } }] } });
      expectError(n, 'rate.limitExceeded', { detail: /^Too many concurrent changes to (note [0-9a-f-]{36}|entity [0-9a-f-]{36}|the link from note [0-9a-f-]{36} to entity [0-9a-f-]{36}); nothing was changed\. Retry after 1 second\.$/ });
      expect(seen.transactions - before).toBeGreaterThan(3);
    } finally {
      if (budget === undefined) delete process.env.REQUEST_TIMEOUT_MS;
      else process.env.REQUEST_TIMEOUT_MS = budget;
      vi.restoreAllMocks();
    }
    expect([await c.score(p1), await c.score(p2), await c.score(comp)]).toEqual([1, 0, 1]);
    expect((await c.ok('GET', `/entities/${comp}`)).json.data.relationships.data[0].target.id).toBe(p1);
    expect((await c.ok('GET', '/notes')).json.data).toHaveLength(1);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  });

  it("the store's retries spend what is left of the request's time, not a budget of their own: with 1 s left (Lambda's 1.5 s less the pipeline's 0.5 s margin) and every attempt conflicting (mocked), a create-note retries, then answers 429 with Retry-After, not the 408 of the expired request, and writes nothing", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const seen = injectTransactFaults(Infinity, conflict);
    const body = { data: { type: 'textNote', fields: { name: 'x' }, relationships: [{ type: 'link', target: { id: p } }] } };
    const rawHeaders = ['Authorization', `Bearer ${ws.token}`, 'Content-Type', 'application/json'];
    const event = buildEvent({ method: 'POST', url: '/v2/notes', rawHeaders, body: Buffer.from(JSON.stringify(body)) }, routes.createNote, {}, 'short-deadline');
    const started = Date.now();
    const res = await createNote(event, { getRemainingTimeInMillis: () => 1500 - (Date.now() - started) } as Context);
    const took = Date.now() - started;
    vi.restoreAllMocks();
    expect(res.statusCode, res.body).toBe(429);
    expect(JSON.parse(res.body).errors[0].code).toBe('rate.limitExceeded');
    expect(res.headers?.['Retry-After'] ?? res.headers?.['retry-after']).toBe('1');
    expect(seen.transactions).toBeGreaterThan(1);
    // A fresh 10 s budget in the store would have retried until the request's 408 at 1 s.
    expect(took).toBeLessThan(1000);
    expect((await c.ok('GET', '/notes')).json.data).toHaveLength(0);
  });

  it('retry backoff (random source, sleep and clock injected): the wait after attempt n is random × min(1000, 10 × 2^(n-1)) ms, full jitter, until the deadline leaves no room, then Contention', async () => {
    const real = { ...BACKOFF };
    const draws = [0.5, 0.999, 0, 0.25, 0.75, 0.1, 0.9];
    const waits: number[] = [];
    let clock = 1_000_000;
    BACKOFF.random = () => draws[waits.length % draws.length]!;
    BACKOFF.now = () => clock;
    BACKOFF.sleep = async (ms) => {
      waits.push(ms);
      clock += ms;
    };
    const seen = injectTransactFaults(Infinity, conflict);
    let builds = 0;
    let refusal: unknown;
    try {
      // A 3-second budget of the fake clock; the attempts themselves take no time on it.
      await transact(
        'backoff probe',
        async () => {
          builds++;
          // The injected conflict names the second item.
          const items = ['ENT#e0', 'ENT#e1'].map((sk) => ({ Put: { TableName: 'never-written', Item: { pk: 'x', sk } } }));
          return { items, result: undefined };
        },
        clock + 3000,
      ).catch((err: unknown) => (refusal = err));
    } finally {
      Object.assign(BACKOFF, real);
    }
    expect(RETRY).toEqual({ baseDelayMs: 10, maxDelayMs: 1000, reserveMs: 250 });
    const caps = [10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000, 1000];
    expect(waits).toEqual(caps.map((cap, i) => draws[i % draws.length]! * cap));
    // The 12th wait (0.5 × 1000) would leave less than the 250 ms reserve of the 3000: refused instead.
    expect(clock - 1_000_000).toBeCloseTo(2521.98, 6);
    expect([builds, seen.transactions]).toEqual([12, 12]);
    expect(refusal).toBeInstanceOf(Contention);
    expect(refusal).toMatchObject({ attempts: 12, resource: 'entity e1', retryAfterS: 1 });
  });

  it('write vs move (a real race on DynamoDB Local): a link write whose feature moves between its reads and its transaction fails its condition, re-reads, and adds to the new ancestors only', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p1 = await c.entity('product');
    const p2 = await c.entity('product');
    const comp = await c.entity('component', p1);
    const f = await c.entity('feature', comp);
    const n = await c.note();
    const doc = db();
    const real = doc.send.bind(doc) as (command: unknown) => Promise<unknown>;
    let raced = false;
    const failures: string[] = [];
    vi.spyOn(doc, 'send').mockImplementation((async (command: unknown) => {
      if (command instanceof TransactWriteCommand && !raced && JSON.stringify(command.input).includes('LINK#')) {
        raced = true;
        await setParent(ws.workspaceId, comp, { id: p2 }, ['data']); // the move commits first
      }
      try {
        return await real(command);
      } catch (err) {
        failures.push((err as Error).name);
        throw err;
      }
    }) as never);
    const res = await c.req('POST', `/notes/${n}/relationships`, { data: { type: 'link', target: { id: f }, importance: 'important' } });
    vi.restoreAllMocks();
    expect(res.status, res.text).toBe(201);
    expect(failures).toEqual(['TransactionCanceledException']);
    expect([await c.score(p1), await c.score(p2), await c.score(comp), await c.score(f)]).toEqual([0, 1, 1, 1]);
  });

  it('a link added to a note between its delete reading the links and committing (a real race) is not orphaned: the delete retries and takes it too', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const f = await c.entity('feature', p);
    const acme = await c.entity('company');
    const n = await c.note({ customer: acme, links: [[p, 'critical']] });
    const doc = db();
    const real = doc.send.bind(doc) as (command: unknown) => Promise<unknown>;
    let raced = false;
    const failures: string[] = [];
    vi.spyOn(doc, 'send').mockImplementation((async (command: unknown) => {
      if (command instanceof TransactWriteCommand && !raced && command.input.TransactItems?.some((i) => i.Delete && String(i.Delete.Key?.sk).startsWith('NOTE#'))) {
        raced = true;
        await upsertLink(ws.workspaceId, n, f, 'important', { create: true, path: ['data'] });
      }
      try {
        return await real(command);
      } catch (err) {
        failures.push((err as Error).name);
        throw err;
      }
    }) as never);
    expect((await c.req('DELETE', `/notes/${n}`)).status).toBe(204);
    vi.restoreAllMocks();
    expect(failures).toEqual(['TransactionCanceledException']);
    expect([await c.score(p), await c.score(f)]).toEqual([0, 0]);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  });
});
