// A record of the table's stream (a Lambda DynamoDB stream event's record, or DynamoDB Local's,
// read by local/stream-reader.ts) as a typed change of an entity, note, link or relation; every other item
// kind (ratings, credentials, rate-limit counters, webhooks, delivery records, ...) is no change
// anyone is notified of, and decodes to undefined.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { toLink } from './aggregates.ts';
import { toEntity } from './entities.ts';
import { workspaceOfPartition } from './keys.ts';
import { toNote } from './notes.ts';
import type { StoredItem } from './query.ts';
import { toRelation } from './relations.ts';
import { TABLE } from './table.ts';
import { EVENT_ITEM_KINDS, type EntityState, type LinkState, type NoteState, type RelationState, type TableChange } from '../domain/events.ts';

const image = (m: unknown): StoredItem | undefined => (m ? unmarshall(m as Record<string, AttributeValue>) : undefined);

function entityState(it: StoredItem): EntityState {
  const e = toEntity(it);
  return {
    id: e.id,
    type: e.type,
    ...(e.parentId ? { parentId: e.parentId } : {}),
    fields: e.fields,
    ...(e.total !== undefined ? { total: e.total } : {}),
    ...(e.deleting ? { deleting: e.deleting } : {}),
  };
}

function noteState(it: StoredItem): NoteState {
  const n = toNote(it);
  return { id: n.id, type: n.type, fields: n.fields, ...(n.customer ? { customer: n.customer } : {}), ...(n.deleting ? { deleting: n.deleting } : {}) };
}

function linkState(it: StoredItem): LinkState {
  const l = toLink(it);
  return { noteId: l.noteId, entityId: l.entityId };
}

function relationState(it: StoredItem): RelationState {
  const r = toRelation(it);
  return { entityId: r.entityId, ...(r.entityType ? { entityType: r.entityType } : {}), type: r.type, targetId: r.targetId, targetType: r.targetType };
}

/**
 * The filter the deployed event source mapping applies (Lambda event filtering), so changes of other
 * item kinds never invoke the stream function: the old or the new image is one of EVENT_ITEM_KINDS.
 */
export const EVENT_RECORD_FILTERS = [
  { dynamodb: { NewImage: { kind: { S: [...EVENT_ITEM_KINDS] } } } },
  { dynamodb: { OldImage: { kind: { S: [...EVENT_ITEM_KINDS] } } } },
];

/**
 * The mark of a bulk write (admin restore and imports, lib/store/move/): the run's id. A change whose
 * new image carries a mark its old image did not is that run's own write, and makes no event; a
 * later write that leaves the mark as it was (every API write) is reported as usual.
 */
export const QUIET_WRITE = 'quietWrite';

export function decodeStreamRecord(record: DynamoDBRecord): TableChange | undefined {
  const d = record.dynamodb;
  const keys = image(d?.Keys);
  const before = image(d?.OldImage);
  const after = image(d?.NewImage);
  if (after?.[QUIET_WRITE] !== undefined && after[QUIET_WRITE] !== before?.[QUIET_WRITE]) return undefined;
  const kind = (after ?? before)?.kind;
  const pk = keys?.[TABLE.partitionKey];
  const workspaceId = typeof pk === 'string' ? workspaceOfPartition(pk) : undefined;
  if (!d?.SequenceNumber || !workspaceId || !(EVENT_ITEM_KINDS as readonly unknown[]).includes(kind)) return undefined;
  const base = { workspaceId, changeId: `${String(pk)}\n${String(keys![TABLE.sortKey])}\n${d.SequenceNumber}` };
  switch (kind as TableChange['kind']) {
    case 'entity':
      return { kind: 'entity', ...base, before: before && entityState(before), after: after && entityState(after) };
    case 'note':
      return { kind: 'note', ...base, before: before && noteState(before), after: after && noteState(after) };
    case 'link':
      return { kind: 'link', ...base, before: before && linkState(before), after: after && linkState(after) };
    case 'relation':
      return { kind: 'relation', ...base, before: before && relationState(before), after: after && relationState(after) };
  }
}
