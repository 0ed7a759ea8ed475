// Keyset reads for the lists (lib/http/pagination.ts carries the position in a cursor). Every list
// is ordered by a sort key that a record keeps while it stays in the list (keys.listPosition on
// GSI1/GSI2/GSI3, the sk for a note's links and an entity's relations), and a page is "the next N
// records after the last position seen", so a walk returns every record that existed when it began
// exactly once, whatever is inserted meanwhile. Records come back typed, each with its position:
// the opaque string the next page starts after.
//
// Filters: an index narrows the candidates (lib/domain/filters.ts says which records match), and
// the rest is checked in memory. So that a rare match cannot make one request read a whole
// partition, a filtered read examines at most SCAN_BUDGET items: a page may then end early, short
// of its limit, with a position to resume from (Slice.resume) — the last item examined.
import { toLink, type LinkItem } from './aggregates.ts';
import { batchGetAll, batchGetByKey, itemKeyId } from './batch.ts';
import { queryPages } from './calls.ts';
import { toComment, type StoredComment } from './comments.ts';
import { isEntityItem, toEntity, type EntityItem } from './entities.ts';
import { TAG_VALUE_KIND, toSelectValue, type StoredTagValue, type ValueField } from './field-values.ts';
import * as keys from './keys.ts';
import { toMember, type Member } from './members.ts';
import type { CopiedLink } from './note-link-copy.ts';
import { isNoteItem, toNote, type NoteItem } from './notes.ts';
import type { StoredItem } from './query.ts';
import { toRelation, type RelationItem } from './relations.ts';
import { tableName } from './table.ts';
import { isTeamItem, membersByIds, toTeam, type TeamItem } from './teams.ts';
import { goneIn, type Gone } from './tombstones.ts';
import { toWebhook, type StoredWebhook } from './webhooks.ts';
import { ENTITY_FIELDS } from '../domain/entity-fields.ts';
import { selectValuesOf, seqPosition, statusValuesFor, TAGS_FIELD, type SelectValue } from '../domain/field-values.ts';
import {
  entityMatches,
  memberMatches,
  nameMatches,
  noteMatches,
  type EntityFilter,
  type MemberFilter,
  type NoteFilter,
  type TimeRange,
} from '../domain/filters.ts';
import { canHaveChildren, ENTITY_TYPES, type EntityType } from '../domain/hierarchy.ts';
import type { RelationType } from '../domain/relations.ts';
import type { Importance } from '../domain/score.ts';
import { allStatuses, type AssignedStatus } from '../domain/statuses.ts';

/** Items one list request may examine (all partitions together, each getting at least one page's worth). */
export const SCAN_BUDGET = 1000;

/** A record of a list and its position in it. */
export interface Listed<T> {
  record: T;
  position: string;
}

/**
 * One page's worth of a list: up to `count` records in position order. `resume` is set when the
 * read stopped short of `count` without reaching the end of the list (its scan budget was spent):
 * everything up to that position was examined, and the next page starts after it.
 */
export interface Slice<T> {
  items: Array<Listed<T>>;
  resume?: string;
}

/** What one partition's read found; `examinedTo` is set unless the partition was read to its end. */
interface Scan<T> {
  items: Array<Listed<T>>;
  examinedTo?: string;
}

/** Positions are ASCII below '~' (times, ids, type names): this bounds a prefix's range from above. */
const END = '~';

/** Which way a list runs through its positions: oldest first (ascending), or newest first. */
type Order = 'ascending' | 'descending';

interface KeysetQuery<T> {
  index?: 'gsi1' | 'gsi2' | 'gsi3';
  /** Ascending when absent; descending reads the index backwards and `after` bounds it from above. */
  order?: Order | undefined;
  partitionKey: string;
  partitionValue: string;
  sortKey: string;
  /** The sort keys of the list start with this; a position is the sort key without it. */
  prefix?: string | undefined;
  /** Exclusive bound of the position: lower when ascending, upper when descending. */
  after?: string | undefined;
  /** Inclusive bounds of the position. */
  range?: { from?: string; to?: string } | undefined;
  /** At most this many records are returned. */
  count: number;
  /** Items examined at most. */
  budget: number;
  /** Turns a page of items into records (undefined: none, e.g. gone meanwhile). */
  toRecords: (items: StoredItem[]) => Array<T | undefined> | Promise<Array<T | undefined>>;
  /** Records kept (applied in memory, so `count` counts kept records). */
  keep?: (record: T) => boolean;
  /** Whether `keep` rejects records other than deleted ones (so a page of DynamoDB's needs reading ahead). */
  filtered?: boolean;
  consistent?: boolean;
}

