// What a move into a workspace finds there: the records it has written so far or that clients made,
// read back from the table (a run resumed after a kill holds nothing of an earlier one in memory).
import { batchGetByKey, itemKeyId } from '../batch.ts';
import * as keys from '../keys.ts';
import { partitionPages } from '../query.ts';

type Listed = 'entity' | 'note';
const keyOf = (ws: string, kind: Listed, id: string) => (kind === 'entity' ? keys.entity(ws, id) : keys.note(ws, id));

/** The items of those of `ids` found in `ws` (consistent), by id, with `attributes` besides their key. */
async function foundOf(ws: string, kind: Listed, ids: readonly string[], attributes: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  const names = Object.fromEntries(['pk', 'sk', ...attributes].map((a, i) => [`#a${i}`, a]));
  const found = await batchGetByKey(
    ids.map((id) => keyOf(ws, kind, id)),
    { consistent: true, projection: { expression: Object.keys(names).join(', '), names } },
  );
  const out = new Map<string, Record<string, unknown>>();
  for (const id of ids) {
    const item = found.get(itemKeyId(keyOf(ws, kind, id)));
    if (item) out.set(id, item);
  }
  return out;
}

/** A hierarchy entity or customer as an import names and finds it. */
export interface PresentEntity {
  id: string;
  type: string;
  name: string;
  parentId?: string;
  /** Lower-cased. */
  email?: string;
  /** Lower-cased. */
  domain?: string;
  /** Its delete has begun. */
  deleting: boolean;
}

/** Every entity of `ws`, deleted ones included with `deleting` set. */
export async function presentEntities(ws: string): Promise<PresentEntity[]> {
  const out: PresentEntity[] = [];
  for await (const page of partitionPages(ws, keys.kindPrefix.entity)) {
    for (const it of page) {
      const f = (it.fields ?? {}) as Record<string, unknown>;
      out.push({
        id: it.id as string,
        type: it.type as string,
        name: typeof f.name === 'string' ? f.name : '',
        ...(it.parentId ? { parentId: it.parentId as string } : {}),
        ...(typeof f.email === 'string' ? { email: f.email.toLowerCase() } : {}),
        ...(typeof f.domain === 'string' ? { domain: f.domain.toLowerCase() } : {}),
        deleting: it.deleting !== undefined,
      });
    }
  }
  return out;
}

/** An entity a bulk move has written: one small entry per entity. */
export interface LoadedEntity {
  type: string;
  parentId: string | undefined;
  /** The parent's type as the entity's record gave it. */
  parentType: string | undefined;
}

/** Every entity of `ws` by id: its type and parent. */
export async function loadedEntities(ws: string): Promise<Map<string, LoadedEntity>> {
  const out = new Map<string, LoadedEntity>();
  for await (const page of partitionPages(ws, keys.kindPrefix.entity, ['id', 'type', 'parentId', 'parentType']))
    for (const it of page)
      out.set(it.id as string, { type: it.type as string, parentId: it.parentId as string | undefined, parentType: it.parentType as string | undefined });
  return out;
}

/** The ids of every entity or every note of `ws`. */
export async function presentIds(ws: string, kind: Listed): Promise<Set<string>> {
  const out = new Set<string>();
  for await (const page of partitionPages(ws, keys.kindPrefix[kind], ['id'])) for (const it of page) out.add(it.id as string);
  return out;
}

/** Those of `ids` (entities or notes) that exist in `ws`. */
export async function presentOf(ws: string, kind: Listed, ids: readonly string[]): Promise<Set<string>> {
  return new Set((await foundOf(ws, kind, ids, [])).keys());
}

/** Those of the entities `ids` that are gone from `ws` or being deleted. */
export async function goneOf(ws: string, ids: readonly string[]): Promise<Set<string>> {
  const found = await foundOf(ws, 'entity', ids, ['deleting']);
  return new Set(ids.filter((id) => !found.has(id) || found.get(id)!.deleting !== undefined));
}

/** The stored total of each of the hierarchy entities `ids` (those not found, or without one, left out). */
export async function entityTotals(ws: string, ids: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [id, item] of await foundOf(ws, 'entity', ids, ['total'])) if (typeof item.total === 'number') out.set(id, item.total);
  return out;
}

/** The notes through which each customer rates each entity, by `entityId#customerId` (none: absent). */
export async function ratingNotes(ws: string, pairs: ReadonlyArray<{ entityId: string; customerId: string }>): Promise<Map<string, Set<string>>> {
  const found = await batchGetByKey(
    pairs.map((p) => keys.rating(ws, p.entityId, p.customerId)),
    { consistent: true },
  );
  const out = new Map<string, Set<string>>();
  for (const p of pairs) {
    const item = found.get(itemKeyId(keys.rating(ws, p.entityId, p.customerId)));
    if (item) out.set(`${p.entityId}#${p.customerId}`, new Set(Object.keys(item.entries ?? {})));
  }
  return out;
}
