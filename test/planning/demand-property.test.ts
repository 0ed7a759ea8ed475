// Property: under concurrent rating writes, moves and link changes, every answer of
// GET /v2/entities/{id}/demand is the demand of one state the workspace was in while the read ran —
// never a mix of two — as an independent model recomputes it from the raw facts (test/score/model.ts
// for the scores, the links of each plan here). One writer applies a random sequence of operations
// one after another, so the states are a sequence S0, S1, … and the model knows each; readers read
// the demand of a release and of an objective all the while. A read that began after k operations
// had answered and ended before operation m was sent must equal the demand of one of S_k … S_m.
// Replay a failure with FC_SEED=<seed> FC_PATH=<path>; DEMAND_RUNS overrides the count.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORTANCES, PARENT_RULES, ScoreModel, type EntityType, type Importance } from '../score/model.ts';
import { MAX_DEPTH } from '../score/system.ts';
import { call, newWorkspace, startApp, type TestApp } from '../support/app.ts';

/** The plans' links to the product hierarchy, over a score model: the demand from the raw facts. */
class DemandModel {
  readonly links = new Map<string, Set<string>>();

  constructor(readonly m: ScoreModel) {}

  linksOf(plan: string): Set<string> {
    let l = this.links.get(plan);
    if (!l) this.links.set(plan, (l = new Set()));
    return l;
  }

  ancestors(id: string): string[] {
    const out: string[] = [];
    for (let p = this.m.entities.get(id)?.parentId; p !== undefined; p = this.m.entities.get(p)?.parentId) out.push(p);
    return out;
  }

  /** Σ score(e) over the linked entities with no linked ancestor. */
  demand(plan: string): number {
    const linked = this.linksOf(plan);
    return [...linked].filter((e) => !this.ancestors(e).some((a) => linked.has(a))).reduce((sum, e) => sum + this.m.score(e), 0);
  }
}

type Op =
  | { op: 'rate'; note: number; entity: number; importance: Importance }
  | { op: 'unrate'; note: number; link: number }
  | { op: 'move'; entity: number; parent: number }
  | { op: 'link'; plan: number; entity: number }
  | { op: 'unlink'; plan: number; link: number }
  | { op: 'add'; parent: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('rate' as const), note: fc.nat(), entity: fc.nat(), importance: fc.constantFrom(...IMPORTANCES) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('unrate' as const), note: fc.nat(), link: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('move' as const), entity: fc.nat(), parent: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('link' as const), plan: fc.nat(1), entity: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('unlink' as const), plan: fc.nat(1), link: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('add' as const), parent: fc.nat() }) },
);

const at = <T>(xs: readonly T[], n: number): T | undefined => (xs.length ? xs[n % xs.length] : undefined);

/** A request of the writer: what it sends, and what the model does once it has answered. */
interface Write {
  method: string;
  path: string;
  body?: unknown;
  apply: (createdId: string | undefined) => void;
}

interface Read {
  plan: string;
  demand: number;
  pointInTime: boolean;
  /** Operations answered before the read was sent, and sent before it answered. */
  from: number;
  to: number;
}

const NUM_RUNS = Number(process.env.DEMAND_RUNS ?? 8);
const READERS = 3;