/** Up to `count` records after `after` (within `range`), in the list's order, skipping those `keep` rejects. */
async function scan<T>(q: KeysetQuery<T>): Promise<Scan<T>> {
  const prefix = q.prefix ?? '';
  const descending = q.order === 'descending';
  const { from, to } = q.range ?? {};
  // `after` replaces the range's bound on its own side when it lies inside the range.
  const exclusive = q.after !== undefined && (descending ? to === undefined || q.after <= to : from === undefined || q.after >= from);
  const lower = !descending && exclusive ? q.after : from;
  const upper = descending && exclusive ? q.after : to;
  const lo = lower !== undefined ? prefix + lower : prefix || undefined;
  const hi = upper !== undefined ? prefix + upper : prefix ? prefix + END : undefined;
  if (lo !== undefined && hi !== undefined && lo > hi) return { items: [] };
  const names: Record<string, string> = { '#pk': q.partitionKey };
  const values: Record<string, unknown> = { ':pk': q.partitionValue };
  let condition = '#pk = :pk';
  let skip: string | undefined;
  if (lo !== undefined || hi !== undefined) names['#sk'] = q.sortKey;
  if (lo !== undefined && hi !== undefined) {
    // BETWEEN is inclusive: an exclusive bound skips its own item.
    condition += ' AND #sk BETWEEN :lo AND :hi';
    Object.assign(values, { ':lo': lo, ':hi': hi });
    if (exclusive) skip = descending ? hi : lo;
  } else if (lo !== undefined) {
    condition += !descending && exclusive ? ' AND #sk > :lo' : ' AND #sk >= :lo';
    values[':lo'] = lo;
  } else if (hi !== undefined) {
    condition += descending && exclusive ? ' AND #sk < :hi' : ' AND #sk <= :hi';
    values[':hi'] = hi;
  }
  const out: Array<Listed<T>> = [];
  let examined = 0;
  const pages = queryPages({
    TableName: tableName(),
    ...(q.index ? { IndexName: q.index } : {}),
    KeyConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ...(q.consistent ? { ConsistentRead: true } : {}),
    ...(descending ? { ScanIndexForward: false } : {}),
    // Unfiltered, one more than needed tells the caller whether a next page exists.
    Limit: q.filtered ? Math.min(q.budget, Math.max(q.count * 2, 25)) : q.count + (skip !== undefined ? 1 : 0),
  });
  for await (const page of pages) {
    const items = page.filter((item) => item[q.sortKey] !== skip);
    const records = await q.toRecords(items);
    for (const [i, item] of items.entries()) {
      const position = String(item[q.sortKey]).slice(prefix.length);
      examined++;
      const record = records[i];
      if (record !== undefined && (!q.keep || q.keep(record))) out.push({ record, position });
      if (out.length >= q.count || examined >= q.budget) return { items: out, examinedTo: position };
    }
  }
  return { items: out };
}

/** Whether position `a` comes before `b` in the list's order. */
const precedes = (order: Order | undefined, a: string, b: string) => (order === 'descending' ? a > b : a < b);
const byPosition =
  (order: Order | undefined) =>
  <T>(a: Listed<T>, b: Listed<T>) =>
    a.position === b.position ? 0 : precedes(order, a.position, b.position) ? -1 : 1;

/**
 * The first `count` records of several partitions read in one order (the same position string
 * orders all of them). Records past the point where some partition stopped are left for the next
 * page, since that partition may hold earlier ones; a record found in several partitions (a note
 * linked to two of the entities asked for) appears once.
 */
function merge<T>(scans: Array<Scan<T>>, count: number, order: Order | undefined): Slice<T> {
  const bounds = scans.map((s) => s.examinedTo).filter((b): b is string => b !== undefined);
  const bound = bounds.length ? bounds.reduce((a, b) => (precedes(order, a, b) ? a : b)) : undefined;
  const seen = new Set<string>();
  const items = scans
    .flatMap((s) => s.items)
    .filter((i) => bound === undefined || !precedes(order, bound, i.position))
    .sort(byPosition(order))
    .filter((i) => !seen.has(i.position) && seen.add(i.position))
    .slice(0, count);
  return items.length < count && bound !== undefined ? { items, resume: bound } : { items };
}

/** Reads several partitions of one list (all in one order), sharing the scan budget. */
async function scanAll<T>(queries: Array<Omit<KeysetQuery<T>, 'budget'>>, count: number): Promise<Slice<T>> {
  const budget = Math.max(count, Math.ceil(SCAN_BUDGET / Math.max(1, queries.length)));
  return merge(await Promise.all(queries.map((q) => scan({ ...q, budget }))), count, queries[0]?.order);
}

