// A cascade over a subtree larger than one transaction (122 entities, 100-item transactions), and a
// crash simulated at each stage of it: after every step the live scores equal the definition, and
// `score verify --repair` finishes the delete. Then crashes that stop EVERY worker at a chosen step,
// the state inspected while frozen against the reference model (test/score/model.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cascadeHooks, type CascadeStep } from '#lib/store/cascade.ts';
import * as keys from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/query.ts';
import { client } from './helpers.ts';
import { isHierarchy, ScoreModel, type EntityType, type Importance } from './model.ts';
import { MAX_DEPTH } from './system.ts';
import { verifyScores } from '../../local/admin/score.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());
afterEach(() => {
  delete cascadeHooks.afterStep;
});

const FEATURES = 120;

async function bigTree(c: ReturnType<typeof client>) {
  const product = await c.entity('product');
  const keep = await c.entity('feature', product);
  const comp = await c.entity('component', product);
  const features: string[] = [];
  for (let i = 0; i < FEATURES; i += 40) features.push(...(await Promise.all(Array.from({ length: 40 }, () => c.entity('feature', comp)))));
  const sub = await c.entity('subfeature', features[0]);
  const acme = await c.entity('company');
  const rated = await c.note({ customer: acme, links: features.slice(0, 12).map((f) => [f, 'important'] as [string, string]) });
  await c.note({ links: [[sub], [keep], [comp]] });
  return { product, keep, comp, features, sub, rated };
}

class Crash extends Error {}

describe('cascade delete of a subtree larger than one transaction', () => {
  it('without a crash: 204, the whole subtree is gone, links to it removed, ancestors exact', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await bigTree(c);
    expect([await c.score(t.product), await c.score(t.comp)]).toEqual([12 * 2 + 3, 12 * 2 + 2]);
    expect((await c.req('DELETE', `/entities/${t.comp}`)).status).toBe(204);
    expect(await c.score(t.product)).toBe(1);
    for (const id of [t.comp, t.sub, ...t.features.slice(0, 5)]) expectError(await c.req('GET', `/entities/${id}/score`), 'resource.notFound');
    expect((await c.ok('GET', `/notes/${t.rated}`)).json.data.relationships.data.filter((r: any) => r.type === 'link')).toEqual([]);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  }, 90_000);

  it.each([
    ['detached', 1],
    ['marked', 1],
    ['deleted', 60],
  ])('a crash after step "%s" (#%i): every live score stays exact, verify finds no drift, verify --repair (or a repeated DELETE) finishes the delete', async (stage, nth) => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await bigTree(c);
    let count = 0;
    cascadeHooks.afterStep = (step) => {
      if (step === stage && ++count === nth) throw new Crash(`simulated crash after ${step}`);
    };
    expectError(await c.req('DELETE', `/entities/${t.comp}`), 'internal.serverError');
    delete cascadeHooks.afterStep;

    // Intermediate state: the root is gone, its total left the ancestors at once.
    expectError(await c.req('GET', `/entities/${t.comp}`), 'resource.notFound');
    expect([await c.score(t.product), await c.score(t.keep)]).toEqual([1, 1]);
    // Writes into the doomed subtree are refused.
    const survivor = t.features[FEATURES - 1]!;
    const linkRes = await c.req('POST', '/notes', { data: { type: 'textNote', fields: { name: 'late' }, relationships: [{ type: 'link', target: { id: survivor } }] } });
    expectError(linkRes, 'resource.notFound');
    if (stage === 'detached') {
      // Not yet marked: a descendant still answers with its own untouched subtree score.
      expect(await c.score(t.features[0]!)).toBe(2 + 1);
    }
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });

    if (stage === 'deleted') {
      // A client retrying the DELETE finishes the cascade just as well.
      expect((await c.req('DELETE', `/entities/${t.comp}`)).status).toBe(204);
    } else {
      const repaired = await verifyScores({ workspace: ws.workspaceId, repair: true });
      expect(repaired.mismatches).toBe(0);
    }
    for (const id of [t.sub, t.features[0]!, survivor]) expectError(await c.req('GET', `/entities/${id}`), 'resource.notFound');
    expect((await c.ok('GET', `/notes/${t.rated}`)).json.data.relationships.data.filter((r: any) => r.type === 'link')).toEqual([]);
    expect(await c.score(t.product)).toBe(1);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, repaired: 0 });
  }, 90_000);
});

