// Property: whatever sequence of hierarchy, note, customer and link operations the API receives,
// every entity's score equals the rule's definition recomputed from scratch (test/score/model.ts),
// refused operations change nothing, and `score verify` finds no drift afterwards. The generator
// also builds chains to the depth cap (and one level past it), deletes customers, and sends
// duplicate links; each run asserts minimum counts of those, so the refusals they cause are exercised.
// Every seed is printed. Replay a failure with FC_SEED=<seed> FC_PATH=<path> (fast-check prints both);
// FC_RUNS overrides the number of sequences per seed, FC_SEEDS runs that many seeds (FC_SEED, FC_SEED+1, …;
// random ones without FC_SEED), so that many seeds can be run in one go: FC_SEEDS=200 FC_RUNS=10.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '#lib/store/sweep.ts';
import { ScoreApi, ScoreDriver, type Step } from './harness.ts';
import { IMPORTANCES, PARENT_RULES, type EntityType, type Importance, type NewLink } from './model.ts';
import { MAX_DEPTH, verifyWorkspace } from './system.ts';
import { newWorkspace, startApp, type TestApp } from '../support/app.ts';

// ---- abstract operations: ids are chosen when the step runs, from what exists then ---------------

/** fit: among the ids that make sense here; any: among all live ids; gone: a deleted id; unknown: a fresh uuid. */
type Pick = { fit: number } | { any: number } | { gone: number } | { unknown: string };

const pick = (fitWeight = 16): fc.Arbitrary<Pick> =>
  fc.oneof(
    { weight: fitWeight, arbitrary: fc.nat().map((n) => ({ fit: n })) },
    { weight: 2, arbitrary: fc.nat().map((n) => ({ any: n })) },
    { weight: 1, arbitrary: fc.nat().map((n) => ({ gone: n })) },
    { weight: 1, arbitrary: fc.uuid({ version: 4 }).map((u) => ({ unknown: u })) },
  );
const importance: fc.Arbitrary<Importance> = fc.constantFrom(...IMPORTANCES);
const maybe = <T>(a: fc.Arbitrary<T>, freq = 3) => fc.option(a, { nil: undefined, freq });

type Op =
  | { op: 'createEntity'; type: EntityType; parent: Pick | undefined }
  | { op: 'setParent'; entity: Pick; parent: Pick }
  | { op: 'deleteEntity'; entity: Pick }
  | { op: 'deepen'; from: Pick; leaf: 'component' | 'feature' }
  | { op: 'deleteCustomer'; customer: Pick }
  | { op: 'createNote'; customer: Pick | undefined; links: Array<{ entity: Pick; importance: Importance | undefined }>; repeat: boolean }
  | { op: 'relink'; note: Pick; link: Pick }
  | { op: 'setCustomer'; note: Pick; customer: Pick }
  | { op: 'clearCustomer'; note: Pick }
  | { op: 'createLink'; note: Pick; entity: Pick; importance: Importance | undefined }
  | { op: 'putLink'; note: Pick; entity: Pick; importance: Importance }
  | { op: 'deleteLink'; note: Pick; link: Pick }
  | { op: 'deleteNote'; note: Pick }
  /** The sweeper runs (lib/store/sweep.ts): the clean-up of deletes and anything else pending. */
  | { op: 'sweep' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('createEntity' as const),
      type: fc.constantFrom<EntityType>('component', 'component', 'feature', 'feature', 'feature', 'subfeature', 'subfeature', 'product', 'user', 'company'),
      parent: maybe(pick(), 12),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('setParent' as const), entity: pick(), parent: pick() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('deleteEntity' as const), entity: pick() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('deepen' as const), from: pick(), leaf: fc.constantFrom('component' as const, 'feature' as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('deleteCustomer' as const), customer: pick() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('createNote' as const),
      customer: maybe(pick(), 2),
      links: fc.array(fc.record({ entity: pick(), importance: maybe(importance) }), { maxLength: 3 }),
      // The same target twice in one request: refused as a whole.
      repeat: fc.nat(9).map((n) => n < 2),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('relink' as const), note: pick(), link: pick() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('setCustomer' as const), note: pick(), customer: pick() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('clearCustomer' as const), note: pick() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('createLink' as const), note: pick(), entity: pick(), importance: maybe(importance) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('putLink' as const), note: pick(), entity: pick(), importance }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('deleteLink' as const), note: pick(), link: pick() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('deleteNote' as const), note: pick() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('sweep' as const) }) },
);