/** Records read by id (a search's `id` filter), in position order after `after`. */
async function byIds<T>(
  itemKeys: Array<{ pk: string; sk: string }>,
  toRecord: (item: StoredItem) => T | undefined,
  positionOf: (r: T) => string,
  keep: (r: T) => boolean,
  after: string | undefined,
  count: number,
  order?: Order,
): Promise<Slice<T>> {
  const records = (await batchGetAll(itemKeys)).map(toRecord).filter((r): r is T => r !== undefined && keep(r));
  return {
    items: records
      .map((record) => ({ record, position: positionOf(record) }))
      .filter((i) => after === undefined || precedes(order, after, i.position))
      .sort(byPosition(order))
      .slice(0, count),
  };
}

/** Records whose delete has begun are gone for every reader (lib/store/cascade.ts, notes.ts). */
const live = (record: { deleting?: string }) => !record.deleting;

const entities = (items: StoredItem[]) => items.map((it) => (isEntityItem(it) ? toEntity(it) : undefined));
const notes = (items: StoredItem[]) => items.map((it) => (isNoteItem(it) ? toNote(it) : undefined));

/** Which records a list of entities holds: the filter, over the given types. */
export type EntityQuery = EntityFilter & { types: readonly EntityType[] };

const restricts = (filter: object) => Object.values(filter).some((v) => v !== undefined);

/**
 * Entities matching the query after `after`, from the narrowest index the query allows: the ids
 * asked for; the children of the parents asked for (GSI2, in the order they joined their parent);
 * the owners' entities (GSI3); else each type's entities (GSI1, creation time bounding the key).
 * Positions are the index's own, so a cursor stays with the query that made it.
 */
export async function entitiesAfter(workspaceId: string, query: EntityQuery, after: string | undefined, count: number): Promise<Slice<EntityItem>> {
  const { types: _all, ...narrowing } = query;
  const filtered = restricts(narrowing);
  const keep = (e: EntityItem) => live(e) && entityMatches(query, e);
  if (query.ids) {
    return byIds(
      query.ids.map((id) => keys.entity(workspaceId, id)),
      (it) => (isEntityItem(it) ? toEntity(it) : undefined),
      (e) => keys.listPosition(e.createdAt, e.id),
      keep,
      after,
      count,
    );
  }
  const common = { after, count, toRecords: entities, keep, filtered };
  if (query.parentIds) {
    return scanAll(
      query.parentIds.map((p) => ({
        ...common,
        index: 'gsi2' as const,
        partitionKey: 'gsi2pk',
        partitionValue: keys.childrenOf(workspaceId, p),
        sortKey: 'gsi2sk',
      })),
      count,
    );
  }
  const range = timeRange(query.created);
  if (query.ownerIds) {
    return scanAll(
      query.ownerIds.map((o) => ({
        ...common,
        range,
        index: 'gsi3' as const,
        partitionKey: 'gsi3pk',
        partitionValue: keys.ownedBy(workspaceId, o),
        sortKey: 'gsi3sk',
        prefix: keys.ownedPrefix('entity'),
      })),
      count,
    );
  }
  return scanAll(
    query.types.map((t) => ({
      ...common,
      range,
      index: 'gsi1' as const,
      partitionKey: 'gsi1pk',
      partitionValue: keys.entitiesOfType(workspaceId, t),
      sortKey: 'gsi1sk',
    })),
    count,
  );
}

const timeRange = (r: TimeRange | undefined) => (r ? keys.timeRange(r.from, r.to) : undefined);

/**
 * The order of the note lists, as their cursors name it (lib/http/pagination.ts PageScope.order):
 * newest first, but by note id where a relationship narrows the read (notesAfter).
 */
export const NOTE_LIST_ORDER = 'newest-first';

/** Which notes a list holds: the filter, and (search) the entities they must link to, any of them. */
export type NoteQuery = NoteFilter & { linkedTo?: readonly string[] };

/**
 * Notes matching the query after `after`, from the narrowest index: the ids asked for (unless
 * links are too); the links to the entities asked for (GSI2, by note id); the customers' notes
 * (GSI2, by creation time); the owners' notes (GSI3); else every note (GSI1, creation time bounding
 * the key). Newest first, as Productboard lists notes — but where a relationship narrows the read,
 * in its index's order: by note id for links, oldest first for customers. `gone`: the entities
 * being deleted, shared with the caller that also needs them for the page (lib/store/tombstones.ts).
 */
