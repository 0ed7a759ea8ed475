// Webhook events, derived from committed item changes (the table's stream, old and new images).
// Pure: the store decodes a stream record into a TableChange, and this says which events it makes.
//
//   entity  INSERT                          → <family>.created
//           deleting mark set, or REMOVE of an unmarked item → <family>.deleted (once: the mark hides it)
//           a public attribute changed      → <family>.updated, updatedAttributes = API field names
//                                             (fields by id, custom fields by uuid; `parent` for a move)
//           a custom field changed (product hierarchy) → also hierarchy-entity.custom-field-value.updated
//           `total` changed, not deleted    → customer-score.updated with the old and new score
//   note    the same three, updatedAttributes from `fields` and `customer`
//   link    INSERT → insight.created, REMOVE → insight.deleted (a re-rate is not an insight event)
//   relation  a feature's (or subfeature's) link to a release made or removed
//                                           → feature-release-assignment.updated (from the feature's side)
//
// The family of a type is its name in Productboard's event types: subfeatures are reported as
// `feature.*` (Productboard's subfeatures are features), key results as `key-result.*`. Customers
// (user, company) and release groups (Productboard's list has no event for them) make no events.
// Aggregates (`own`, `total` apart from the score event), deletion marks, revision counters, index
// keys and `updatedAt` are never reported as updates.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { entityLink, type StoredEntity } from './entity-view.ts';
import { isEmptyValue } from './fields.ts';
import { isHierarchyType } from './hierarchy.ts';
import { noteLink, type StoredNote } from './note-view.ts';
import { isUuid } from './schemas/common.ts';

