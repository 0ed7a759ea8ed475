// Relations between entities (link, isBlockedBy, isBlocking; lib/domain/relations.ts says which
// types): two items per relation, one on each side (keys.relation), created and deleted in one
// transaction together with checks that both entities are live. They do not touch the score. A
// side whose customer demand is read (lib/domain/demand.ts: initiatives, objectives, key results,
// releases) counts every change of its links in the same transaction (`linkRev`), which is how the
// demand's read knows the links it listed are still those of its snapshot (lib/store/demand.ts).
// A cascade delete removes both sides of every relation of a deleted entity (lib/store/cascade.ts).
import { Plan } from './aggregates.ts';
import { getItem } from './calls.ts';
import { getEntity, readChain, type EntityItem } from './entities.ts';
import { transactOnce, type WriteScope } from './idempotency.ts';
import * as keys from './keys.ts';
import { partitionItems, partitionPages, type StoredItem } from './query.ts';
import { tableName } from './table.ts';
import { transact, type TxItem } from './tx.ts';
import { isDemandType } from '../domain/demand.ts';
import { Conflict, NotFound, pointer, type Path } from '../domain/errors.ts';
import type { EntityType } from '../domain/hierarchy.ts';
import { invalid } from '../domain/input.ts';
import { contradictionOf, contradictionProblem, mirrorOf, relationViolation, type RelationType } from '../domain/relations.ts';

export interface RelationItem {
  entityId: string;
  /** The side's own type (items written before planning entities existed lack it). */
  entityType?: EntityType;
  type: RelationType;
  targetId: string;
  targetType: EntityType;
  createdAt: string;
}

export function toRelation(item: StoredItem): RelationItem {
  const r = item as Partial<RelationItem>;
  return {
    entityId: r.entityId!,
    ...(r.entityType ? { entityType: r.entityType } : {}),
    type: r.type!,
    targetId: r.targetId!,
    targetType: r.targetType!,
    createdAt: r.createdAt!,
  };
}

const relationItem = (ws: string, r: RelationItem) => ({ ...keys.relation(ws, r.entityId, r.type, r.targetId), kind: 'relation', ...r });

async function readRelation(ws: string, entityId: string, type: RelationType, targetId: string): Promise<RelationItem | undefined> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.relation(ws, entityId, type, targetId), ConsistentRead: true });
  return Item ? toRelation(Item) : undefined;
}

/** A live entity whose ancestors are live too (not inside a subtree being deleted), or NotFound (at `path`, where the request names it). */
async function liveEntity(ws: string, id: string, path?: Path): Promise<EntityItem> {
  const { chain, complete } = await readChain(ws, id);
  if (!chain.length || !complete || chain.some((e) => e.deleting)) throw new NotFound('entity', id, undefined, path ? pointer(path) : undefined);
  return chain[0]!;
}

/**
 * The sides of a relation change in `plan`: each must still stand where it was read and not be
 * deleted, and a side whose demand is read counts the change (`linkRev`).
 */
export function relationSides(plan: Plan, sides: readonly EntityItem[]): void {
  for (const e of sides) {
    const d = plan.entity(e);
    if (isDemandType(e.type)) d.bumpLinkRev = true;
  }
}

/** The two items of a new relation, each required not to exist yet. */
export function relationPuts(
  ws: string,
  source: { id: string; type: EntityType },
  type: RelationType,
  target: { id: string; type: EntityType },
  createdAt: string,
): TxItem[] {
  const mine: RelationItem = { entityId: source.id, entityType: source.type, type, targetId: target.id, targetType: target.type, createdAt };
  const theirs: RelationItem = { entityId: target.id, entityType: target.type, type: mirrorOf(type), targetId: source.id, targetType: source.type, createdAt };
  return [mine, theirs].map((r) => ({ Put: { TableName: tableName(), Item: relationItem(ws, r), ConditionExpression: 'attribute_not_exists(pk)' } }));
}

/**
 * Checks a relation that `source` (already read, live) is about to get: the target is live, the
 * pair may be related so, and neither this relation nor its contradiction exists. `path` locates
 * the target id in the request. Returns the target.
 */
