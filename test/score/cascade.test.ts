// Subtree deletes (lib/store/cascade.ts): the answer is the truth — 204 once the root and every
// descendant are marked (gone for every reader: entity and score reads, a note's links from its copy
// or from the link items, relations, searches) and the ancestors' totals adjusted, in O(subtree ÷ 99)
// transactions that touch no link or rating below — and the clean-up runs from the delete's pending
// work, swept (lib/store/sweep.ts). Crashes are injected at the SDK client's middleware stack
// (./crash.ts, a mock: every call after the crash fails until healed), at each stage: while marking,
// in the request, and in the sweep. The frozen state is checked against the reference model
// (test/score/model.ts); then a sweep — after the crashed holder's lease ran out — finishes exactly.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { finishEntityDelete } from '#lib/store/cascade.ts';
import * as keys from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/query.ts';
import { sweep, type SweepReport } from '#lib/store/sweep.ts';
import { workOf } from '#lib/store/work.ts';
import { countCalls, crashAt, heal, writesKey, type Call } from './crash.ts';
import { client } from './helpers.ts';
import { isHierarchy, ScoreModel, type EntityType, type Importance } from './model.ts';
import { MAX_DEPTH } from './system.ts';
import { verifyScores } from '../../local/admin/score.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
const saved = { budget: process.env.REQUEST_TIMEOUT_MS, chunk: process.env.SWEEP_CHUNK_MS };
beforeAll(async () => {
  app = await startApp();
  // Short sweep leases, so a crashed sweep's work falls due within seconds (its chunk + 2 s).
  process.env.SWEEP_CHUNK_MS = '2000';
});
afterAll(async () => {
  process.env.REQUEST_TIMEOUT_MS = saved.budget;
  process.env.SWEEP_CHUNK_MS = saved.chunk;
  await app.close();
});
afterEach(() => heal());

type Client = ReturnType<typeof client>;

/**
 * Sweeps the workspace's pending work, as the scheduled worker runs, until none is due: each run
 * gives an item one chunk of time (a short one here), and an item handed back is due at once.
 */
async function sweepOf(ws: string): Promise<SweepReport> {
  const total: SweepReport = { finished: 0, handedBack: 0, failed: 0 };
  for (let runs = 0; runs < 60; runs++) {
    const r = await sweep({ workspace: ws, until: Date.now() + 30_000 });
    total.finished += r.finished;
    total.handedBack += r.handedBack;
    total.failed += r.failed;
    if (r.handedBack === 0) break;
  }
  return total;
}

/** A DELETE with a short request budget, so the lease of a request that crashed runs out within seconds (its budget + 2 s). */
async function deleteSoon(c: Client, id: string) {
  process.env.REQUEST_TIMEOUT_MS = '3000';
  try {
    return await c.req('DELETE', `/entities/${id}`);
  } finally {
    process.env.REQUEST_TIMEOUT_MS = saved.budget;
  }
}

/** Waits until every pending item of the workspace is due (the lease of whoever crashed holding it has run out). */
async function leasesRunOut(ws: string): Promise<void> {
  const latest = Math.max(0, ...(await workOf(ws)).map((w) => w.due));
  await new Promise((r) => setTimeout(r, Math.max(0, latest - Date.now() + 50)));
}

/** Every item of the workspace's partition, as a comparable snapshot. */
async function snapshot(ws: string): Promise<string[]> {
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.partition(ws) }, ConsistentRead: true });
  return items.map((it) => JSON.stringify(Object.entries(it).sort(([a], [b]) => a.localeCompare(b)))).sort();
}

const linkTargets = async (c: Client, noteId: string, path = `/notes/${noteId}`) => {
  const res = await c.ok('GET', path);
  const rels: Array<{ type: string; target: { id: string } }> = path.endsWith('/relationships') ? res.json.data : res.json.data.relationships.data;
  return rels
    .filter((r) => r.type === 'link')
    .map((r) => r.target.id)
    .sort();
};