const at = <T>(xs: readonly T[], n: number): T | undefined => (xs.length ? xs[n % xs.length] : undefined);

/** Turns an abstract operation into a concrete step against the driver's current state. */
function resolve(d: ScoreDriver, o: Exclude<Op, { op: 'deepen' | 'sweep' }>): Step {
  const m = d.model;
  const all = [...m.entities.keys()];
  const hierarchy = m.hierarchyIds();
  const customers = m.customerIds();
  const notes = [...m.notes.keys()];
  const fresh = (p: Pick) => ('unknown' in p ? p.unknown : '00000000-0000-4000-8000-000000000000');
  const choose = (p: Pick, fit: readonly string[], gone: readonly string[]): string =>
    'fit' in p
      ? (at(fit, p.fit) ?? at(all, p.fit) ?? fresh(p))
      : 'any' in p
        ? (at(all, p.any) ?? fresh(p))
        : 'gone' in p
          ? (at(gone, p.gone) ?? fresh(p))
          : p.unknown;
  const goneEntities = [...d.gone];
  const goneNotes = [...d.deletedNotes];
  const entity = (p: Pick, fit = hierarchy) => choose(p, fit, goneEntities);
  const note = (p: Pick) => choose(p, notes, goneNotes);
  const parentsFor = (type: EntityType) => all.filter((id) => PARENT_RULES[type].parents.includes(m.entities.get(id)!.type));

  switch (o.op) {
    case 'createEntity':
      return { kind: 'createEntity', type: o.type, parentId: o.parent === undefined ? undefined : entity(o.parent, parentsFor(o.type)) };
    case 'setParent': {
      const id = entity(
        o.entity,
        all.filter((e) => m.entities.get(e)!.type !== 'product' && m.entities.get(e)!.type !== 'company'),
      );
      const type = m.entities.get(id)?.type ?? 'feature';
      return {
        kind: 'setParent',
        id,
        parentId: entity(
          o.parent,
          parentsFor(type).filter((p) => p !== m.entities.get(id)?.parentId),
        ),
      };
    }
    case 'deleteEntity':
      return { kind: 'deleteEntity', id: entity(o.entity) };
    case 'deleteCustomer':
      return { kind: 'deleteEntity', id: entity(o.customer, customers) };
    case 'createNote': {
      const links = new Map<string, Importance | undefined>();
      for (const l of o.links) {
        const id = entity(l.entity);
        if (!links.has(id)) links.set(id, l.importance);
      }
      const list: NewLink[] = [...links].map(([entityId, imp]) => ({ entityId, ...(imp ? { importance: imp } : {}) }));
      // `repeat`: the first target once more, which refuses the whole request.
      if (o.repeat && list.length > 0) list.push({ entityId: list[0]!.entityId, importance: 'critical' });
      return { kind: 'createNote', customerId: o.customer === undefined ? undefined : entity(o.customer, customers), links: list };
    }
    case 'relink': {
      // A link the note already has, created again: 409.
      const noteId = choose(
        o.note,
        notes.filter((n) => m.linksOf(n).length > 0),
        goneNotes,
      );
      return {
        kind: 'createLink',
        noteId,
        entityId: entity(
          o.link,
          m.linksOf(noteId).map((l) => l.entityId),
        ),
        importance: undefined,
      };
    }
    case 'setCustomer':
      return { kind: 'setCustomer', noteId: note(o.note), customerId: entity(o.customer, customers) };
    case 'clearCustomer': {
      const noteId = note(o.note);
      return { kind: 'clearCustomer', noteId, customerId: m.notes.get(noteId)?.customerId ?? entity(o.note, customers) };
    }
    case 'createLink':
      return { kind: 'createLink', noteId: note(o.note), entityId: entity(o.entity), importance: o.importance };
    case 'putLink':
      return { kind: 'putLink', noteId: note(o.note), entityId: entity(o.entity), importance: o.importance };
    case 'deleteLink': {
      const noteId = note(o.note);
      return {
        kind: 'deleteLink',
        noteId,
        entityId: entity(
          o.link,
          m.linksOf(noteId).map((l) => l.entityId),
        ),
      };
    }
    case 'deleteNote':
      return { kind: 'deleteNote', noteId: note(o.note) };
  }
}

/**
 * Whether an accepted step changes a rating of a customer who rates the same entity through
 * another note too — the "only the latest counts / fall back to the next most recent" cases.
 */