/** Every event type this service produces, in the order the README lists them. */
export const EVENT_TYPES = [
  'product.created',
  'product.updated',
  'product.deleted',
  'component.created',
  'component.updated',
  'component.deleted',
  'feature.created',
  'feature.updated',
  'feature.deleted',
  'initiative.created',
  'initiative.updated',
  'initiative.deleted',
  'objective.created',
  'objective.updated',
  'objective.deleted',
  'key-result.created',
  'key-result.updated',
  'key-result.deleted',
  'release.created',
  'release.updated',
  'release.deleted',
  'feature-release-assignment.updated',
  'hierarchy-entity.custom-field-value.updated',
  'note.created',
  'note.updated',
  'note.deleted',
  'insight.created',
  'insight.deleted',
  'customer-score.updated',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (v: unknown): v is EventType => (EVENT_TYPES as readonly unknown[]).includes(v);

/** The resource an event type reports on: what a subscriber must be allowed to read to receive it. */
export const eventResource = (t: EventType): 'entities' | 'notes' => (t.startsWith('note.') || t.startsWith('insight.') ? 'notes' : 'entities');

/** Item kinds whose changes can make events: the stream consumer ignores every other item. */
export const EVENT_ITEM_KINDS = ['entity', 'note', 'link', 'relation'] as const;
type EventItemKind = (typeof EVENT_ITEM_KINDS)[number];

export interface EntityState extends Pick<StoredEntity, 'id' | 'type' | 'parentId' | 'fields'> {
  total?: number;
  deleting?: string;
}

export interface NoteState extends Pick<StoredNote, 'id' | 'type' | 'fields' | 'customer'> {
  deleting?: string;
}

export interface LinkState {
  noteId: string;
  entityId: string;
}

/** One side of a relation between two entities (lib/store/relations.ts). */
export interface RelationState {
  entityId: string;
  /** The side's own type (absent on items written before it was recorded: none of them is a release's). */
  entityType?: string;
  type: string;
  targetId: string;
  targetType: string;
}

interface ChangeOf<K extends EventItemKind, T> {
  kind: K;
  workspaceId: string;
  /** INSERT: only `after`; REMOVE: only `before`; MODIFY: both. */
  before: T | undefined;
  after: T | undefined;
  /** Identifies this change of this item for good: the same record read twice gives the same ids. */
  changeId: string;
}

export type TableChange = ChangeOf<'entity', EntityState> | ChangeOf<'note', NoteState> | ChangeOf<'link', LinkState> | ChangeOf<'relation', RelationState>;

/**
 * The notification body's `data` (Productboard's payload version 1, plus `score` on our score
 * event). `id` is absent on the two events Productboard sends without one (feature-release
 * assignments, custom field values): their `links.target` says what changed.
 */
export interface EventPayload {
  id?: string;
  eventType: EventType;
  links: Record<string, string>;
  updatedAttributes?: string[];
  score?: { old: number; new: number };
}

export interface WebhookEvent {
  /** Deterministic (change id + event type): a redelivered stream record yields the same id. */
  id: string;
  workspaceId: string;
  eventType: EventType;
  /** Events with the same key are delivered in the order the stream gave them. */
  orderingKey: string;
  payload: EventPayload;
}

/** `msg_` and 32 hex digits: a Standard Webhooks message id (no `.`), stable for one change and type. */
export function eventId(changeId: string, eventType: EventType): string {
  return `msg_${createHash('sha256').update(`${changeId}\n${eventType}`).digest('hex').slice(0, 32)}`;
}

/** The event type family of each entity type that makes events (customers and release groups make none). */
const FAMILIES: Readonly<Partial<Record<string, 'product' | 'component' | 'feature' | 'initiative' | 'objective' | 'key-result' | 'release'>>> = {
  product: 'product',
  component: 'component',
  feature: 'feature',
  subfeature: 'feature',
  initiative: 'initiative',
  objective: 'objective',
  keyResult: 'key-result',
  release: 'release',
};

/**
 * Where a feature-release assignment event points: the feature's links to that release, which lists
 * the assignment while it exists and nothing once it is gone.
 */
const assignmentLink = (baseUrl: string, featureId: string, releaseId: string) =>
  `${entityLink(baseUrl, featureId)}/relationships?type=link&target%5Bid%5D=${releaseId}`;

/** Field ids whose value differs (an empty value counts as absent), sorted. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const ids = new Set([...Object.keys(before), ...Object.keys(after)]);
  const value = (v: unknown) => (isEmptyValue(v) ? undefined : v);
  return [...ids].filter((id) => !isDeepStrictEqual(value(before[id]), value(after[id]))).sort();
}

/** The events one committed item change makes (none for most changes). */
export function deriveEvents(change: TableChange, baseUrl: string): WebhookEvent[] {
  const out: WebhookEvent[] = [];
  const emit = (eventType: EventType, orderingKey: string, payload: Omit<EventPayload, 'eventType'>) =>
    out.push({ id: eventId(change.changeId, eventType), workspaceId: change.workspaceId, eventType, orderingKey, payload: { ...payload, eventType } });

  switch (change.kind) {
    case 'entity': {
      const { before, after } = change;
      const e = (after ?? before)!;
      const family = FAMILIES[e.type];
      if (!family) return out;
      const links = { target: entityLink(baseUrl, e.id) };
      const lifecycle = lifecycleOf(before, after);
      if (lifecycle === 'created') emit(`${family}.created`, e.id, { id: e.id, links });
      else if (lifecycle === 'deleted') emit(`${family}.deleted`, e.id, { id: e.id, links });
      else if (lifecycle === 'live' && before && after) {
        const updated = changedFields(before.fields, after.fields);
        if ((before.parentId ?? null) !== (after.parentId ?? null)) updated.push('parent');
        if (updated.length > 0) emit(`${family}.updated`, e.id, { id: e.id, links, updatedAttributes: updated.sort() });
        const custom = updated.filter(isUuid);
        if (custom.length > 0 && isHierarchyType(e.type)) emit('hierarchy-entity.custom-field-value.updated', e.id, { links, updatedAttributes: custom });
        const was = before.total ?? 0;
        const now = after.total ?? 0;
        if (was !== now) {
          emit('customer-score.updated', e.id, {
            id: e.id,
            links: { target: `${entityLink(baseUrl, e.id)}/score` },
            updatedAttributes: ['score'],
            score: { old: was, new: now },
          });
        }
      }
      return out;
    }
    case 'note': {
      const { before, after } = change;
      const n = (after ?? before)!;
      const links = { target: noteLink(baseUrl, n.id) };
      const lifecycle = lifecycleOf(before, after);
      if (lifecycle === 'created') emit('note.created', n.id, { id: n.id, links });
      else if (lifecycle === 'deleted') emit('note.deleted', n.id, { id: n.id, links });
      else if (lifecycle === 'live' && before && after) {
        const updated = changedFields(before.fields, after.fields);
        if (!isDeepStrictEqual(customerOf(before), customerOf(after))) updated.push('customer');
        if (updated.length > 0) emit('note.updated', n.id, { id: n.id, links, updatedAttributes: updated.sort() });
      }
      return out;
    }
    case 'link': {
      const { before, after } = change;
      // Productboard's shape for insight events: the linked entity (any hierarchy type here) and the note.
      const l = (after ?? before)!;
      const payload = { id: l.noteId, links: { feature: entityLink(baseUrl, l.entityId), note: noteLink(baseUrl, l.noteId) } };
      if (!before && after) emit('insight.created', l.noteId, payload);
      else if (before && !after) emit('insight.deleted', l.noteId, payload);
      return out;
    }
    case 'relation': {
      const { before, after } = change;
      const r = (after ?? before)!;
      // Each relation is two items; the feature's side reports it, once.
      const assignment = r.type === 'link' && (r.entityType === 'feature' || r.entityType === 'subfeature') && r.targetType === 'release';
      if (assignment && (!before || !after))
        emit('feature-release-assignment.updated', r.entityId, { links: { target: assignmentLink(baseUrl, r.entityId, r.targetId) } });
      return out;
    }
  }
}

const customerOf = (n: NoteState) => (n.customer ? { id: n.customer.id, type: n.customer.type } : null);

/**
 * Where a change leaves a deletable item. A delete is reported at the first moment readers lose the
 * item — its `deleting` mark, or its removal when it was never marked — so exactly once.
 */
function lifecycleOf(before: { deleting?: string } | undefined, after: { deleting?: string } | undefined): 'created' | 'deleted' | 'live' | 'gone' {
  const liveBefore = before !== undefined && !before.deleting;
  const liveAfter = after !== undefined && !after.deleting;
  if (!before && liveAfter) return 'created';
  if (liveBefore && !liveAfter) return 'deleted';
  if (liveBefore && liveAfter) return 'live';
  return 'gone';
}