/** A new workspace's product with a feature that stays and a component of `count` features (created `atOnce` at a time). */
async function productWithComponent(count: number, atOnce: number) {
  const ws = await newWorkspace();
  const c = client(app, ws.token);
  const product = await c.entity('product');
  const keep = await c.entity('feature', product);
  const comp = await c.entity('component', product);
  const features: string[] = [];
  for (let i = 0; i < count; i += atOnce) features.push(...(await Promise.all(Array.from({ length: atOnce }, () => c.entity('feature', comp)))));
  return { ws, c, product, keep, comp, features };
}

describe('a subtree delete answers once the subtree is gone for every reader', () => {
  it('122 entities: 204 after 4 transactions, no link or rating touched; every reader finds nothing of the subtree; the sweep then removes all of it', async () => {
    const { ws, c, product, keep, comp, features } = await productWithComponent(120, 40);
    const sub = await c.entity('subfeature', features[0]);
    const acme = await c.entity('company');
    const rated = await c.note({ customer: acme, links: features.slice(0, 12).map((f) => [f, 'important'] as [string, string]) });
    const mixed = await c.note({ links: [[sub], [keep], [comp]] });
    // Past the copy's 100 links: this note's links are read from the link items.
    const wide = await c.note({ links: [[keep], ...features.slice(0, 100).map((f): [string] => [f])] });
    await c.ok('POST', `/entities/${keep}/relationships`, { data: { type: 'link', target: { id: features[5] } } });
    expect([await c.score(product), await c.score(comp), await c.score(keep)]).toEqual([12 * 2 + 3 + 101, 12 * 2 + 2 + 100, 2]);
    const linksBefore = (await snapshot(ws.workspaceId)).filter((it) => it.includes('"LINK#')).length;

    const { result: res, calls, total } = await countCalls(() => c.req('DELETE', `/entities/${comp}`));
    expect(res.status, res.text).toBe(204);
    // Step 1, then the 120 features in two chunks and the subfeature in one; no link, rating or note written.
    expect(calls.TransactWriteItems).toBe(4);
    expect(calls.BatchWriteItem ?? 0).toBe(0);
    expect(calls.Query).toBeLessThanOrEqual(3);
    expect(total).toBeLessThanOrEqual(16);

    for (const id of [comp, sub, features[0]!, features[119]!]) {
      expectError(await c.req('GET', `/entities/${id}`), 'resource.notFound');
      expectError(await c.req('GET', `/entities/${id}/score`), 'resource.notFound');
    }
    expect([await c.score(product), await c.score(keep)]).toEqual([2, 2]);
    // A note's links: from its copy, from the link items (past the copy's cap), and the relationship list.
    expect(await linkTargets(c, rated)).toEqual([]);
    expect(await linkTargets(c, mixed)).toEqual([keep]);
    expect(await linkTargets(c, wide)).toEqual([keep]);
    expect(await linkTargets(c, wide, `/notes/${wide}/relationships`)).toEqual([keep]);
    expect((await c.ok('GET', `/notes/${rated}`)).json.data.relationships.data).toEqual([
      expect.objectContaining({ type: 'customer', target: expect.objectContaining({ id: acme }) }),
    ]);
    // Notes linked to a deleted entity, searched by it: none.
    expect((await c.ok('POST', '/notes/search', { data: { filter: { relationships: { link: [{ id: features[3] }] } } } })).json.data).toEqual([]);
    // The relation of a live entity to a deleted one.
    expect((await c.ok('GET', `/entities/${keep}/relationships`)).json.data.map((r: { type: string }) => r.type)).toEqual(['parent']);
    // The links below are untouched: the clean-up is pending work.
    expect((await snapshot(ws.workspaceId)).filter((it) => it.includes('"LINK#')).length).toBe(linksBefore);
    // Linking again to a deleted entity whose old link waits for the sweep: the entity is missing, not a conflict.
    expectError(await c.req('POST', `/notes/${rated}/relationships`, { data: { type: 'link', target: { id: features[0] } } }), 'resource.notFound', {
      source: { pointer: '/data/target/id' },
    });
    // Unlinking it: no such link for the client, as for every reader.
    expectError(await c.req('DELETE', `/notes/${rated}/relationships/link/${features[1]}`), 'resource.notFound');
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 1 });

    expect(await sweepOf(ws.workspaceId)).toMatchObject({ finished: 1, failed: 0 });
    const gone = new Set([comp, sub, ...features]);
    const left = (await snapshot(ws.workspaceId)).filter((it) => !it.includes('"NOTE#') && [...gone].some((id) => it.includes(id)));
    expect(left, 'items of the deleted subtree still in the table').toEqual([]);
    expect(await linkTargets(c, wide)).toEqual([keep]);
    expect([await c.score(product), await c.score(keep)]).toEqual([2, 2]);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toEqual({ checked: expect.any(Number), mismatches: 0, repaired: 0, pending: 0 });
  }, 120_000);

  it("a note linked to 650 entities of one level: the sweep takes them out of its copy in updates within DynamoDB's 4 KB expression limit, and leaves its other link", async () => {
    const { ws, c, product, keep, comp, features } = await productWithComponent(650, 50);
    // A budget that lets the note's 651 links land within the request.
    process.env.REQUEST_TIMEOUT_MS = '60000';
    const wide = await c.note({ links: [[keep], ...features.map((f): [string] => [f])] }).finally(() => (process.env.REQUEST_TIMEOUT_MS = saved.budget));
    expect(await c.score(comp)).toBe(650);

    expect((await c.req('DELETE', `/entities/${comp}`)).status).toBe(204);
    // A sweep long enough to read all 650 before it writes (a short one reads part and cleans that).
    process.env.SWEEP_CHUNK_MS = '60000';
    const { result: swept, longestUpdateExpression } = await countCalls(() => sweepOf(ws.workspaceId)).finally(() => (process.env.SWEEP_CHUNK_MS = '2000'));
    expect(swept).toMatchObject({ finished: 1, failed: 0 });
    // One REMOVE naming all 650 would be 4.4 KB.
    expect(longestUpdateExpression).toBeGreaterThan(0);
    expect(longestUpdateExpression).toBeLessThanOrEqual(4096);
    const left = (await snapshot(ws.workspaceId)).filter((it) => !it.includes('"NOTE#') && [comp, ...features].some((id) => it.includes(id)));
    expect(left, 'items of the deleted subtree still in the table').toEqual([]);
    expect(await linkTargets(c, wide)).toEqual([keep]);
    expect([await c.score(product), await c.score(keep)]).toEqual([1, 1]);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toEqual({ checked: expect.any(Number), mismatches: 0, repaired: 0, pending: 0 });
  }, 180_000);
});

