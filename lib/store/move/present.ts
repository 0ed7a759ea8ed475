// What a move into a workspace already finds there: the records an import links to or must not write
// twice, read back from the table (a run resumed after a kill holds nothing of an earlier one).
import { batchGetByKey, itemKeyId } from '../batch.ts';
import { queryPages } from '../calls.ts';
import * as keys from '../keys.ts';
import { tableName } from '../table.ts';

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

/** Every entity of `ws` (consistent), deleted ones included with `deleting` set. */
export async function presentEntities(ws: string): Promise<PresentEntity[]> {
  const out: PresentEntity[] = [];
  for await (const page of queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': keys.kindPrefix.entity },
    ConsistentRead: true,
  })) {
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

type Listed = 'entity' | 'note';
const keyOf = (ws: string, kind: Listed, id: string) => (kind === 'entity' ? keys.entity(ws, id) : keys.note(ws, id));

/** The ids of every entity or every note of `ws`. */
export async function presentIds(ws: string, kind: Listed): Promise<Set<string>> {
  const out = new Set<string>();
  for await (const page of queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': keys.kindPrefix[kind] },
    ProjectionExpression: 'id',
    ConsistentRead: true,
  }))
    for (const it of page) out.add(it.id as string);
  return out;
}

/** Those of `ids` (entities or notes) that exist in `ws`. */
export async function presentOf(ws: string, kind: Listed, ids: readonly string[]): Promise<Set<string>> {
  const found = await batchGetByKey(
    ids.map((id) => keyOf(ws, kind, id)),
    { consistent: true, projection: { expression: '#pk, #sk', names: { '#pk': 'pk', '#sk': 'sk' } } },
  );
  return new Set(ids.filter((id) => found.has(itemKeyId(keyOf(ws, kind, id)))));
}

/** Those of the entities `ids` that are gone from `ws` or being deleted. */
export async function goneOf(ws: string, ids: readonly string[]): Promise<Set<string>> {
  const found = await batchGetByKey(
    ids.map((id) => keys.entity(ws, id)),
    { consistent: true, projection: { expression: '#pk, #sk, deleting', names: { '#pk': 'pk', '#sk': 'sk' } } },
  );
  return new Set(
    ids.filter((id) => {
      const item = found.get(itemKeyId(keys.entity(ws, id)));
      return item === undefined || item.deleting !== undefined;
    }),
  );
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

/** The stored total of each of the hierarchy entities `ids` (those not found, or without one, left out). */
export async function entityTotals(ws: string, ids: readonly string[]): Promise<Map<string, number>> {
  const found = await batchGetByKey(
    ids.map((id) => keys.entity(ws, id)),
    { consistent: true, projection: { expression: '#pk, #sk, #t', names: { '#pk': 'pk', '#sk': 'sk', '#t': 'total' } } },
  );
  const out = new Map<string, number>();
  for (const id of ids) {
    const item = found.get(itemKeyId(keys.entity(ws, id)));
    if (typeof item?.total === 'number') out.set(id, item.total);
  }
  return out;
}
