// Concurrency: bursts of parallel link writes, re-rates, customer changes, deletions and subtree
// moves under the same products. Every burst is built so that its end state does not depend on the
// order the server applies it in (each entity moves at most once; all ratings one customer can have
// on one entity carry the same importance), so the final scores are exact and checked against the
// reference model, and `score verify` must find no drift.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#lib/store/client.ts';
import { ScoreApi, ScoreDriver, type Step } from './harness.ts';
import { IMPORTANCES, type Importance } from './model.ts';
import { MAX_DEPTH, verifyWorkspace } from './system.ts';
import { newWorkspace, startApp, type TestApp } from '../support/app.ts';

/**
 * Observes (does not alter) the transactions the in-process handlers send: how many DynamoDB
 * cancelled because a condition no longer held, i.e. how often writes really raced.
 */
let cancelled = 0;
const OBSERVER = 'observeCancelledTransactions';

describe('customer score under concurrent writes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
    db().middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (err) {
          if ((err as { name?: string }).name === 'TransactionCanceledException') cancelled++;
          throw err;
        }
      },
      { step: 'initialize', name: OBSERVER },
    );
  });
  afterAll(async () => {
    db().middlewareStack.remove(OBSERVER);
    await app.close();
  });

  it('50 parallel link writes under one product, interleaved with moves, re-rates, customer changes and deletes, end with exact scores and 0 mismatches', async () => {
    const ws = await newWorkspace();
    const d = new ScoreDriver(new ScoreApi(app, ws.token), MAX_DEPTH);
    const entity = (type: 'product' | 'component' | 'feature' | 'company' | 'user', parentId?: string) => d.create({ kind: 'createEntity', type, parentId });

    const p1 = await entity('product');
    const p2 = await entity('product');
    const c1 = await entity('component', p1);
    const c2 = await entity('component', p2);
    const c3 = await entity('component', p1);
    const features: string[] = [];
    for (let i = 0; i < 5; i++) features.push(await entity('feature', c1));
    const f6 = await entity('feature', c3);
    const company = await entity('company');
    const customers = [company];
    for (let i = 0; i < 5; i++) customers.push(await entity('user', i < 3 ? company : undefined));

    // The importance every rating of customer c on entity e carries, so "latest" is order-free.
    const entityIndex = new Map([...features, f6].map((id, i) => [id, i]));
    const imp = (c: number, e: string): Importance => IMPORTANCES[(c + entityIndex.get(e)!) % IMPORTANCES.length]!;
    const customerOf = (i: number) => i % customers.length;

    // 50 notes: 0–39 with a customer, 40–49 anonymous (given a customer in the second burst).
    const notes: string[] = [];
    for (let i = 0; i < 50; i++) {
      notes.push(await d.create({ kind: 'createNote', customerId: i < 40 ? customers[customerOf(i)] : undefined, links: [] }));
    }
    // Ratings of f6 that the first burst re-rates while f6's component moves.
    for (let i = 0; i < 20; i++) await d.run({ kind: 'putLink', noteId: notes[i]!, entityId: f6, importance: 'not important' });
    await d.assertScores();
    cancelled = 0;

    const target = (i: number) => features[i % features.length]!;
    const burst1: Step[] = [
      ...notes.map((noteId, i): Step => ({ kind: 'putLink', noteId, entityId: target(i), importance: imp(customerOf(i), target(i)) })),
      ...notes.slice(0, 20).map((noteId, i): Step => ({ kind: 'putLink', noteId, entityId: f6, importance: imp(customerOf(i), f6) })),
      { kind: 'setParent', id: features[1]!, parentId: c2 },
      { kind: 'setParent', id: features[3]!, parentId: c3 },
      { kind: 'setParent', id: c3, parentId: c2 },
    ];
    const results1 = await Promise.all(burst1.map((s) => d.run(s)));
    expect(results1.filter((r) => r.status >= 300)).toEqual([]);
    await d.assertScores();
    expect(d.model.score(p1) + d.model.score(p2)).toBeGreaterThan(50);

    const burst2: Step[] = [
      ...notes.slice(40).map((noteId, k): Step => ({ kind: 'setCustomer', noteId, customerId: customers[customerOf(40 + k)]! })),
      ...notes
        .slice(20, 30)
        .map((noteId, k): Step => ({ kind: 'deleteLink', noteId, entityId: target(20 + k) }))
        .filter((s) => s.kind === 'deleteLink' && s.entityId !== features[2]),
      ...notes.slice(30, 35).map((noteId): Step => ({ kind: 'deleteNote', noteId })),
      ...notes.slice(0, 10).map((noteId, i): Step => ({ kind: 'putLink', noteId, entityId: features[4]!, importance: imp(customerOf(i), features[4]!) })),
      { kind: 'setParent', id: features[1]!, parentId: c1 },
      { kind: 'setParent', id: c1, parentId: p2 },
      { kind: 'deleteEntity', id: features[2]! },
    ];
    // Only the note-level steps (customer change, note deletion) race the feature's deletion: a
    // step naming the deleted feature itself would succeed or 404 depending on order.
    expect(burst2.some((s) => 'entityId' in s && s.entityId === features[2])).toBe(false);
    const results2 = await Promise.all(burst2.map((s) => d.run(s)));
    expect(results2.filter((r) => r.status >= 300)).toEqual([]);
    await d.assertScores();
    await d.assertParents();
    await d.assertInventory();
    // The bursts did race: some transactions failed their conditions and were rebuilt and retried.
    expect(cancelled).toBeGreaterThan(0);

    const report = await verifyWorkspace(ws.workspaceId);
    expect(report.mismatches).toBe(0);
    expect(report.checked).toBeGreaterThanOrEqual(d.model.hierarchyIds().length);
  }, 180_000);
});