function touchesSharedRating(d: ScoreDriver, step: Step): boolean {
  const m = d.model;
  if (!('noteId' in step) || !d.expected(step).ok) return false;
  const customers = [m.notes.get(step.noteId)?.customerId, step.kind === 'setCustomer' ? step.customerId : undefined];
  const entities =
    step.kind === 'putLink' || step.kind === 'deleteLink' || step.kind === 'createLink' ? [step.entityId] : m.linksOf(step.noteId).map((l) => l.entityId);
  return customers.some((c) => c !== undefined && entities.some((e) => m.ratings(e, c).some((l) => l.noteId !== step.noteId)));
}

const NUM_RUNS = Number(process.env.FC_RUNS ?? 200);
/** Sequences per seed from which the generator's coverage is asserted (CI runs 200). */
const COVERAGE_RUNS = 100;
const FIRST_SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const SEEDS = Array.from({ length: Number(process.env.FC_SEEDS ?? 1) }, (_, i) =>
  FIRST_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : FIRST_SEED + i,
);

/** What a run exercised, beyond accepted and refused steps: the generator's minimum counts are asserted on these. */
interface Stats {
  accepted: number;
  refused: number;
  refusals: Map<string, number>;
  shared: number;
  /** Sequences in which some entity sat at the depth cap. */
  atDepthCap: number;
  depthRefusals: number;
  duplicateLinkRefusals: number;
  customerDeletes: number;
  /** Pending items the sweeps finished. */
  sweeps: number;
}

/** Runs one step (predicted by the model, asserted by the driver) and counts what it exercised. */
async function runCounted(d: ScoreDriver, step: Step, stats: Stats): Promise<string | undefined> {
  const expected = d.expected(step);
  if (touchesSharedRating(d, step)) stats.shared++;
  const deletesCustomer = step.kind === 'deleteEntity' && expected.ok && !d.isHierarchy(step.id);
  const res = await d.run(step);
  if (res.status < 300) {
    stats.accepted++;
    if (deletesCustomer) stats.customerDeletes++;
  } else {
    stats.refused++;
    const key = `${step.kind} ${res.status}`;
    stats.refusals.set(key, (stats.refusals.get(key) ?? 0) + 1);
    if (!expected.ok && expected.why.includes('depth cap')) stats.depthRefusals++;
    if (!expected.ok && (expected.refusal === 'conflict' || expected.why.includes('linked twice'))) stats.duplicateLinkRefusals++;
  }
  return res.status < 300 ? (res.json?.data?.id as string | undefined) : undefined;
}

const deepest = (d: ScoreDriver) => Math.max(0, ...d.hierarchy().map((id) => d.model.depth(id)));

/**
 * A chain from a product or component down to the depth cap (components, then a `leaf` at depth
 * MAX_DEPTH), then one level past it, which must be refused; the intermediate steps are plain
 * creations, so the scores are asserted once, after the chain.
 */
async function deepen(d: ScoreDriver, o: Extract<Op, { op: 'deepen' }>, stats: Stats): Promise<void> {
  const m = d.model;
  const starts = m.hierarchyIds().filter((id) => ['product', 'component'].includes(m.entities.get(id)!.type) && m.depth(id) < MAX_DEPTH);
  let parent = 'fit' in o.from ? at(starts, o.from.fit) : undefined;
  parent ??= await runCounted(d, { kind: 'createEntity', type: 'product', parentId: undefined }, stats);
  while (m.depth(parent!) < MAX_DEPTH - 1) parent = await runCounted(d, { kind: 'createEntity', type: 'component', parentId: parent }, stats);
  const leaf = await runCounted(d, { kind: 'createEntity', type: o.leaf, parentId: parent }, stats);
  await runCounted(d, { kind: 'createEntity', type: o.leaf === 'feature' ? 'subfeature' : 'feature', parentId: leaf }, stats);
}