// ---- crashes -------------------------------------------------------------------------------------

/** The client, every creation mirrored in the reference model. */
function mirrored(c: Client) {
  const model = new ScoreModel(MAX_DEPTH);
  return {
    model,
    entity: async (type: EntityType, parent?: string) => {
      const id = await c.entity(type, parent);
      model.createEntity(id, type, parent);
      return id;
    },
    note: async (customer: string | undefined, links: Array<[string, Importance]>) => {
      const id = await c.note({ ...(customer ? { customer } : {}), links });
      model.createNote(
        id,
        customer,
        links.map(([entityId, importance]) => ({ entityId, importance })),
      );
      return id;
    },
  };
}
type Mirror = ReturnType<typeof mirrored>;

/**
 * While frozen: every entity outside the deleted subtree answers, and every live entity (an
 * unmarked descendant included) has exactly the score the model gives for the facts as they stand —
 * the root detached, each note's customer as the API shows it. Returns the subtree's ids still live.
 */
async function expectFrozenScoresExact(c: Client, m: Mirror, subtree: Set<string>): Promise<string[]> {
  for (const noteId of m.model.notes.keys()) {
    const rels: Array<{ type: string; target: { id: string } }> = (await c.ok('GET', `/notes/${noteId}`)).json.data.relationships.data;
    m.model.notes.get(noteId)!.customerId = rels.find((r) => r.type === 'customer')?.target.id;
  }
  const live: string[] = [];
  for (const [id, e] of m.model.entities) {
    const res = await c.req('GET', isHierarchy(e.type) ? `/entities/${id}/score` : `/entities/${id}`);
    if (res.status === 404 && subtree.has(id)) continue;
    expect(res.status, `${e.type} ${id}${subtree.has(id) ? ' (in the deleted subtree)' : ''}: ${res.text}`).toBe(200);
    if (subtree.has(id)) live.push(id);
    if (isHierarchy(e.type)) expect(res.json.data.fields.score, `score of ${e.type} ${id}`).toBe(m.model.score(id));
  }
  return live;
}

