// Faults DynamoDB Local never raises by itself (TransactionConflict, throttling) are answered by a
// proxy in front of it (test/support/fault-proxy.ts), where the deployed client meets them; races
// are injected there too (the proxy holds a transaction while another write lands). The backoff
// schedule is observed on the store's own client (a middleware that refuses every transaction) with
// vitest's fake clock. Everything else is the real emulator.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as createNote } from '#functions/notes/create.ts';
import { MAX_DEPTH } from '#lib/domain/hierarchy.ts';
import * as routes from '#lib/routes.ts';
import { db } from '#lib/store/client.ts';
import { setParent } from '#lib/store/entity-writes.ts';
import { Contention } from '#lib/store/errors.ts';
import { upsertLink } from '#lib/store/notes.ts';
import { RETRY, transact } from '#lib/store/tx.ts';
import { client } from './helpers.ts';
import { verifyScores } from '../../local/admin/score.ts';
import { buildEvent } from '../../local/gateway.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';
import { recordCommands } from '../support/commands.ts';
import { FAULTS, startFaultProxy, type FaultProxy, type ProxiedCall } from '../support/fault-proxy.ts';
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
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const isTransaction = (call: ProxiedCall) => call.operation === 'TransactWriteItems';
/** A TransactionConflict on the transaction's second item (its first when it has one), as DynamoDB answers it. */
const conflict = (call: ProxiedCall) => FAULTS.transactionConflict(call.input.TransactItems.length, Math.min(1, call.input.TransactItems.length - 1));

/** The next `failures` TransactWriteItems get `fault`; the proxy answers them, the table never sees them. */
function injectTransactFaults(failures: number, fault: (call: ProxiedCall) => ReturnType<typeof FAULTS.forward>) {
  const seen = { transactions: 0, failed: 0 };
  proxy.rule = (call) => {
    if (!isTransaction(call)) return FAULTS.forward();
    seen.transactions++;
    if (seen.failed >= failures) return FAULTS.forward();
    seen.failed++;
    return fault(call);
  };
  return seen;
}