// ---- frozen crashes ------------------------------------------------------------------------------

/** The client, every creation mirrored in the reference model. */
function mirrored(c: ReturnType<typeof client>) {
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
      model.createNote(id, customer, links.map(([entityId, importance]) => ({ entityId, importance })));
      return id;
    },
  };
}

/** Every item of the workspace's partition, as a comparable snapshot. */
async function snapshot(ws: string): Promise<string[]> {
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.partition(ws) }, ConsistentRead: true });
  return items.map((it) => JSON.stringify(Object.entries(it).sort(([a], [b]) => a.localeCompare(b)))).sort();
}

/**
 * A crash at the `nth` occurrence of `stage` that stops every worker: from then on the hook throws
 * wherever any worker reaches one. `afterReply` counts hook calls after the DELETE answered.
 */
function crashEverywhere(stage: CascadeStep, nth: number) {
  const state = { seen: 0, crashed: false, replied: false, afterReply: 0 };
  cascadeHooks.afterStep = (step) => {
    if (state.replied) state.afterReply++;
    if (!state.crashed && step === stage && ++state.seen === nth) state.crashed = true;
    if (state.crashed) throw new Crash(`simulated crash at ${step}`);
  };
  return state;
}

type Mirror = ReturnType<typeof mirrored>;

/**
 * While frozen: every entity outside the deleted subtree answers, and every live entity (an
 * unmarked descendant included) has exactly the score the model gives for the facts as they stand —
 * the root detached, each note's customer as the API shows it. Returns the subtree's ids still live.
 */