/** Once finished: the subtree is gone from the table, every remaining score, customer and link is the model's after the delete. */
async function expectFinishedExactly(c: Client, m: Mirror, ws: string, root: string) {
  const gone = new Set(m.model.deleteEntity(root));
  for (const id of gone) expectError(await c.req('GET', `/entities/${id}`), 'resource.notFound');
  for (const [id, e] of m.model.entities) if (isHierarchy(e.type)) expect(await c.score(id), `score of ${e.type} ${id}`).toBe(m.model.score(id));
  for (const [noteId, n] of m.model.notes) {
    const rels: Array<{ type: string; target: { id: string } }> = (await c.ok('GET', `/notes/${noteId}`)).json.data.relationships.data;
    expect(rels.find((r) => r.type === 'customer')?.target.id, `customer of note ${noteId}`).toBe(n.customerId);
    expect(
      rels
        .filter((r) => r.type === 'link')
        .map((r) => r.target.id)
        .sort(),
    ).toEqual(
      m.model
        .linksOf(noteId)
        .map((l) => l.entityId)
        .sort(),
    );
  }
  const left = (await snapshot(ws)).filter((it) => [...gone].some((id) => it.includes(id)) && !it.includes('"NOTE#'));
  expect(left, 'items of the deleted subtree still in the table').toEqual([]);
  expect(await verifyScores({ workspace: ws, repair: false })).toMatchObject({ mismatches: 0, pending: 0 });
}

/** product P { keep (feature), comp { c2 { 20 features, one with a subfeature }, 20 features } }; notes rate parts of comp and of P outside it. */
async function hierarchyWorld(c: Client) {
  const m = mirrored(c);
  const p = await m.entity('product');
  const keep = await m.entity('feature', p);
  const comp = await m.entity('component', p);
  const c2 = await m.entity('component', comp);
  const inner = await Promise.all(Array.from({ length: 20 }, () => m.entity('feature', c2)));
  const outer = await Promise.all(Array.from({ length: 20 }, () => m.entity('feature', comp)));
  const sub = await m.entity('subfeature', inner[0]);
  const acme = await m.entity('company');
  const ann = await m.entity('user', acme);
  await m.note(acme, [...inner.slice(0, 6).map((f): [string, Importance] => [f, 'important']), [keep, 'critical']]);
  await m.note(ann, [
    [sub, 'critical'],
    [outer[0]!, 'nice to have'],
    [comp, 'important'],
    [keep, 'not important'],
  ]);
  await m.note(undefined, [
    [c2, 'unknown'],
    [keep, 'unknown'],
    [p, 'critical'],
  ]);
  const subtree = new Set([comp, c2, ...inner, ...outer, sub]);
  return { m, p, keep, root: comp, subtree };
}

