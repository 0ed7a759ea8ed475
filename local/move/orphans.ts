// What an import leaves out once every entity is in, so the workspace holds no reference a read
// cannot follow and its export restores (restore refuses such a file, lib/domain/export-file-check.ts):
// an entity whose parent was not written — never listed, or left out by ./admission.ts — or is of a
// type the rules do not give it (lib/domain/hierarchy.ts), with everything under it; one past the
// depth cap, with everything under it; and every relation with a side not kept. An entity that needs
// no parent (a customer under an unlisted company) keeps itself and loses the parent. The entities'
// listing is read and written a page at a time, so a parent is known to be missing only at its end.
import { MAX_DEPTH, PARENT_RULES, parentRuleViolation, type EntityType } from '#lib/domain/hierarchy.ts';
import { dropDangling, relationSides, type RelationSide } from '#lib/store/move/dangling.ts';
import { loadedEntities, type LoadedEntity } from '#lib/store/move/present.ts';

const ORPHAN_REASONS = {
  parent: 'entities under a parent not imported (left out, with what is under them)',
  parentType: 'entities under a parent of a type they cannot have (left out, with what is under them)',
  cycle: 'entities whose parents lead back to themselves (left out, with what is under them)',
  depth: `entities deeper than ${MAX_DEPTH} levels (left out, with what is under them)`,
  unset: 'parents not imported, of entities that need none (left unset)',
  unsetType: 'parents of a type the entity cannot have, of entities that need none (left unset)',
  relation: 'relations to entities not imported',
} as const;

type Reason = keyof typeof ORPHAN_REASONS;

interface Orphans {
  /** The entities kept, as they will be once the orphans are dropped. */
  kept: Map<string, LoadedEntity>;
  /** What is left out or changed, by reason: entities, entities' parents, relations (each counted once, not per side). */
  report: Partial<Record<Reason, number>>;
  /** Takes the orphans out of the table (idempotent). */
  drop: () => Promise<void>;
}

/** Each entity's place: kept at a depth (1: no parent), or left out for a reason. */
type Place = { depth: number; unset?: Reason } | { out: Reason };

function placesOf(entities: Map<string, LoadedEntity>): Map<string, Place> {
  const places = new Map<string, Place>();
  /** The place of `e` given its parent's (undefined: none, or none written). */
  const placeUnder = (e: LoadedEntity, parent: LoadedEntity | undefined, parentPlace: Place | undefined): Place => {
    const rule = PARENT_RULES[e.type as EntityType];
    if (e.parentId === undefined) return rule?.required ? { out: 'parent' } : { depth: 1 };
    if (!parent || !parentPlace || 'out' in parentPlace) return rule?.required ? { out: 'parent' } : { depth: 1, unset: 'unset' };
    if (parent.type !== e.parentType || parentRuleViolation(e.type as EntityType, parent.type as EntityType))
      return rule?.required ? { out: 'parentType' } : { depth: 1, unset: 'unsetType' };
    return parentPlace.depth + 1 > MAX_DEPTH ? { out: 'depth' } : { depth: parentPlace.depth + 1 };
  };
  for (const start of entities.keys()) {
    // Up the parents to one already placed, to one without a written parent, or back onto the path (a cycle); then down again.
    const path: string[] = [];
    const onPath = new Set<string>();
    let id: string | undefined = start;
    while (id !== undefined && !places.has(id) && entities.has(id) && !onPath.has(id)) {
      path.push(id);
      onPath.add(id);
      id = entities.get(id)!.parentId;
    }
    if (id !== undefined && onPath.has(id)) {
      // Every entity of the cycle is out; those on the path below it are placed under it below.
      for (let i = path.indexOf(id); i < path.length; i++) places.set(path[i]!, { out: 'cycle' });
    }
    for (let i = path.length - 1; i >= 0; i--) {
      const e = entities.get(path[i]!)!;
      if (places.has(path[i]!)) continue;
      places.set(
        path[i]!,
        placeUnder(e, e.parentId === undefined ? undefined : entities.get(e.parentId), e.parentId === undefined ? undefined : places.get(e.parentId)),
      );
    }
  }
  return places;
}

/** The orphans of `ws` once every entity and relation is written; nothing is dropped until `drop()`. */
export async function orphansOf(ws: string): Promise<Orphans> {
  const entities = await loadedEntities(ws);
  const places = placesOf(entities);
  const report: Orphans['report'] = {};
  const count = (reason: Reason, n = 1) => (report[reason] = (report[reason] ?? 0) + n);
  const kept = new Map<string, LoadedEntity>();
  const out: string[] = [];
  const unset: string[] = [];
  for (const [id, e] of entities) {
    const place = places.get(id)!;
    if ('out' in place) {
      count(place.out);
      out.push(id);
    } else if (place.unset) {
      count(place.unset);
      unset.push(id);
      kept.set(id, { type: e.type, parentId: undefined, parentType: undefined });
    } else kept.set(id, e);
  }
  const relations: RelationSide[] = [];
  for await (const side of relationSides(ws)) if (!kept.has(side.entityId) || !kept.has(side.targetId)) relations.push(side);
  // A relation is two items, one per side; one with a side never written was still written as two.
  if (relations.length) count('relation', Math.ceil(relations.length / 2));
  return { kept, report, drop: () => dropDangling(ws, { entities: out, relations, parentsOf: unset }) };
}

/** The reasons of a report, in the words an import reports skips in. */
export const reasonsOf = (report: Orphans['report']): Array<[string, number]> =>
  Object.entries(report).map(([reason, n]) => [ORPHAN_REASONS[reason as Reason], n]);

/** How many entities and relations a report takes out of a run's counts. */
export const removedBy = (report: Orphans['report']): { entity: number; relation: number } => ({
  entity: (report.parent ?? 0) + (report.parentType ?? 0) + (report.cycle ?? 0) + (report.depth ?? 0),
  relation: report.relation ?? 0,
});
