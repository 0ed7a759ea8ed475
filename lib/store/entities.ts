// Entity items and the hierarchy reads the aggregate writes build on. Item layout: see
// lib/store/keys.ts (entity) and the aggregate fields documented in lib/store/aggregates.ts.
import { batchGetByKey } from './batch.ts';
import { getItem } from './calls.ts';
import * as keys from './keys.ts';
import { prereadFor, type Prereads } from './preread.ts';
import { queryAll, type StoredItem } from './query.ts';
import { tableName } from './table.ts';
import type { StoredEntity } from '../domain/entity-view.ts';
import { versionOf } from '../domain/etag.ts';
import { MAX_DEPTH, type EntityType } from '../domain/hierarchy.ts';

export interface EntityItem extends StoredEntity {
  type: EntityType;
  /** Hierarchy entities: own contribution and subtree total (lib/store/aggregates.ts). */
  own?: number;
  total?: number;
  /** Set when a delete has started: the entity is gone for every reader from then on. */
  deleting?: string;
  /** Planning entities whose demand is read: how many times their links changed (lib/store/relations.ts). */
  linkRev?: number;
  /** On the root of a subtree delete: when the whole subtree was marked (lib/store/cascade.ts). */
  goneAt?: string;
  /**
   * False while no child was ever created under it or moved to it (every such write sets it in its
   * transaction): a subtree delete does not look for its children (lib/store/cascade.ts). Absent on
   * items older than the flag: unknown.
   */
  hadChildren?: boolean;
  /**
   * How many times an entity was created under it or moved under it, at any depth (every such write
   * counts it in its transaction). A move measures the subtree it moves through the children index,
   * which a create may outrun; conditioning the move on this count makes such a create retry it.
   * Absent: never counted (0).
   */
  growth?: number;
}

/** An entity item as the store wrote it (lib/store/keys.ts entity), typed; `kind` is checked by the reader. */
export function toEntity(item: StoredItem): EntityItem {
  const e = item as Partial<EntityItem>;
  return {
    id: e.id!,
    type: e.type!,
    ...(e.parentId ? { parentId: e.parentId, parentType: e.parentType! } : {}),
    fields: e.fields ?? {},
    ...(e.metadata ? { metadata: e.metadata } : {}),
    createdAt: e.createdAt!,
    updatedAt: e.updatedAt!,
    ...(typeof e.own === 'number' ? { own: e.own } : {}),
    ...(typeof e.total === 'number' ? { total: e.total } : {}),
    ...(e.deleting ? { deleting: e.deleting } : {}),
    ...(typeof e.linkRev === 'number' ? { linkRev: e.linkRev } : {}),
    ...(e.goneAt ? { goneAt: e.goneAt } : {}),
    ...(typeof e.hadChildren === 'boolean' ? { hadChildren: e.hadChildren } : {}),
    ...(typeof e.growth === 'number' ? { growth: e.growth } : {}),
  };
}

/** The entity's version (its ETag, lib/domain/etag.ts): its fields' `updatedAt` and the entities placed under it since. */
export const entityVersion = (e: EntityItem): string => versionOf(e.updatedAt, e.growth);

/**
 * Condition: an entity's `growth` is still `growth` as read (absent counts as 0), so no entity was
 * placed under it since; `at` names the value's placeholder.
 */
export function growthIs(growth: number | undefined, values: Record<string, unknown>, at = ':growth'): string {
  values[at] = growth ?? 0;
  return `(attribute_not_exists(growth) OR growth = ${at})`;
}

export const isEntityItem = (item: StoredItem | undefined): item is StoredItem => item?.kind === 'entity';

/** A time strictly after `was`, so a record's `updatedAt` changes with every write (it conditions the next). */
export function nextUpdatedAt(was: string): string {
  const now = new Date();
  const before = Date.parse(was);
  return (now.getTime() > before ? now : new Date(before + 1)).toISOString();
}

/** The raw entity item, deleting or not (consistent read). */
export async function readEntityItem(ws: string, id: string, preread?: Prereads): Promise<EntityItem | undefined> {
  const key = keys.entity(ws, id);
  const { Item } = prereadFor(preread, key) ?? (await getItem({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return isEntityItem(Item) ? toEntity(Item) : undefined;
}

/** The entity items of `ids` found (by id; consistent reads, 100 per BatchGetItem), deleting ones included. */
export async function readEntityItems(ws: string, ids: readonly string[]): Promise<Map<string, EntityItem>> {
  const found = await batchGetByKey(
    ids.map((id) => keys.entity(ws, id)),
    { consistent: true },
  );
  const out = new Map<string, EntityItem>();
  for (const item of found.values()) if (isEntityItem(item)) out.set(item.id as string, toEntity(item));
  return out;
}

/** A live entity (not being deleted), or undefined. */
export async function getEntity(ws: string, id: string, preread?: Prereads): Promise<EntityItem | undefined> {
  const e = await readEntityItem(ws, id, preread);
  return e && !e.deleting ? e : undefined;
}

/**
 * The entity and its ancestors, nearest first, as read now (consistent reads, one per level).
 * A corrupt cycle or an over-deep chain is cut at MAX_DEPTH + 1 levels. `complete` is false when an
 * ancestor item is missing (the entity belongs to a subtree whose delete is finishing).
 */
export async function readChain(ws: string, id: string): Promise<{ chain: EntityItem[]; complete: boolean }> {
  const chain: EntityItem[] = [];
  let next: string | undefined = id;
  while (next !== undefined && chain.length <= MAX_DEPTH) {
    const e = await readEntityItem(ws, next);
    if (!e) return { chain, complete: false };
    chain.push(e);
    next = e.parentId;
  }
  return { chain, complete: next === undefined };
}

/** Ids of an entity's children (GSI2; eventually consistent). */
export async function childIds(ws: string, parentId: string): Promise<string[]> {
  const items = await queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': keys.childrenOf(ws, parentId) },
    ProjectionExpression: 'id',
  });
  return items.map((it) => it.id as string);
}

/** The subtree under `rootId` (root first, breadth first), its levels (levels[0] = [root]) and height. */
export async function subtree(ws: string, rootId: string): Promise<{ ids: string[]; levels: string[][]; height: number }> {
  const ids = [rootId];
  const levels: string[][] = [];
  let level = [rootId];
  const seen = new Set(ids);
  while (level.length > 0) {
    levels.push(level);
    const found = await Promise.all(level.map((id) => childIds(ws, id)));
    const next: string[] = [];
    for (const c of found.flat()) {
      if (seen.has(c)) continue;
      seen.add(c);
      next.push(c);
      ids.push(c);
    }
    level = next;
  }
  return { ids, levels, height: levels.length };
}

/** Where an entity stands in the hierarchy: what a transaction conditions on (placeCondition). */
export type Placement = Pick<EntityItem, 'id' | 'type' | 'parentId' | 'parentType' | 'deleting'>;

/** Conditions that hold while an entity stays where it was read: same parent, not being deleted. */
export function placeCondition(e: Placement, prefix: string) {
  const values: Record<string, unknown> = {};
  let expr = 'attribute_exists(pk)';
  if (e.parentId) {
    expr += ` AND parentId = ${prefix}p`;
    values[`${prefix}p`] = e.parentId;
  } else expr += ' AND attribute_not_exists(parentId)';
  if (!e.deleting) expr += ' AND attribute_not_exists(deleting)';
  return { expr, values };
}