async function expectFrozenScoresExact(c: ReturnType<typeof client>, m: Mirror, subtree: Set<string>): Promise<string[]> {
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

/** After the repeated DELETE: the subtree is gone from the table, every remaining score is the model's after the delete. */
async function expectFinishedExactly(c: ReturnType<typeof client>, m: Mirror, ws: string, root: string) {
  const gone = new Set(m.model.deleteEntity(root));
  for (const id of gone) expectError(await c.req('GET', `/entities/${id}`), 'resource.notFound');
  for (const [id, e] of m.model.entities) if (isHierarchy(e.type)) expect(await c.score(id), `score of ${e.type} ${id}`).toBe(m.model.score(id));
  for (const [noteId, n] of m.model.notes) {
    const rels: Array<{ type: string; target: { id: string } }> = (await c.ok('GET', `/notes/${noteId}`)).json.data.relationships.data;
    expect(rels.find((r) => r.type === 'customer')?.target.id, `customer of note ${noteId}`).toBe(n.customerId);
    expect(rels.filter((r) => r.type === 'link').map((r) => r.target.id).sort()).toEqual(m.model.linksOf(noteId).map((l) => l.entityId).sort());
  }
  const left = (await snapshot(ws)).filter((it) => [...gone].some((id) => it.includes(id)) && !it.includes('"NOTE#'));
  expect(left, 'items of the deleted subtree still in the table').toEqual([]);
  expect(await verifyScores({ workspace: ws, repair: false })).toMatchObject({ mismatches: 0 });
}

/** product P { keep (feature), comp { c2 { 20 features, one with a subfeature }, 20 features } }; notes rate parts of comp and of P outside it. */
async function hierarchyWorld(c: ReturnType<typeof client>) {
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
  await m.note(ann, [[sub, 'critical'], [outer[0]!, 'nice to have'], [comp, 'important'], [keep, 'not important']]);
  await m.note(undefined, [[c2, 'unknown'], [keep, 'unknown'], [p, 'critical']]);
  const subtree = new Set([comp, c2, ...inner, ...outer, sub]);
  return { m, p, keep, root: comp, subtree };
}

/** company bigco { 40 users }, each user's note rating F1 or F2 under P; bigco's own note; another company's ratings. */
async function customerWorld(c: ReturnType<typeof client>) {
  const m = mirrored(c);
  const p = await m.entity('product');
  const f1 = await m.entity('feature', p);
  const f2 = await m.entity('feature', p);
  const bigco = await m.entity('company');
  const users = await Promise.all(Array.from({ length: 40 }, () => m.entity('user', bigco)));
  const other = await m.entity('company');
  const importances: Importance[] = ['critical', 'important', 'nice to have', 'not important'];
  for (const [i, u] of users.entries()) await m.note(u, [[i % 2 ? f1 : f2, importances[i % 4]!]]);
  await m.note(bigco, [[f1, 'critical'], [f2, 'critical']]);
  await m.note(other, [[f1, 'important']]);
  return { m, root: bigco, subtree: new Set([bigco, ...users]) };
}

describe('a crash that stops every worker at a chosen step: the frozen state is exact, and a repeated DELETE finishes it exactly', () => {
  const hierarchyCases: Array<[CascadeStep, number, string]> = [
    ['detached', 1, 'the root detached, nothing marked'],
    ['marking', 10, 'part of the subtree marked'],
    ['marked', 1, 'all marked, nothing removed'],
    ['cleared', 10, 'some entities without their links and ratings, still present'],
    ['deleted', 20, 'part of the subtree deleted'],
  ];
  it.each(hierarchyCases)('hierarchy subtree of 43, crash at "%s" #%i (%s)', async (stage, nth) => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const w = await hierarchyWorld(c);
    const linksBefore = (await snapshot(ws.workspaceId)).filter((it) => it.includes('"LINK#')).length;
    const crash = crashEverywhere(stage, nth);
    expectError(await c.req('DELETE', `/entities/${w.root}`), 'internal.serverError');
    crash.replied = true;
    const frozen = await snapshot(ws.workspaceId);

    // The root's total left its ancestors at once; the facts now have it detached.
    w.m.model.entities.get(w.root)!.parentId = undefined;
    const live = await expectFrozenScoresExact(c, w.m, w.subtree);
    const descendants = w.subtree.size - 1;
    if (stage === 'detached') expect(live).toHaveLength(descendants);
    else if (stage === 'marking') {
      expect(live.length).toBeGreaterThan(0);
      expect(live.length).toBeLessThan(descendants);
    } else expect(live).toEqual([]);
    const linksNow = frozen.filter((it) => it.includes('"LINK#')).length;
    if (stage === 'cleared' || stage === 'deleted') expect(linksNow).toBeLessThan(linksBefore);
    else expect(linksNow).toBe(linksBefore);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
    // Frozen indeed: no worker reached a step after the reply, and the table did not change while inspected.
    expect(crash.afterReply).toBe(0);
    expect(await snapshot(ws.workspaceId)).toEqual(frozen);

    delete cascadeHooks.afterStep;
    expect((await c.req('DELETE', `/entities/${w.root}`)).status).toBe(204);
    await expectFinishedExactly(c, w.m, ws.workspaceId, w.root);
  }, 120_000);

  const customerCases: Array<[CascadeStep, number, string]> = [
    ['marking', 8, 'part of the users marked'],
    ['customerCleared', 6, "some users' notes without their customer, others still rated by them"],
    ['deleted', 5, 'part of the users deleted'],
  ];
  it.each(customerCases)('a company with 40 users, crash at "%s" #%i (%s)', async (stage, nth) => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const w = await customerWorld(c);
    const crash = crashEverywhere(stage, nth);
    expectError(await c.req('DELETE', `/entities/${w.root}`), 'internal.serverError');
    crash.replied = true;
    const frozen = await snapshot(ws.workspaceId);

    const before = new Map([...w.m.model.notes].map(([id, n]) => [id, n.customerId]));
    await expectFrozenScoresExact(c, w.m, w.subtree);
    const cleared = [...w.m.model.notes].filter(([id, n]) => before.get(id) !== n.customerId).length;
    const ofDeleted = [...before.values()].filter((cust) => cust !== undefined && w.subtree.has(cust)).length;
    if (stage === 'customerCleared') {
      expect(cleared).toBeGreaterThan(0);
      expect(cleared).toBeLessThan(ofDeleted - 1);
    }
    if (stage === 'marking') expect(cleared).toBe(0);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
    expect(crash.afterReply).toBe(0);
    expect(await snapshot(ws.workspaceId)).toEqual(frozen);

    delete cascadeHooks.afterStep;
    expect((await c.req('DELETE', `/entities/${w.root}`)).status).toBe(204);
    // The model starts from the original facts again: every note of a deleted customer loses it.
    for (const [id, cust] of before) w.m.model.notes.get(id)!.customerId = cust;
    await expectFinishedExactly(c, w.m, ws.workspaceId, w.root);
  }, 120_000);
});