describe('customer score: property-based, against a reference model recomputed from scratch', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it.each(SEEDS)(
    'seed %i: after every step of any operation sequence, every score equals Σ own(d) over the subtree; refused steps change nothing; verify finds 0 mismatches',
    async (seed) => {
      console.log(`property: seed ${seed}, ${NUM_RUNS} sequences (replay with FC_SEED=${seed} FC_RUNS=${NUM_RUNS})`);
      let sequences = 0;
      const stats: Stats = {
        accepted: 0,
        refused: 0,
        refusals: new Map(),
        shared: 0,
        atDepthCap: 0,
        depthRefusals: 0,
        duplicateLinkRefusals: 0,
        customerDeletes: 0,
        sweeps: 0,
      };
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
          const ws = await newWorkspace();
          const d = new ScoreDriver(new ScoreApi(app, ws.token), MAX_DEPTH);
          // A small starting tree and customers, so that early steps already move scores.
          const product = await d.create({ kind: 'createEntity', type: 'product', parentId: undefined });
          const component = await d.create({ kind: 'createEntity', type: 'component', parentId: product });
          const feature = await d.create({ kind: 'createEntity', type: 'feature', parentId: component });
          const company = await d.create({ kind: 'createEntity', type: 'company', parentId: undefined });
          const user = await d.create({ kind: 'createEntity', type: 'user', parentId: company });
          await d.create({ kind: 'createEntity', type: 'user', parentId: undefined });
          // Two ratings of one customer on one feature: only the later counts until it goes.
          await d.create({ kind: 'createNote', customerId: user, links: [{ entityId: feature, importance: 'important' }] });
          await d.create({ kind: 'createNote', customerId: user, links: [{ entityId: feature, importance: 'not important' }] });
          await d.create({ kind: 'createNote', customerId: undefined, links: [] });
          let reachedCap = false;
          const sweepNow = () => sweep({ workspace: ws.workspaceId, until: Date.now() + 60_000 });
          for (const o of ops) {
            if (o.op === 'deepen') await deepen(d, o, stats);
            else if (o.op === 'sweep') stats.sweeps += (await sweepNow()).finished;
            else await runCounted(d, resolve(d, o), stats);
            reachedCap ||= deepest(d) >= MAX_DEPTH;
            await d.assertScores();
          }
          await d.assertParents();
          await d.assertInventory();
          const report = await verifyWorkspace(ws.workspaceId);
          expect(report, `verify after:\n${d.log.join('\n')}`).toMatchObject({ mismatches: 0 });
          // What is still pending (the clean-up of deletes) changes no score when it runs, and leaves nothing pending.
          stats.sweeps += (await sweepNow()).finished;
          await d.assertScores();
          expect(await verifyWorkspace(ws.workspaceId), `verify after the sweep:\n${d.log.join('\n')}`).toMatchObject({ mismatches: 0, pending: 0 });
          if (reachedCap) stats.atDepthCap++;
          sequences++;
        }),
        {
          numRuns: NUM_RUNS,
          seed,
          ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
          // Shrinking replays sequences against the database; FC_NO_SHRINK=1 skips it for a quick seed.
          endOnFailure: process.env.FC_NO_SHRINK === '1',
        },
      );
      if (process.env.FC_STATS === '1') console.log({ sequences, ...stats, requests: ScoreApi.requests });
      if (process.env.FC_PATH) return; // a replay runs only the failing case
      expect(sequences).toBeGreaterThanOrEqual(NUM_RUNS);
      // What the generator covers is a share of the sequences, judged where there are enough of them
      // (a run of many seeds with few sequences each judges only the scores: FC_SEEDS=200 FC_RUNS=10).
      if (NUM_RUNS < COVERAGE_RUNS) return;
      // The generator must exercise both sides: mostly accepted steps, and a fair share of refusals.
      expect(stats.accepted).toBeGreaterThan(stats.refused);
      expect(stats.refused).toBeGreaterThan(NUM_RUNS / 10);
      // ...and the heart of the rule: changes to a rating while the same customer rates the same entity elsewhere.
      expect(stats.shared).toBeGreaterThan(NUM_RUNS / 4);
      // ...the depth cap reached and refused past it, customers deleted (their notes turn anonymous),
      // and duplicate links refused (409 for an existing link, 400 for a target twice in one note).
      expect(stats.atDepthCap).toBeGreaterThanOrEqual(NUM_RUNS / 10);
      expect(stats.depthRefusals).toBeGreaterThanOrEqual(NUM_RUNS / 10);
      expect(stats.customerDeletes).toBeGreaterThanOrEqual(NUM_RUNS / 10);
      expect(stats.duplicateLinkRefusals).toBeGreaterThanOrEqual(NUM_RUNS / 10);
      // ...and the clean-up of subtree deletes, swept in the middle of sequences and at their end.
      expect(stats.sweeps).toBeGreaterThanOrEqual(NUM_RUNS / 10);
    },
    15 * 60_000,
  );
});
