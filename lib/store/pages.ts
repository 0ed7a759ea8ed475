// Keyset reads for the lists (lib/http/pagination.ts carries the position in a cursor). Every list
// is ordered by an immutable sort key (`${createdAt}#${id}` on GSI1/GSI2, the sk for a note's
// links), and a page is "the next N items after the last key seen", so a walk returns every item
// that existed when it began exactly once, whatever is inserted meanwhile.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ENTITY_TYPES, PARENT_RULES } from '../domain/hierarchy.ts';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';

export type Item = Record<string, any>;

interface KeysetQuery {
  index?: 'gsi1' | 'gsi2';
  partitionKey: string;
  partitionValue: string;
  sortKey: string;
  /** Exclusive lower bound of the sort key. */
  after?: string | undefined;
  /** Items must start with this prefix (base-table ranges such as LINK#<note>#). */
  prefix?: string;
  /** At most this many items are returned. */
  count: number;
  /** Items kept (applied in memory, so `count` counts kept items). */
  keep?: (item: Item) => boolean;
}

/** Up to `count` items after `after`, in sort-key order, skipping those `keep` rejects. */
export async function queryAfter(q: KeysetQuery): Promise<Item[]> {
  const out: Item[] = [];
  const values: Record<string, unknown> = { ':pk': q.partitionValue };
  let condition = '#pk = :pk';
  const names: Record<string, string> = { '#pk': q.partitionKey };
  if (q.after !== undefined || q.prefix !== undefined) names['#sk'] = q.sortKey;
  // The lower bound is the later of `after` and the prefix; the prefix also bounds above.
  const lower = q.after !== undefined && (q.prefix === undefined || q.after >= q.prefix) ? q.after : undefined;
  if (q.prefix !== undefined && lower === undefined) {
    condition += ' AND begins_with(#sk, :prefix)';
    values[':prefix'] = q.prefix;
  } else if (lower !== undefined) {
    condition += ' AND #sk > :after';
    values[':after'] = lower;
  }
  let start: Item | undefined;
  do {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...(q.index ? { IndexName: q.index } : {}),
        KeyConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        // Without a filter exactly one more than needed tells the caller whether a next page exists.
        Limit: q.keep ? Math.max(q.count * 2, 25) : q.count,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) {
      if (q.prefix !== undefined && !String(item[q.sortKey]).startsWith(q.prefix)) return out;
      if (!q.keep || q.keep(item)) out.push(item);
      if (out.length >= q.count) return out;
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

/** Items whose delete has begun are gone for every reader (lib/store/cascade.ts, notes.ts). */
const live = (item: Item) => !item.deleting;

/** The sort key of an entity or note in its GSI1 list. */
export const listKeyOf = (item: Item): string => String(item.gsi1sk);

/**
 * Entities of the given types after `after`, merged in one order across the per-type partitions
 * of GSI1 (the same `${createdAt}#${id}` string orders all of them).
 */
export async function entitiesAfter(
  workspaceId: string,
  types: readonly string[],
  after: string | undefined,
  count: number,
  filter?: (item: Item) => boolean,
): Promise<Item[]> {
  const keep = (item: Item) => live(item) && (!filter || filter(item));
  const perType = await Promise.all(
    types.map((type) =>
      queryAfter({
        index: 'gsi1',
        partitionKey: 'gsi1pk',
        partitionValue: keys.entitiesOfType(workspaceId, type),
        sortKey: 'gsi1sk',
        after,
        count,
        keep,
      }),
    ),
  );
  return perType
    .flat()
    .sort((a, b) => (listKeyOf(a) < listKeyOf(b) ? -1 : listKeyOf(a) > listKeyOf(b) ? 1 : 0))
    .slice(0, count);
}

/** Notes of a workspace after `after`, oldest first. */
export function notesAfter(workspaceId: string, after: string | undefined, count: number): Promise<Item[]> {
  return queryAfter({ index: 'gsi1', partitionKey: 'gsi1pk', partitionValue: keys.notesOf(workspaceId), sortKey: 'gsi1sk', after, count, keep: live });
}

/** Children of an entity after `after` (their GSI2 sort key), oldest first. */
export function childrenAfter(workspaceId: string, parentId: string, after: string | undefined, count: number): Promise<Item[]> {
  return queryAfter({ index: 'gsi2', partitionKey: 'gsi2pk', partitionValue: keys.childrenOf(workspaceId, parentId), sortKey: 'gsi2sk', after, count, keep: live });
}

/** A note's links after `after` (their sk), ordered by entity id. */
export function noteLinksAfter(workspaceId: string, noteId: string, after: string | undefined, count: number): Promise<Item[]> {
  const { pk, sk: prefix } = keys.link(workspaceId, noteId, '');
  return queryAfter({ partitionKey: 'pk', partitionValue: pk, sortKey: 'sk', prefix, after, count });
}

/** One relationship of an entity as stored: its position in the entity's list and its target. */
export interface StoredRelationship {
  /** Parent first ('0'), then children by their GSI2 key ('1' + gsi2sk). */
  key: string;
  type: 'parent' | 'child';
  target: { id: string; type: string };
}

const PARENT_KEY = '0';

/** Types no other type may sit under (subfeature, user): their children are not queried. */
const mayHaveChildren = (type: string | undefined) => type === undefined || ENTITY_TYPES.some((t) => (PARENT_RULES[t].parents as readonly string[]).includes(type));
const childKey = (item: Item) => `1${String(item.gsi2sk)}`;

/**
 * Up to `count` relationships of an entity after position `after`: its parent (one, if any)
 * then its children oldest first; `only` keeps one kind.
 */
export async function entityRelationshipsAfter(
  workspaceId: string,
  entity: { id: string; type?: string; parentId?: string | undefined; parentType?: string | undefined },
  only: 'parent' | 'child' | undefined,
  after: string | undefined,
  count: number,
): Promise<StoredRelationship[]> {
  const out: StoredRelationship[] = [];
  if (only !== 'child' && entity.parentId && entity.parentType && (after === undefined || after < PARENT_KEY)) {
    out.push({ key: PARENT_KEY, type: 'parent', target: { id: entity.parentId, type: entity.parentType } });
  }
  if (only !== 'parent' && out.length < count && mayHaveChildren(entity.type)) {
    const childAfter = after !== undefined && after.startsWith('1') ? after.slice(1) : undefined;
    const children = await childrenAfter(workspaceId, entity.id, childAfter, count - out.length);
    for (const c of children) out.push({ key: childKey(c), type: 'child', target: { id: String(c.id), type: String(c.type) } });
  }
  return out;
}

export interface StoredNoteRelationship {
  /** Customer first ('0'), then links by their sk ('1' + sk, i.e. by entity id). */
  key: string;
  type: 'customer' | 'link';
  target: { id: string; type: string };
  importance?: string;
}

/** Up to `count` relationships of a note after `after`: its customer (if any), then its links. */
export async function noteRelationshipsAfter(
  workspaceId: string,
  note: Item,
  only: 'customer' | 'link' | undefined,
  after: string | undefined,
  count: number,
): Promise<StoredNoteRelationship[]> {
  const out: StoredNoteRelationship[] = [];
  const customer = note.customer as { id?: string; type?: string } | undefined;
  if (only !== 'link' && customer?.id && customer.type && (after === undefined || after < PARENT_KEY)) {
    out.push({ key: PARENT_KEY, type: 'customer', target: { id: customer.id, type: customer.type } });
  }
  if (only !== 'customer' && out.length < count) {
    const linkAfter = after !== undefined && after.startsWith('1') ? after.slice(1) : undefined;
    const links = await noteLinksAfter(workspaceId, String(note.id), linkAfter, count - out.length);
    for (const l of links) {
      out.push({ key: `1${String(l.sk)}`, type: 'link', target: { id: String(l.entityId), type: String(l.entityType) }, importance: String(l.importance) });
    }
  }
  return out;
}