describe('customer demand: exact at a point in time under concurrent writes, against an independent model', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  it(
    'every read equals the demand of a state between the writes it overlapped; quiescent reads equal the model',
    async () => {
      const totals = { reads: 0, overlapping: 0, moves: 0, rates: 0, links: 0, runs: 0 };
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 12, maxLength: 30 }), async (ops) => {
          const ws = await newWorkspace();
          const req = async (method: string, path: string, body?: unknown) => {
            const res = await call(app, method, `/v2${path}`, { token: ws.token, ...(body === undefined ? {} : { body }) });
            expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
            return res;
          };
          const m = new ScoreModel(MAX_DEPTH);
          const d = new DemandModel(m);
          const entity = async (type: EntityType, parent?: string) => {
            const id = (
              await req('POST', '/entities', {
                data: { type, fields: { name: type }, ...(parent ? { relationships: [{ type: 'parent', target: { id: parent } }] } : {}) },
              })
            ).json.data.id as string;
            m.createEntity(id, type, parent);
            return id;
          };
          const plan = async (type: string, parent?: string) =>
            (
              await req('POST', '/entities', {
                data: { type, fields: { name: type }, ...(parent ? { relationships: [{ type: 'parent', target: { id: parent } }] } : {}) },
              })
            ).json.data.id as string;
          const link = async (p: string, e: string) => {
            await req('POST', `/entities/${p}/relationships`, { data: { type: 'link', target: { id: e } } });
            d.linksOf(p).add(e);
          };
          // Two product trees, customers with notes rating across them, a release and an objective linked in.
          const p1 = await entity('product');
          const p2 = await entity('product');
          const c1 = await entity('component', p1);
          const c2 = await entity('component', p2);
          const c3 = await entity('component', c1);
          const f1 = await entity('feature', c1);
          await entity('feature', c1);
          const f3 = await entity('feature', c2);
          const f4 = await entity('feature', c3);
          const s1 = await entity('subfeature', f1);
          await entity('subfeature', f1);
          await entity('subfeature', f3);
          const customers = [await entity('company'), await entity('company'), await entity('company')];
          const notes: string[] = [];
          for (const customer of [...customers, undefined]) {
            const id = (
              await req('POST', '/notes', {
                data: { type: 'textNote', fields: { name: 'n' }, relationships: customer ? [{ type: 'customer', target: { id: customer } }] : [] },
              })
            ).json.data.id as string;
            m.createNote(id, customer, []);
            notes.push(id);
          }
          for (const [n, e, imp] of [
            [0, f1, 'critical'],
            [1, s1, 'important'],
            [2, f3, 'nice to have'],
            [3, f4, 'unknown'],
            [0, c2, 'important'],
          ] as const) {
            await req('PUT', `/notes/${notes[n]!}/relationships/link/${e}`, { data: { importance: imp } });
            m.putLink(notes[n]!, e, imp);
          }
          const release = await plan('release', await plan('releaseGroup'));
          const objective = await plan('objective');
          const plans = [release, objective];
          for (const [p, e] of [
            [release, f1],
            [release, s1],
            [release, c2],
            [objective, p1],
            [objective, f3],
          ] as const)
            await link(p, e);

          /** The writer's next request for an abstract operation, resolved against the model now (undefined: nothing fits). */
          const resolve = (o: Op): Write | undefined => {
            const hierarchy = m.hierarchyIds();
            switch (o.op) {
              case 'rate': {
                const note = at(notes, o.note)!;
                const e = at(hierarchy, o.entity)!;
                return {
                  method: 'PUT',
                  path: `/notes/${note}/relationships/link/${e}`,
                  body: { data: { importance: o.importance } },
                  apply: () => m.putLink(note, e, o.importance),
                };
              }
              case 'unrate': {
                const note = at(notes, o.note)!;
                const l = at(m.linksOf(note), o.link);
                return l && { method: 'DELETE', path: `/notes/${note}/relationships/link/${l.entityId}`, apply: () => m.deleteLink(note, l.entityId) };
              }
              case 'move': {
                const movable = hierarchy.filter((id) => m.entities.get(id)!.type !== 'product');
                const id = at(movable, o.entity)!;
                const type = m.entities.get(id)!.type;
                const parents = hierarchy.filter(
                  (p) => PARENT_RULES[type].parents.includes(m.entities.get(p)!.type) && p !== m.entities.get(id)!.parentId && m.checkSetParent(id, p).ok,
                );
                const parent = at(parents, o.parent);
                return parent === undefined
                  ? undefined
                  : {
                      method: 'PUT',
                      path: `/entities/${id}/relationships/parent`,
                      body: { data: { target: { id: parent } } },
                      apply: () => m.setParent(id, parent),
                    };
              }
              case 'link': {
                const p = plans[o.plan]!;
                const e = at(
                  hierarchy.filter((h) => !d.linksOf(p).has(h)),
                  o.entity,
                );
                return e === undefined
                  ? undefined
                  : {
                      method: 'POST',
                      path: `/entities/${p}/relationships`,
                      body: { data: { type: 'link', target: { id: e } } },
                      apply: () => d.linksOf(p).add(e),
                    };
              }
              case 'unlink': {
                const p = plans[o.plan]!;
                const e = at([...d.linksOf(p)], o.link);
                return e === undefined ? undefined : { method: 'DELETE', path: `/entities/${p}/relationships/link/${e}`, apply: () => d.linksOf(p).delete(e) };
              }
              case 'add': {
                const features = hierarchy.filter((id) => m.entities.get(id)!.type === 'feature' && m.depth(id) < MAX_DEPTH);
                const parent = at(features, o.parent);
                return parent === undefined
                  ? undefined
                  : {
                      method: 'POST',
                      path: '/entities',
                      body: { data: { type: 'subfeature', fields: { name: 's' }, relationships: [{ type: 'parent', target: { id: parent } }] } },
                      apply: (id) => m.createEntity(id!, 'subfeature', parent),
                    };
              }
            }
          };

          // history.get(plan)[k]: the demand after k of the writer's requests had answered.
          const history = new Map(plans.map((p) => [p, [d.demand(p)]]));
          let sent = 0;
          let answered = 0;
          let writing = true;
          const reads: Read[] = [];
          const writer = (async () => {
            try {
              for (const o of ops) {
                const w = resolve(o);
                if (!w) continue;
                sent++;
                const res = await req(w.method, w.path, w.body);
                w.apply(res.json?.data?.id as string | undefined);
                for (const p of plans) history.get(p)!.push(d.demand(p));
                answered++;
                if (o.op === 'move') totals.moves++;
                else if (o.op === 'rate' || o.op === 'unrate') totals.rates++;
                else if (o.op === 'link' || o.op === 'unlink') totals.links++;
              }
            } finally {
              writing = false;
            }
          })();
          const reader = async (i: number) => {
            for (let n = i; writing; n++) {
              const p = plans[n % plans.length]!;
              const from = answered;
              const res = await call(app, 'GET', `/v2/entities/${p}/demand`, { token: ws.token });
              expect(res.status, res.text).toBe(200);
              reads.push({ plan: p, demand: res.json.data.fields.demand, pointInTime: res.json.data.fields.pointInTime, from, to: sent });
            }
          };
          await Promise.all([writer, ...Array.from({ length: READERS }, (_, i) => reader(i))]);

          for (const r of reads) {
            const states = history.get(r.plan)!.slice(r.from, r.to + 1);
            expect(
              states,
              `a read of ${r.plan === release ? 'the release' : 'the objective'} between operations ${r.from} and ${r.to} answered ${r.demand}`,
            ).toContain(r.demand);
            expect(r.pointInTime).toBe(true);
          }
          for (const p of plans) {
            const res = await req('GET', `/entities/${p}/demand`);
            expect(res.json.data.fields.demand).toBe(d.demand(p));
          }
          totals.reads += reads.length;
          totals.overlapping += reads.filter((r) => r.to > r.from).length;
          totals.runs++;
        }),
        {
          numRuns: NUM_RUNS,
          ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
          ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
          endOnFailure: process.env.FC_NO_SHRINK === '1',
        },
      );
      if (process.env.FC_PATH) return;
      // The runs did race: reads overlapped writes of every kind.
      expect(totals.runs).toBeGreaterThanOrEqual(NUM_RUNS);
      expect(totals.overlapping).toBeGreaterThan(NUM_RUNS * 5);
      expect(Math.min(totals.moves, totals.rates, totals.links)).toBeGreaterThan(NUM_RUNS);
    },
    20 * 60_000,
  );
});
