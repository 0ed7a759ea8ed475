// The customer demand behind a plan (README.md, "Customer demand"): for an initiative, objective,
// key result or release, the sum of the customer scores of the product hierarchy entities linked to
// it, an entity counted once when one of its linked ancestors is linked too (its score is in that
// ancestor's already). Pure: lib/store/demand.ts reads the items in one snapshot and this sums them.
import { isHierarchyType, MAX_DEPTH, type EntityType } from './hierarchy.ts';

/** The types whose demand GET /v2/entities/{id}/demand answers: the planning entities that take links. */
const DEMAND_TYPES = ['initiative', 'objective', 'keyResult', 'release'] as const satisfies readonly EntityType[];
type DemandType = (typeof DEMAND_TYPES)[number];

export const isDemandType = (t: unknown): t is DemandType => (DEMAND_TYPES as readonly unknown[]).includes(t);

/** The rule, as the OpenAPI document states it with the operation. */
export const DEMAND_RULE =
  'Extension (Productboard has no such resource). The sum of the customer scores of the product hierarchy entities (products, components, ' +
  'features, subfeatures) linked to an initiative, objective, key result or release, each entity counted once: one whose ancestor is linked ' +
  "too is already in that ancestor's score. Links of its children (an objective's key results) and of linked planning entities are not followed. " +
  'Read in one isolated TransactGetItems when the entity, the linked entities and their ancestors are at most 100 items: the sum is then exact ' +
  'at one moment (pointInTime: true); above that the items are read separately, each exact as read, the sum not of one moment (pointInTime: false).';

/** An entity as the snapshot read it: what the rule needs. */
export interface PlacedEntity {
  id: string;
  type: string;
  parentId?: string | undefined;
  /** Its subtree's score (the stored total). */
  score: number;
  deleting?: boolean | undefined;
}

/**
 * What the snapshot says of an id: the entity, `null` when the read found no item (deleted), or
 * undefined when the id was not read (the caller must read it and sum again).
 */
type SnapshotLookup = (id: string) => PlacedEntity | null | undefined;

export interface Demand {
  demand: number;
  /** The linked entities whose scores make the sum, in the order given. */
  counted: string[];
  /** The live linked product hierarchy entities (counted ones and those under a linked ancestor), in the order given. */
  live: string[];
}

/**
 * The demand of the linked ids under `read`, or the ids the snapshot lacks (ancestors not read yet:
 * read them and sum again). A linked entity counts when it is a live product hierarchy entity — it
 * and every ancestor found and not being deleted — and no proper ancestor of it is linked.
 */
export function demandOf(linkedIds: readonly string[], read: SnapshotLookup): Demand | { missing: string[] } {
  const linked = new Set(linkedIds);
  const missing = new Set<string>();
  const live: Array<{ id: string; score: number; ancestors: string[] }> = [];
  for (const id of linked) {
    const e = read(id);
    if (e === undefined) {
      missing.add(id);
      continue;
    }
    if (e === null || e.deleting || !isHierarchyType(e.type)) continue;
    const ancestors: string[] = [];
    let alive = true;
    for (let next = e.parentId; next !== undefined && alive;) {
      // A chain longer than the cap is corrupt: read as not live rather than walked for ever.
      if (ancestors.length >= MAX_DEPTH) {
        alive = false;
        break;
      }
      const a = read(next);
      if (a === undefined) {
        missing.add(next);
        alive = false;
      } else if (a === null || a.deleting) alive = false;
      else {
        ancestors.push(a.id);
        next = a.parentId;
      }
    }
    if (alive) live.push({ id, score: e.score, ancestors });
  }
  if (missing.size > 0) return { missing: [...missing] };
  const counted = live.filter((e) => !e.ancestors.some((a) => linked.has(a)));
  return { demand: counted.reduce((sum, e) => sum + e.score, 0), counted: counted.map((e) => e.id), live: live.map((e) => e.id) };
}