export async function notesAfter(
  workspaceId: string,
  query: NoteQuery,
  after: string | undefined,
  count: number,
  gone: Gone = goneIn(workspaceId),
): Promise<Slice<NoteItem>> {
  const { linkedTo: asked, ...filter } = query;
  // An entity whose delete is under way links no note any more (its links are the clean-up's).
  const marked = asked ? await gone() : undefined;
  const linkedTo = asked?.filter((e) => !marked!.has(e));
  if (linkedTo?.length === 0) return { items: [] };
  const keep = (n: NoteItem) => live(n) && noteMatches(filter, n);
  const order: Order = 'descending';
  // A note read by id cannot tell its links, so ids with linkedTo read the links and keep the ids.
  if (filter.ids && !linkedTo) {
    return byIds(
      filter.ids.map((id) => keys.note(workspaceId, id)),
      (it) => (isNoteItem(it) ? toNote(it) : undefined),
      (n) => keys.listPosition(n.createdAt, n.id),
      keep,
      after,
      count,
      order,
    );
  }
  const common = { after, count, keep, filtered: true };
  if (linkedTo) {
    // A link item names its note; the notes are read in one batch per page of links.
    const linkedNotes = async (items: StoredItem[]) => {
      const found = new Map((await batchGetAll(items.map((l) => keys.note(workspaceId, String(l.noteId))))).map((n) => [String(n.id), n]));
      return items.map((l) => {
        const n = found.get(String(l.noteId));
        return n && isNoteItem(n) ? toNote(n) : undefined;
      });
    };
    return scanAll(
      linkedTo.map((e) => ({
        ...common,
        toRecords: linkedNotes,
        index: 'gsi2' as const,
        partitionKey: 'gsi2pk',
        partitionValue: keys.linksTo(workspaceId, e),
        sortKey: 'gsi2sk',
      })),
      count,
    );
  }
  if (filter.customerIds) {
    return scanAll(
      filter.customerIds.map((c) => ({
        ...common,
        toRecords: notes,
        index: 'gsi2' as const,
        partitionKey: 'gsi2pk',
        partitionValue: keys.notesOfCustomer(workspaceId, c),
        sortKey: 'gsi2sk',
      })),
      count,
    );
  }
  const range = timeRange(filter.created);
  const narrowed = { ...common, order, toRecords: notes, range, filtered: restricts(filter) };
  if (filter.ownerIds) {
    return scanAll(
      filter.ownerIds.map((o) => ({
        ...narrowed,
        index: 'gsi3' as const,
        partitionKey: 'gsi3pk',
        partitionValue: keys.ownedBy(workspaceId, o),
        sortKey: 'gsi3sk',
        prefix: keys.ownedPrefix('note'),
      })),
      count,
    );
  }
  return scanAll([{ ...narrowed, index: 'gsi1', partitionKey: 'gsi1pk', partitionValue: keys.notesOf(workspaceId), sortKey: 'gsi1sk' }], count);
}

/** Members of a workspace matching the filter after `after`, oldest first (GSI1). */
export function membersAfter(workspaceId: string, filter: MemberFilter, after: string | undefined, count: number): Promise<Slice<Member>> {
  return scanAll(
    [
      {
        index: 'gsi1',
        partitionKey: 'gsi1pk',
        partitionValue: keys.membersOf(workspaceId),
        sortKey: 'gsi1sk',
        after,
        count,
        toRecords: (items) => items.map(toMember),
        keep: (m) => memberMatches(filter, m),
        filtered: true,
      },
    ],
    count,
  );
}

/** The workspace's tag values after `after`, oldest first (GSI1). */
function tagValuesAfter(workspaceId: string, after: string | undefined, count: number): Promise<Slice<StoredTagValue>> {
  return scanAll(
    [
      {
        index: 'gsi1',
        partitionKey: 'gsi1pk',
        partitionValue: keys.fieldValuesOf(workspaceId, TAGS_FIELD),
        sortKey: 'gsi1sk',
        after,
        count,
        toRecords: (items) => items.map((item) => (item.kind === TAG_VALUE_KIND ? toSelectValue(item) : undefined)),
      },
    ],
    count,
  );
}

/** Which teams a list holds; each filter given must hold, the values of one filter are alternatives. */
interface TeamFilter {
  ids?: readonly string[];
  /** Names, compared case-insensitively (exact). */
  names?: readonly string[];
  /** Handles, compared case-insensitively (exact). */
  handles?: readonly string[];
  /** A case-insensitive part of the name or the handle. */
  query?: string;
}