export async function checkNewRelation(
  ws: string,
  source: { id: string; type: EntityType },
  type: RelationType,
  targetId: string,
  path: Path,
): Promise<EntityItem> {
  if (targetId === source.id) invalid(path, `An entity cannot have a ${type} relationship with itself.`);
  const target = await liveEntity(ws, targetId, path);
  const why = relationViolation(source, type, target);
  if (why) invalid(path, why);
  const contradiction = contradictionOf(type);
  const [existing, contradicting] = await Promise.all([
    readRelation(ws, source.id, type, targetId),
    contradiction ? readRelation(ws, source.id, contradiction, targetId) : undefined,
  ]);
  if (existing) throw new Conflict(`Entity ${source.id} already has a relationship of type ${type} with entity ${targetId}.`);
  if (contradicting) invalid(path, contradictionProblem(source.id, contradicting.type, targetId));
  return target;
}

/** Relates `entityId` to `targetId` (both sides, one transaction). An existing relation is a Conflict. */
export async function createRelation(
  ws: string,
  entityId: string,
  type: RelationType,
  targetId: string,
  path: Path,
  scope?: WriteScope,
): Promise<RelationItem> {
  return transactOnce(
    'createRelation',
    async () => {
      const source = await liveEntity(ws, entityId);
      const target = await checkNewRelation(ws, source, type, targetId, path);
      const createdAt = new Date().toISOString();
      const plan = new Plan(ws);
      for (const item of relationPuts(ws, source, type, target, createdAt)) plan.add(item);
      relationSides(plan, [source, target]);
      return { items: plan.build(), result: { entityId, entityType: source.type, type, targetId, targetType: target.type, createdAt } };
    },
    scope,
  );
}

/** Removes a relation (both sides); NotFound when the entity has no such relation. */
export async function deleteRelation(ws: string, entityId: string, type: RelationType, targetId: string, scope?: WriteScope): Promise<void> {
  await transact(
    'deleteRelation',
    async () => {
      const source = await liveEntity(ws, entityId);
      const mine = await readRelation(ws, entityId, type, targetId);
      if (!mine) throw new NotFound('relationship', targetId, `Entity ${entityId} has no ${type} relationship with entity ${targetId}.`);
      // A target whose delete has begun is left alone: the cascade removes its relations anyway.
      const target = await getEntity(ws, targetId);
      const plan = new Plan(ws);
      for (const Key of relationDeletes(ws, mine)) plan.add({ Delete: { TableName: tableName(), Key } });
      relationSides(plan, target ? [source, target] : [source]);
      return { items: plan.build(), result: undefined };
    },
    scope?.deadline,
  );
}

/** The keys of both sides of a relation. */
export const relationDeletes = (ws: string, r: Pick<RelationItem, 'entityId' | 'type' | 'targetId'>) => [
  keys.relation(ws, r.entityId, r.type, r.targetId),
  keys.relation(ws, r.targetId, mirrorOf(r.type), r.entityId),
];

/**
 * The relations of any of the entities `ids`, by entity: one consistent pass over the workspace's
 * relation items, keeping only theirs — for many entities at once (a subtree's clean-up), one page
 * per megabyte of relations instead of one Query per entity.
 */
export async function relationsOfAny(ws: string, ids: ReadonlySet<string>): Promise<Map<string, RelationItem[]>> {
  const out = new Map<string, RelationItem[]>();
  for await (const page of partitionPages(ws, keys.relationsPrefix))
    for (const item of page) {
      const r = toRelation(item);
      if (ids.has(r.entityId)) out.set(r.entityId, [...(out.get(r.entityId) ?? []), r]);
    }
  return out;
}

/** Every relation of an entity (consistent). A subtree's clean-up reads a large group's at once: relationsOfAny. */
export async function relationsOf(ws: string, entityId: string): Promise<RelationItem[]> {
  const items = await partitionItems(ws, keys.relationsOfPrefix(entityId));
  return items.map(toRelation);
}
