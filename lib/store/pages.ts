// Keyset reads for the lists (lib/http/pagination.ts carries the position in a cursor). Every list
// is ordered by a sort key that a record keeps while it stays in the list (keys.listPosition on
// GSI1/GSI2, the sk for a note's links), and a page is "the next N records after the last position
// seen", so a walk returns every record that existed when it began exactly once, whatever is
// inserted meanwhile. Records come back typed, each with its position: the opaque string the
// next page starts after.
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { toLink, type LinkItem } from './aggregates.ts';
import { db, tableName } from './client.ts';
import { toEntity, type EntityItem } from './entities.ts';
import { keys } from './keys.ts';
import { toNote, type NoteItem } from './notes.ts';
import type { StoredItem } from './query.ts';
import { toWebhook, type StoredWebhook } from './webhooks.ts';
import { ENTITY_TYPES, PARENT_RULES, type EntityType } from '../domain/hierarchy.ts';
import type { Importance } from '../domain/score.ts';

/** A record of a list and its position in it. */
export interface Listed<T> {
  record: T;
  position: string;
}

interface KeysetQuery<T> {
  index?: 'gsi1' | 'gsi2';
  partitionKey: string;
  partitionValue: string;
  sortKey: string;
  /** Exclusive lower bound of the sort key. */
  after?: string | undefined;
  /** Items must start with this prefix (base-table ranges such as a note's links). */
  prefix?: string;
  /** At most this many records are returned. */
  count: number;
  toRecord: (item: StoredItem) => T;
  /** Records kept (applied in memory, so `count` counts kept records). */
  keep?: (record: T) => boolean;
}

/** Up to `count` records after `after`, in sort-key order, skipping those `keep` rejects. */
async function queryAfter<T>(q: KeysetQuery<T>): Promise<Array<Listed<T>>> {
  const out: Array<Listed<T>> = [];
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
  const pages = paginateQuery(
    { client: db() },
    {
      TableName: tableName(),
      ...(q.index ? { IndexName: q.index } : {}),
      KeyConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      // Without a filter exactly one more than needed tells the caller whether a next page exists.
      Limit: q.keep ? Math.max(q.count * 2, 25) : q.count,
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const position = String(item[q.sortKey]);
      if (q.prefix !== undefined && !position.startsWith(q.prefix)) return out;
      const record = q.toRecord(item);
      if (!q.keep || q.keep(record)) out.push({ record, position });
      if (out.length >= q.count) return out;
    }
  }
  return out;
}

/** Records whose delete has begun are gone for every reader (lib/store/cascade.ts, notes.ts). */
const live = (record: { deleting?: string }) => !record.deleting;

const byPosition = <T>(a: Listed<T>, b: Listed<T>) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0);

/** Filters on stored entity attributes. */
export interface EntityFilter {
  /** Only entities whose `archived` field is this (absent counts as false). */
  archived?: boolean | undefined;
}

/**
 * Entities of the given types after `after`, merged in one order across the per-type partitions
 * of GSI1 (the same position string orders all of them).
 */
export async function entitiesAfter(
  workspaceId: string,
  types: readonly string[],
  after: string | undefined,
  count: number,
  filter: EntityFilter = {},
): Promise<Array<Listed<EntityItem>>> {
  const { archived } = filter;
  const keep = (e: EntityItem) => live(e) && (archived === undefined || (e.fields.archived === true) === archived);
  const perType = await Promise.all(
    types.map((type) =>
      queryAfter({
        index: 'gsi1',
        partitionKey: 'gsi1pk',
        partitionValue: keys.entitiesOfType(workspaceId, type),
        sortKey: 'gsi1sk',
        after,
        count,
        toRecord: toEntity,
        keep,
      }),
    ),
  );
  return perType.flat().sort(byPosition).slice(0, count);
}

/** Notes of a workspace after `after`, oldest first. */
export function notesAfter(workspaceId: string, after: string | undefined, count: number): Promise<Array<Listed<NoteItem>>> {
  return queryAfter({ index: 'gsi1', partitionKey: 'gsi1pk', partitionValue: keys.notesOf(workspaceId), sortKey: 'gsi1sk', after, count, toRecord: toNote, keep: live });
}