const teamMatches = (f: TeamFilter, t: TeamItem) =>
  !t.deleting &&
  (f.ids === undefined || f.ids.includes(t.id)) &&
  (f.names === undefined || f.names.some((n) => n.toLowerCase() === t.name.toLowerCase())) &&
  (f.handles === undefined || f.handles.some((h) => h.toLowerCase() === t.handle.toLowerCase())) &&
  (f.query === undefined || nameMatches(t.name, f.query) || nameMatches(t.handle, f.query));

/** The workspace's teams matching the filter after `after`, newest first (GSI1), as Productboard lists them. */
export async function teamsAfter(workspaceId: string, filter: TeamFilter, after: string | undefined, count: number): Promise<Slice<TeamItem>> {
  const keep = (t: TeamItem) => teamMatches(filter, t);
  if (filter.ids) {
    return byIds(
      filter.ids.map((id) => keys.team(workspaceId, id)),
      (it) => (isTeamItem(it) ? toTeam(it) : undefined),
      (t) => keys.listPosition(t.createdAt, t.id),
      keep,
      after,
      count,
      'descending',
    );
  }
  return scanAll(
    [
      {
        index: 'gsi1',
        order: 'descending',
        partitionKey: 'gsi1pk',
        partitionValue: keys.teamsOf(workspaceId),
        sortKey: 'gsi1sk',
        after,
        count,
        toRecords: (items) => items.map((it) => (isTeamItem(it) ? toTeam(it) : undefined)),
        keep,
        filtered: restricts(filter),
      },
    ],
    count,
  );
}

/** A team's members after `after`, newest membership first (GSI2), each as the member item reads. */
export async function teamMembersAfter(workspaceId: string, teamId: string, after: string | undefined, count: number): Promise<Slice<Member>> {
  const members = async (items: StoredItem[]) => {
    const found = await membersByIds(
      workspaceId,
      items.map((m) => String(m.memberId)),
    );
    return items.map((m) => found.get(String(m.memberId)));
  };
  return scanAll(
    [
      {
        index: 'gsi2',
        order: 'descending',
        partitionKey: 'gsi2pk',
        partitionValue: keys.teamMembersOf(workspaceId, teamId),
        sortKey: 'gsi2sk',
        after,
        count,
        toRecords: members,
      },
    ],
    count,
  );
}

/** A note's comments after `after`, oldest first (positions: listPosition(createdAt, id)). */
export function noteCommentsAfter(workspaceId: string, noteId: string, after: string | undefined, count: number): Promise<Slice<StoredComment>> {
  return scanAll(
    [
      {
        partitionKey: 'pk',
        partitionValue: keys.partition(workspaceId),
        sortKey: 'sk',
        prefix: keys.commentsOfNotePrefix(noteId),
        after,
        count,
        toRecords: (items) => items.map(toComment),
        consistent: true,
      },
    ],
    count,
  );
}

/** Records held in memory (a select field's options, the status values) after `after`, in the order of their positions. */
function inMemoryAfter<T>(records: readonly T[], positionOf: (r: T) => string, after: string | undefined, count: number): Slice<T> {
  return {
    items: records
      .map((record) => ({ record, position: positionOf(record) }))
      .filter((i) => after === undefined || i.position > after)
      .sort(byPosition(undefined))
      .slice(0, count),
  };
}

/** A value as the field-value list shows it: a tag or select option, or a status value with its types. */
type ListedValue = { kind: 'select'; value: SelectValue } | { kind: 'status'; value: AssignedStatus };

/**
 * The values of a field after `after` — the tag values oldest first, a select field's options and
 * the status values in their order — keeping those records of one of `types` can hold (all without
 * `types`): a status value assigned to one of them, a select field's options when it is a field of
 * one of them, the tags when one of them has tags.
 */
export async function fieldValuesAfter(
  workspaceId: string,
  field: ValueField,
  types: readonly EntityType[] | undefined,
  after: string | undefined,
  count: number,
): Promise<Slice<ListedValue>> {
  const wanted = (type: string) => !types?.length || (types as readonly string[]).includes(type);
  if (field.kind === 'status') {
    const statuses = statusValuesFor(types);
    const order = new Map(allStatuses().map((s, i) => [s.id, String(i).padStart(6, '0')]));
    return relist(
      inMemoryAfter(statuses, (s) => order.get(s.id)!, after, count),
      (value) => ({ kind: 'status', value }),
    );
  }
  if (field.kind === 'select') {
    const values = wanted(field.def.entityType) ? selectValuesOf(field.def) : [];
    return relist(inMemoryAfter(values, seqPosition, after, count), (value) => ({ kind: 'select', value }));
  }
  if (!ENTITY_TYPES.some((t) => wanted(t) && (ENTITY_FIELDS[t] as readonly string[]).includes(TAGS_FIELD))) return { items: [] };
  return relist(await tagValuesAfter(workspaceId, after, count), (value) => ({ kind: 'select', value }));
}