/** company bigco { 40 users }, each user's note rating F1 or F2 under P; bigco's own note; another company's ratings. */
async function customerWorld(c: Client) {
  const m = mirrored(c);
  const p = await m.entity('product');
  const f1 = await m.entity('feature', p);
  const f2 = await m.entity('feature', p);
  const bigco = await m.entity('company');
  const users = await Promise.all(Array.from({ length: 40 }, () => m.entity('user', bigco)));
  const other = await m.entity('company');
  const importances: Importance[] = ['critical', 'important', 'nice to have', 'not important'];
  for (const [i, u] of users.entries()) await m.note(u, [[i % 2 ? f1 : f2, importances[i % 4]!]]);
  await m.note(bigco, [
    [f1, 'critical'],
    [f2, 'critical'],
  ]);
  await m.note(other, [[f1, 'important']]);
  return { m, root: bigco, subtree: new Set([bigco, ...users]) };
}

/** The state a crash left does not change while it is inspected: nothing is still running behind it. */
async function expectFrozen(ws: string): Promise<string[]> {
  const frozen = await snapshot(ws);
  await new Promise((r) => setTimeout(r, 300));
  expect(await snapshot(ws)).toEqual(frozen);
  return frozen;
}

describe('a crash at any point leaves exact scores and pending work; the sweep finishes it exactly', () => {
  const inRequest: Array<[string, (root: string) => (call: Call) => boolean, (live: number, descendants: number) => void]> = [
    ['step 1 landed, nothing else marked', () => (call) => writesKey(call, 'WORK#deleteEntity#'), (live, descendants) => expect(live).toBe(descendants)],
    [
      'part of the subtree marked',
      (root) => (call) => writesKey(call, `TOMB#${root}#01`),
      (live, descendants) => {
        expect(live).toBeGreaterThan(0);
        expect(live).toBeLessThan(descendants);
      },
    ],
  ];
  it.each(inRequest)(
    'hierarchy subtree of 43, crash in the request: %s',
    async (_stage, at, expectLive) => {
      const ws = await newWorkspace();
      const c = client(app, ws.token);
      const w = await hierarchyWorld(c);
      crashAt(at(w.root));
      expectError(await deleteSoon(c, w.root), 'internal.serverError');
      heal();
      await expectFrozen(ws.workspaceId);

      // The root's total left its ancestors in step 1; the facts now have it detached. The delete has
      // not answered: descendants not marked yet still answer, with their own (untouched) scores.
      w.m.model.entities.get(w.root)!.parentId = undefined;
      expectLive((await expectFrozenScoresExact(c, w.m, w.subtree)).length, w.subtree.size - 1);
      expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 1 });

      await leasesRunOut(ws.workspaceId);
      expect(await sweepOf(ws.workspaceId)).toMatchObject({ finished: 1, failed: 0 });
      await expectFinishedExactly(c, w.m, ws.workspaceId, w.root);
    },
    120_000,
  );

  it('hierarchy subtree of 43, crash in the request while marking: a repeated DELETE carries the marking on and answers 204', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const w = await hierarchyWorld(c);
    crashAt((call) => writesKey(call, `TOMB#${w.root}#01`));
    expectError(await deleteSoon(c, w.root), 'internal.serverError');
    heal();
    expect((await c.req('DELETE', `/entities/${w.root}`)).status).toBe(204);
    for (const id of w.subtree) expectError(await c.req('GET', `/entities/${id}`), 'resource.notFound');
    await leasesRunOut(ws.workspaceId);
    expect(await sweepOf(ws.workspaceId)).toMatchObject({ finished: 1, failed: 0 });
    await expectFinishedExactly(c, w.m, ws.workspaceId, w.root);
  }, 120_000);

  const inSweep: Array<[string, (call: Call) => boolean, number]> = [
    ['after some links, ratings and relations went', (call) => call.operation === 'BatchWriteItem', 3],
    ["after links left their notes' copies", (call) => writesKey(call, 'NOTE#'), 1],
    ['after some entity items went', (call) => call.operation === 'BatchWriteItem' && JSON.stringify(call.input).includes('"ENT#'), 1],
  ];
  it.each(inSweep)(
    'hierarchy subtree of 43, answered 204, then the sweep crashed %s',
    async (_stage, at, nth) => {
      const ws = await newWorkspace();
      const c = client(app, ws.token);
      const w = await hierarchyWorld(c);
      expect((await c.req('DELETE', `/entities/${w.root}`)).status).toBe(204);
      const state = crashAt(at, { nth });
      await expect(sweepOf(ws.workspaceId)).rejects.toThrow(/injected crash/);
      expect(state.crashed).toBe(true);
      heal();
      await expectFrozen(ws.workspaceId);

      // Between the answer and the end of the clean-up, the subtree is gone for every reader and every score is exact.
      w.m.model.entities.get(w.root)!.parentId = undefined;
      expect(await expectFrozenScoresExact(c, w.m, w.subtree)).toEqual([]);
      expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 1 });

      await leasesRunOut(ws.workspaceId);
      expect(await sweepOf(ws.workspaceId)).toMatchObject({ finished: 1, failed: 0 });
      await expectFinishedExactly(c, w.m, ws.workspaceId, w.root);
    },
    120_000,
  );

  it('a company with 40 users, crash in the request after 6 notes lost their customer: exact throughout, then the sweep clears the rest', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const w = await customerWorld(c);
    const before = new Map([...w.m.model.notes].map(([id, n]) => [id, n.customerId]));
    crashAt((call) => writesKey(call, 'NOTE#'), { nth: 6 });
    expectError(await deleteSoon(c, w.root), 'internal.serverError');
    heal();
    await expectFrozen(ws.workspaceId);

    await expectFrozenScoresExact(c, w.m, w.subtree);
    const cleared = [...w.m.model.notes].filter(([id, n]) => before.get(id) !== n.customerId).length;
    // The sixth landed, and whatever was in flight with it (as a real crash would let land).
    expect(cleared).toBeGreaterThanOrEqual(6);
    expect(cleared).toBeLessThan(41);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 1 });

    await leasesRunOut(ws.workspaceId);
    expect(await sweepOf(ws.workspaceId)).toMatchObject({ finished: 1, failed: 0 });
    // The model starts from the original facts again: every note of a deleted customer loses it.
    for (const [id, cust] of before) w.m.model.notes.get(id)!.customerId = cust;
    await expectFinishedExactly(c, w.m, ws.workspaceId, w.root);
  }, 120_000);
});

describe('the clean-up is safe to run twice at once', () => {
  it('two sweeps at once: one takes the work, the other finds it taken; two finishers at once end exactly as one', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const w = await hierarchyWorld(c);
    expect((await c.req('DELETE', `/entities/${w.root}`)).status).toBe(204);
    const [a, b] = await Promise.all([sweepOf(ws.workspaceId), sweepOf(ws.workspaceId)]);
    expect(a.finished + b.finished).toBe(1);
    expect(a.failed + b.failed).toBe(0);
    await expectFinishedExactly(c, w.m, ws.workspaceId, w.root);

    const ws2 = await newWorkspace();
    const c2 = client(app, ws2.token);
    const w2 = await hierarchyWorld(c2);
    expect((await c2.req('DELETE', `/entities/${w2.root}`)).status).toBe(204);
    const until = Date.now() + 30_000;
    expect(await Promise.all([finishEntityDelete(ws2.workspaceId, w2.root, until), finishEntityDelete(ws2.workspaceId, w2.root, until)])).toEqual([true, true]);
    expect(await sweepOf(ws2.workspaceId)).toMatchObject({ finished: 1, failed: 0 });
    await expectFinishedExactly(c2, w2.m, ws2.workspaceId, w2.root);
  }, 120_000);
});