/** Webhook subscriptions of a workspace after `after`, oldest first, those `keep` accepts. */
export function webhooksAfter(workspaceId: string, after: string | undefined, count: number, keep: (w: StoredWebhook) => boolean): Promise<Array<Listed<StoredWebhook>>> {
  return queryAfter({ index: 'gsi1', partitionKey: 'gsi1pk', partitionValue: keys.webhooksOf(workspaceId), sortKey: 'gsi1sk', after, count, toRecord: toWebhook, keep });
}

/** Children of an entity after `after` (their GSI2 sort key), oldest first. */
function childrenAfter(workspaceId: string, parentId: string, after: string | undefined, count: number): Promise<Array<Listed<EntityItem>>> {
  return queryAfter({ index: 'gsi2', partitionKey: 'gsi2pk', partitionValue: keys.childrenOf(workspaceId, parentId), sortKey: 'gsi2sk', after, count, toRecord: toEntity, keep: live });
}

/** A note's links after `after` (their sk), ordered by entity id. */
function noteLinksAfter(workspaceId: string, noteId: string, after: string | undefined, count: number): Promise<Array<Listed<LinkItem>>> {
  return queryAfter({ partitionKey: 'pk', partitionValue: keys.partition(workspaceId), sortKey: 'sk', prefix: keys.linksOfNotePrefix(noteId), after, count, toRecord: toLink });
}

/** One relationship of an entity or a note, and its position in the owner's list. */
export interface StoredRelationship<K extends string> {
  /** The first ('0': parent, customer) comes before the rest ('1' + their own list position). */
  position: string;
  type: K;
  target: { id: string; type: EntityType };
}

export type EntityRelationship = StoredRelationship<'parent' | 'child'>;
export type NoteRelationship = StoredRelationship<'customer'> | (StoredRelationship<'link'> & { importance: Importance });

const FIRST = '0';
const REST = '1';
/** The position within the rest's own list, or undefined to start it from the beginning. */
const restAfter = (after: string | undefined) => (after !== undefined && after.startsWith(REST) ? after.slice(1) : undefined);

/** Types no other type may sit under (subfeature, user): their children are not queried. */
const mayHaveChildren = (type: string | undefined) => type === undefined || ENTITY_TYPES.some((t) => (PARENT_RULES[t].parents as readonly string[]).includes(type));

/**
 * Up to `count` relationships of an entity after position `after`: its parent (one, if any)
 * then its children oldest first; `only` keeps one kind.
 */
export async function entityRelationshipsAfter(
  workspaceId: string,
  entity: Pick<EntityItem, 'id' | 'type' | 'parentId' | 'parentType'>,
  only: 'parent' | 'child' | undefined,
  after: string | undefined,
  count: number,
): Promise<EntityRelationship[]> {
  const out: EntityRelationship[] = [];
  if (only !== 'child' && entity.parentId && entity.parentType && (after === undefined || after < FIRST)) {
    out.push({ position: FIRST, type: 'parent', target: { id: entity.parentId, type: entity.parentType } });
  }
  if (only !== 'parent' && out.length < count && mayHaveChildren(entity.type)) {
    for (const c of await childrenAfter(workspaceId, entity.id, restAfter(after), count - out.length)) {
      out.push({ position: REST + c.position, type: 'child', target: { id: c.record.id, type: c.record.type } });
    }
  }
  return out;
}

/** Up to `count` relationships of a note after `after`: its customer (if any), then its links. */
export async function noteRelationshipsAfter(
  workspaceId: string,
  note: Pick<NoteItem, 'id' | 'customer'>,
  only: 'customer' | 'link' | undefined,
  after: string | undefined,
  count: number,
): Promise<NoteRelationship[]> {
  const out: NoteRelationship[] = [];
  if (only !== 'link' && note.customer && (after === undefined || after < FIRST)) {
    out.push({ position: FIRST, type: 'customer', target: { id: note.customer.id, type: note.customer.type } });
  }
  if (only !== 'customer' && out.length < count) {
    for (const l of await noteLinksAfter(workspaceId, note.id, restAfter(after), count - out.length)) {
      out.push({ position: REST + l.position, type: 'link', target: { id: l.record.entityId, type: l.record.entityType }, importance: l.record.importance });
    }
  }
  return out;
}