const relist = <T, R>(slice: Slice<T>, as: (record: T) => R): Slice<R> => ({
  items: slice.items.map((i) => ({ record: as(i.record), position: i.position })),
  ...(slice.resume !== undefined ? { resume: slice.resume } : {}),
});

/** Webhook subscriptions of a workspace after `after`, oldest first, those `keep` accepts (few per workspace: no scan budget). */
export async function webhooksAfter(
  workspaceId: string,
  after: string | undefined,
  count: number,
  keep: (w: StoredWebhook) => boolean,
): Promise<Array<Listed<StoredWebhook>>> {
  const got = await scan({
    index: 'gsi1',
    partitionKey: 'gsi1pk',
    partitionValue: keys.webhooksOf(workspaceId),
    sortKey: 'gsi1sk',
    after,
    count,
    budget: Number.POSITIVE_INFINITY,
    toRecords: (items) => items.map(toWebhook),
    keep,
  });
  return got.items;
}

/** One relationship of an entity or a note, and its position in the owner's list. */
export interface StoredRelationship<K extends string> {
  position: string;
  type: K;
  target: { id: string; type: EntityType };
}

export type EntityRelationship = StoredRelationship<'parent' | 'child' | RelationType>;
export type NoteRelationship = StoredRelationship<'customer'> | (StoredRelationship<'link'> & { importance: Importance });

/**
 * A relationship list is segments one after the other, each tagged by one character that leads
 * its positions ('0' the parent or customer, '1' children or links, '2' relations): a segment is
 * read only once those before it are exhausted.
 */
interface Segment<R> {
  tag: string;
  read: (after: string | undefined, count: number) => Promise<Slice<R>>;
}

async function segments<R extends { position: string }>(parts: Array<Segment<R>>, after: string | undefined, count: number): Promise<Slice<R>> {
  const out: R[] = [];
  for (const { tag, read } of parts) {
    if (after !== undefined && after > tag && !after.startsWith(tag)) continue;
    const within = after !== undefined && after.startsWith(tag) ? after.slice(tag.length) : undefined;
    const got = await read(within, count - out.length);
    out.push(...got.items.map((i) => i.record));
    if (out.length >= count) return { items: out.slice(0, count).map((record) => ({ record, position: record.position })) };
    if (got.resume !== undefined) return { items: out.map((record) => ({ record, position: record.position })), resume: tag + got.resume };
  }
  return { items: out.map((record) => ({ record, position: record.position })) };
}

/** One relationship at a fixed position: present or not, read whole. */
const single =
  <R>(record: R | undefined): Segment<R>['read'] =>
  (after) =>
    Promise.resolve({ items: record !== undefined && after === undefined ? [{ record, position: '' }] : [] });

/** Filters of an entity's relationship list (Productboard's `type`, `target[type]`, `target[id]`). */
export interface EntityRelationshipFilter {
  type?: EntityRelationship['type'] | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
}

/**
 * Up to `count` relationships of an entity after position `after`: its parent (one, if any), its
 * children oldest first, then its relations (link, isBlockedBy, isBlocking) by type and target id.
 */