describe('injected faults', () => {
  it('TransactionCanceled with TransactionConflict (answered by the proxy) on a link write: retried with backoff, lands once, score exact', async () => {
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
    proxy.rule = FAULTS.forward;
    expect([await c.score(f), await c.score(p)]).toEqual([3, 3]);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  });

  it('throttling (a ThrottlingException answered by the proxy) on a subtree move: retried by the SDK, the move lands whole', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p1 = await c.entity('product');
    const p2 = await c.entity('product');
    const comp = await c.entity('component', p1);
    const f = await c.entity('feature', comp);
    await c.note({ links: [[f], [comp]] });
    const seen = injectTransactFaults(2, FAULTS.throttling);
    const res = await c.req('PUT', `/entities/${comp}/relationships/parent`, { data: { target: { id: p2 } } });
    expect(res.status, res.text).toBe(200);
    expect(seen).toEqual({ transactions: 3, failed: 2 });
    proxy.rule = FAULTS.forward;
    expect([await c.score(p1), await c.score(p2), await c.score(comp)]).toEqual([0, 2, 2]);
  });

  it('TransactionConflict on every attempt (the proxy): retried until the request budget is nearly spent, then 429 rate.limitExceeded with Retry-After naming the contended entity, and nothing is written', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p1 = await c.entity('product');
    const p2 = await c.entity('product');
    const comp = await c.entity('component', p1);
    await c.note({ links: [[comp, 'critical']] });
    await withBudget(1500, async () => {
      const seen = injectTransactFaults(Infinity, conflict);
      const started = Date.now();
      const move = await c.req('PUT', `/entities/${comp}/relationships/parent`, { data: { target: { id: p2 } } });
      const took = Date.now() - started;
      // The conflict is on the transaction's second item: one of the entities the move touches.
      expectError(move, 'rate.limitExceeded', {
        detail: new RegExp(`^Too many concurrent changes to entity (${comp}|${p1}|${p2}); nothing was changed\\. Retry after 1 second\\.$`),
      });
      expect(move.headers.get('retry-after')).toBe('1');
      // Retried by time, not a fixed count (each attempt re-reads and goes over the wire), and answered before the 408 budget.
      expect(seen.transactions).toBeGreaterThan(2);
      expect(took).toBeLessThan(1500);
      const before = seen.transactions;
      const n = await c.req('POST', '/notes', { data: { type: 'textNote', fields: { name: 'x' }, relationships: [{ type: 'link', target: { id: p2 } }] } });
      expectError(n, 'rate.limitExceeded', {
        detail:
          /^Too many concurrent changes to (note [0-9a-f-]{36}|entity [0-9a-f-]{36}|the link from note [0-9a-f-]{36} to entity [0-9a-f-]{36}); nothing was changed\. Retry after 1 second\.$/,
      });
      expect(seen.transactions - before).toBeGreaterThan(2);
      proxy.rule = FAULTS.forward;
    });
    expect([await c.score(p1), await c.score(p2), await c.score(comp)]).toEqual([1, 0, 1]);
    expect((await c.ok('GET', `/entities/${comp}`)).json.data.relationships.data[0].target.id).toBe(p1);
    expect((await c.ok('GET', '/notes')).json.data).toHaveLength(1);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  });

  it("the store's retries spend what is left of the request's time, not a budget of their own: with 1 s left (Lambda's 1.5 s less the pipeline's 0.5 s margin) and every attempt conflicting (the proxy), a create-note retries, then answers 429 with Retry-After, not the 408 of the expired request, and writes nothing", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const seen = injectTransactFaults(Infinity, conflict);
    const body = { data: { type: 'textNote', fields: { name: 'x' }, relationships: [{ type: 'link', target: { id: p } }] } };
    const rawHeaders = ['Authorization', `Bearer ${ws.token}`, 'Content-Type', 'application/json'];
    const event = buildEvent(
      { method: 'POST', url: '/v2/notes', rawHeaders, body: Buffer.from(JSON.stringify(body)) },
      routes.createNote,
      {},
      'short-deadline',
    );
    const started = Date.now();
    const res = await createNote(event, { getRemainingTimeInMillis: () => 1500 - (Date.now() - started) } as Context);
    const took = Date.now() - started;
    proxy.rule = FAULTS.forward;
    expect(res.statusCode, res.body).toBe(429);
    expect(JSON.parse(res.body).errors[0].code).toBe('rate.limitExceeded');
    expect(res.headers?.['Retry-After'] ?? res.headers?.['retry-after']).toBe('1');
    expect(seen.transactions).toBeGreaterThan(1);
    // A fresh 10 s budget in the store would have retried until the request's 408 at 1 s.
    expect(took).toBeLessThan(1000);
    expect((await c.ok('GET', '/notes')).json.data).toHaveLength(0);
  });

  it('retry backoff (the random source drawn, the clock faked by vitest, every transaction refused on the store’s own client): the wait after attempt n is random × min(1000, 10 × 2^(n-1)) ms, full jitter, until the deadline leaves no room, then Contention', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const draws = [0.5, 0.999, 0, 0.25, 0.75, 0.1, 0.9];
    const attempts: number[] = [];
    vi.spyOn(Math, 'random').mockImplementation(() => draws[(attempts.length - 1) % draws.length]!);
    const REFUSE = 'refuseEveryTransaction';
    // Every transaction is cancelled before it leaves the client (the second item conflicting), at the moment it is sent.
    db().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
        attempts.push(Date.now());
        throw new TransactionCanceledException({
          message: 'Transaction cancelled [None, TransactionConflict]',
          $metadata: {},
          CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
        });
      },
      { step: 'initialize', name: REFUSE },
    );
    const start = Date.now();
    let builds = 0;
    let refusal: unknown;
    try {
      // A 3-second budget of the fake clock; the attempts themselves take no time on it.
      const probe = transact(
        'backoff probe',
        async () => {
          builds++;
          const items = ['ENT#e0', 'ENT#e1'].map((sk) => ({ Put: { TableName: 'never-written', Item: { pk: 'x', sk } } }));
          return { items, result: undefined };
        },
        start + 3000,
      ).then(
        () => undefined,
        (err: unknown) => (refusal = err),
      );
      while (refusal === undefined) await vi.advanceTimersToNextTimerAsync();
      await probe;
    } finally {
      db().middlewareStack.remove(REFUSE);
    }
    expect(RETRY).toEqual({ baseDelayMs: 10, maxDelayMs: 1000, reserveMs: 250 });
    const caps = [10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000, 1000];
    const waits = attempts.slice(1).map((at, i) => at - attempts[i]!);
    // The fake clock counts whole milliseconds: each wait is its draw × cap to the millisecond.
    expect(waits.map((w, i) => Math.abs(w - draws[i % draws.length]! * caps[i]!) <= 1)).toEqual(caps.map(() => true));
    // The 12th wait (0.5 × 1000) would leave less than the 250 ms reserve of the 3000: refused instead.
    expect(attempts.at(-1)! - start).toBe(waits.reduce((a, b) => a + b, 0));
    expect(3000 - (attempts.at(-1)! - start)).toBeLessThan(500 + RETRY.reserveMs);
    expect([builds, attempts.length]).toEqual([12, 12]);
    expect(refusal).toBeInstanceOf(Contention);
    expect(refusal).toMatchObject({ attempts: 12, resource: 'entity e1', retryAfterS: 1 });
  });

  it('write vs move (a real race on DynamoDB Local, the link held at the proxy while the move commits): a link write whose feature moves between its reads and its transaction fails its condition, re-reads, and adds to the new ancestors only', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p1 = await c.entity('product');
    const p2 = await c.entity('product');
    const comp = await c.entity('component', p1);
    const f = await c.entity('feature', comp);
    const n = await c.note();
    let raced = false;
    // The proxy holds the link's first transaction until the move has committed.
    proxy.rule = async (call) => {
      if (isTransaction(call) && !raced && JSON.stringify(call.input).includes('LINK#')) {
        raced = true;
        await setParent(ws.workspaceId, comp, { id: p2 }, ['data']);
      }
      return FAULTS.forward();
    };
    const rec = recordCommands('raceObserver');
    const res = await c.req('POST', `/notes/${n}/relationships`, { data: { type: 'link', target: { id: f }, importance: 'important' } });
    rec.stop();
    expect(res.status, res.text).toBe(201);
    expect(raced).toBe(true);
    // The link's first transaction was cancelled by the move that committed meanwhile; its rebuild committed.
    expect(rec.sent.filter((s) => s.failed).map((s) => [s.command, s.failed])).toEqual([['TransactWriteItems', 'TransactionCanceledException']]);
    expect([await c.score(p1), await c.score(p2), await c.score(comp), await c.score(f)]).toEqual([0, 1, 1, 1]);
  });

  it('a subfeature created between a move reading the subtree and committing (a real race, the move held at the proxy): the move retries, sees it and refuses the depth', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    let deepest = p;
    for (let depth = 2; depth < MAX_DEPTH - 1; depth++) deepest = await c.entity('component', deepest);
    const moved = await c.entity('component', p);
    const f = await c.entity('feature', moved);
    // Under `deepest` (depth MAX_DEPTH - 2), `moved` lands at MAX_DEPTH - 1 and `f` at MAX_DEPTH: allowed
    // until `f` has a child.
    let sub: string | undefined;
    proxy.rule = async (call) => {
      const setsParent = (call.input.TransactItems as Array<{ Update?: { ExpressionAttributeNames?: Record<string, string> } }> | undefined)?.some((i) =>
        Object.values(i.Update?.ExpressionAttributeNames ?? {}).includes('parentId'),
      );
      if (isTransaction(call) && setsParent && sub === undefined) sub = await c.entity('subfeature', f);
      return FAULTS.forward();
    };
    const res = await c.req('PUT', `/entities/${moved}/relationships/parent`, { data: { target: { id: deepest } } });
    expect(sub).toBeDefined();
    expectError(res, 'request.invalid', {
      source: { pointer: '/data/target/id' },
      detail: `The hierarchy would be ${MAX_DEPTH + 1} levels deep; the maximum is ${MAX_DEPTH}.`,
    });
    expect((await c.ok('GET', `/entities/${moved}`)).json.data.relationships.data[0].target.id).toBe(p);
    expect((await c.ok('GET', `/entities/${sub}`)).json.data.relationships.data[0].target.id).toBe(f);
  });

  it('a link added to a note between its delete reading the links and committing (a real race, the delete held at the proxy) is not orphaned: the delete retries and takes it too', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const f = await c.entity('feature', p);
    const acme = await c.entity('company');
    const n = await c.note({ customer: acme, links: [[p, 'critical']] });
    let raced = false;
    // The proxy holds the delete's transaction until a new link has committed.
    proxy.rule = async (call) => {
      if (
        isTransaction(call) &&
        !raced &&
        (call.input.TransactItems as Array<{ Delete?: { Key: { sk: { S: string } } } }>).some((i) => i.Delete?.Key.sk.S.startsWith('NOTE#'))
      ) {
        raced = true;
        await upsertLink(ws.workspaceId, n, f, 'important', { create: true, path: ['data'] });
      }
      return FAULTS.forward();
    };
    const rec = recordCommands('raceObserver');
    expect((await c.req('DELETE', `/notes/${n}`)).status).toBe(204);
    rec.stop();
    expect(raced).toBe(true);
    expect(rec.sent.filter((s) => s.failed).map((s) => [s.command, s.failed])).toEqual([['TransactWriteItems', 'TransactionCanceledException']]);
    expect([await c.score(p), await c.score(f)]).toEqual([0, 0]);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  });
});