export async function entityRelationshipsAfter(
  workspaceId: string,
  entity: Pick<EntityItem, 'id' | 'type' | 'parentId' | 'parentType'>,
  filter: EntityRelationshipFilter,
  after: string | undefined,
  count: number,
  gone: Gone = goneIn(workspaceId),
): Promise<Slice<EntityRelationship>> {
  const wants = (type: EntityRelationship['type'], target: { id: string; type: string }) =>
    (filter.type === undefined || filter.type === type) &&
    (filter.targetType === undefined || filter.targetType === target.type) &&
    (filter.targetId === undefined || filter.targetId === target.id);
  const parent = entity.parentId && entity.parentType ? { id: entity.parentId, type: entity.parentType } : undefined;
  const parts: Array<Segment<EntityRelationship>> = [
    { tag: '0', read: single(parent && wants('parent', parent) ? { position: '0', type: 'parent' as const, target: parent } : undefined) },
  ];
  if (canHaveChildren(entity.type) && (filter.type === undefined || filter.type === 'child')) {
    parts.push({
      tag: '1',
      read: async (within, n) => {
        const got = await scanAll(
          [
            {
              index: 'gsi2',
              partitionKey: 'gsi2pk',
              partitionValue: keys.childrenOf(workspaceId, entity.id),
              sortKey: 'gsi2sk',
              after: within,
              count: n,
              toRecords: entities,
              keep: (c) => live(c) && wants('child', c),
              filtered: filter.targetType !== undefined || filter.targetId !== undefined,
            },
          ],
          n,
        );
        return relabel(got, '1', (c) => ({ type: 'child' as const, target: { id: c.id, type: c.type } }));
      },
    });
  }
  if (filter.type === undefined || (filter.type !== 'parent' && filter.type !== 'child')) {
    parts.push({
      tag: '2',
      read: async (within, n) => {
        const type = filter.type === 'parent' || filter.type === 'child' ? undefined : filter.type;
        const got = await scanAll(
          [
            {
              partitionKey: 'pk',
              partitionValue: keys.partition(workspaceId),
              sortKey: 'sk',
              prefix: keys.relationsOfPrefix(entity.id, type),
              after: within === undefined || type === undefined ? within : within.slice(type.length + 1),
              count: n,
              toRecords: (items) => liveTargets(items.map(toRelation), (r) => r.targetId, gone),
              keep: (r: RelationItem) => wants(r.type, { id: r.targetId, type: r.targetType }),
              filtered: filter.targetType !== undefined || filter.targetId !== undefined,
            },
          ],
          n,
        );
        // Positions within the relations are `<type>#<target>` whether or not a type narrowed the read.
        const withType =
          type === undefined
            ? got
            : {
                items: got.items.map((i) => ({ ...i, position: `${type}#${i.position}` })),
                ...(got.resume !== undefined ? { resume: `${type}#${got.resume}` } : {}),
              };
        return relabel(withType, '2', (r) => ({ type: r.type, target: { id: r.targetId, type: r.targetType } }));
      },
    });
  }
  return segments(parts, after, count);
}

/** A segment's slice as relationships, positions led by the segment's tag. */
function relabel<T, R extends { position: string }>(got: Slice<T>, tag: string, view: (record: T) => Omit<R, 'position'>): Slice<R> {
  return {
    items: got.items.map((i) => {
      const record = { ...view(i.record), position: tag + i.position } as R;
      return { record, position: i.position };
    }),
    ...(got.resume !== undefined ? { resume: got.resume } : {}),
  };
}

/**
 * The records whose target is not an entity being deleted (undefined in their place): its
 * relations and links stay until the clean-up removes them (lib/store/tombstones.ts), and are gone
 * for readers meanwhile. The tombstones are read only when there is a record to judge.
 */
async function liveTargets<R>(records: R[], target: (r: R) => string, gone: Gone): Promise<Array<R | undefined>> {
  if (records.length === 0) return records;
  const ids = await gone();
  return records.map((r) => (ids.has(target(r)) ? undefined : r));
}

/** Filters of a note's relationship list (Productboard's `type`, `target[type]`). */
interface NoteRelationshipFilter {
  type?: 'customer' | 'link' | undefined;
  targetType?: string | undefined;
}

/**
 * Up to `count` relationships of a note after `after`: its customer (if any), then its links by
 * entity id — from the copy on the note item when it has one (lib/store/note-link-copy.ts), else by
 * a Query on the note's link prefix.
 */
export async function noteRelationshipsAfter(
  workspaceId: string,
  note: Pick<NoteItem, 'id' | 'customer' | 'linkCopy'>,
  filter: NoteRelationshipFilter,
  after: string | undefined,
  count: number,
  gone: Gone = goneIn(workspaceId),
): Promise<Slice<NoteRelationship>> {
  const customer =
    note.customer && filter.type !== 'link' && (filter.targetType === undefined || filter.targetType === note.customer.type) ? note.customer : undefined;
  const parts: Array<Segment<NoteRelationship>> = [
    { tag: '0', read: single(customer ? { position: '0', type: 'customer' as const, target: { id: customer.id, type: customer.type } } : undefined) },
  ];
  if (filter.type !== 'customer') {
    parts.push({
      tag: '1',
      read: async (within, n) => {
        const wanted = (l: Pick<LinkItem, 'entityType'>) => filter.targetType === undefined || filter.targetType === l.entityType;
        const got: Slice<CopiedLink> = note.linkCopy
          ? copiedAfter(
              (await liveTargets(note.linkCopy.filter(wanted), (l) => l.entityId, gone)).filter((l) => l !== undefined),
              within,
              n,
            )
          : await scanAll(
              [
                {
                  partitionKey: 'pk',
                  partitionValue: keys.partition(workspaceId),
                  sortKey: 'sk',
                  prefix: keys.linksOfNotePrefix(note.id),
                  after: within,
                  count: n,
                  toRecords: (items) => liveTargets(items.map(toLink), (l) => l.entityId, gone),
                  keep: wanted,
                  filtered: filter.targetType !== undefined,
                },
              ],
              n,
            );
        return relabel(got, '1', (l) => ({ type: 'link' as const, target: { id: l.entityId, type: l.entityType }, importance: l.importance }));
      },
    });
  }
  return segments(parts, after, count);
}

/** Up to `count` links of a note's copy (in entity id order) after the entity id `after`, as the Query would list them. */
function copiedAfter(links: readonly CopiedLink[], after: string | undefined, count: number): Slice<CopiedLink> {
  const rest = after === undefined ? links : links.filter((l) => l.entityId > after);
  return { items: rest.slice(0, count).map((record) => ({ record, position: record.entityId })) };
}

/** A newest-first page of the member pages: its records, and the position the next page reads below, when there may be more. */
interface NewestFirst<T> {
  items: Array<Listed<T>>;
  before?: string;
}

/**
 * Up to `count` records of one index partition, highest position first, below `before`
 * (exclusive). Records `keep` rejects (deleted ones) are skipped; at most SCAN_BUDGET items are
 * examined, so a page may come back short with `before` set.
 */
async function newestFirst<T>(q: {
  index: 'gsi2' | 'gsi3';
  partitionKey: string;
  partitionValue: string;
  sortKey: string;
  before: string | undefined;
  count: number;
  toRecords: (items: StoredItem[]) => Promise<Array<T | undefined>> | Array<T | undefined>;
  keep: (record: T) => boolean;
}): Promise<NewestFirst<T>> {
  const out: Array<Listed<T>> = [];
  let examined = 0;
  const pages = queryPages({
    TableName: tableName(),
    IndexName: q.index,
    KeyConditionExpression: q.before !== undefined ? '#pk = :pk AND #sk < :before' : '#pk = :pk',
    ExpressionAttributeNames: { '#pk': q.partitionKey, ...(q.before !== undefined ? { '#sk': q.sortKey } : {}) },
    ExpressionAttributeValues: { ':pk': q.partitionValue, ...(q.before !== undefined ? { ':before': q.before } : {}) },
    ScanIndexForward: false,
    // One more than asked tells whether another page exists.
    Limit: q.count + 1,
  });
  for await (const page of pages) {
    const records = await q.toRecords(page);
    for (const [i, item] of page.entries()) {
      const position = String(item[q.sortKey]);
      if (out.length === q.count) return { items: out, before: out.at(-1)!.position };
      examined++;
      const record = records[i];
      if (record !== undefined && q.keep(record)) out.push({ record, position });
      if (examined >= SCAN_BUDGET) return { items: out, before: position };
    }
  }
  return { items: out };
}

/** A note linked to an entity, with the link (its importance and when it was set). */
interface LinkedNote {
  note: NoteItem;
  link: LinkItem;
}

/**
 * The live notes linked to an entity, the most recently linked (or re-rated) first, below the
 * position `before`: the links' GSI3 entries, then their notes in one BatchGetItem per page.
 */
export function linkedNotesNewestFirst(workspaceId: string, entityId: string, before: string | undefined, count: number): Promise<NewestFirst<LinkedNote>> {
  return newestFirst<LinkedNote>({
    index: 'gsi3',
    partitionKey: 'gsi3pk',
    partitionValue: keys.linksByTime(workspaceId, entityId),
    sortKey: 'gsi3sk',
    before,
    count,
    toRecords: async (items) => {
      const links = items.map(toLink);
      const found = await batchGetByKey(
        links.map((l) => keys.note(workspaceId, l.noteId)),
        { consistent: true },
      );
      return links.map((link) => {
        const n = found.get(itemKeyId(keys.note(workspaceId, link.noteId)));
        return isNoteItem(n) ? { note: toNote(n), link } : undefined;
      });
    },
    keep: ({ note }) => live(note),
  });
}

/** The live notes whose customer is `customerId` (a company or a user), newest first (GSI2), below the position `before`. */
export function customerNotesNewestFirst(workspaceId: string, customerId: string, before: string | undefined, count: number): Promise<NewestFirst<NoteItem>> {
  return newestFirst<NoteItem>({
    index: 'gsi2',
    partitionKey: 'gsi2pk',
    partitionValue: keys.notesOfCustomer(workspaceId, customerId),
    sortKey: 'gsi2sk',
    before,
    count,
    toRecords: notes,
    keep: live,
  });
}
