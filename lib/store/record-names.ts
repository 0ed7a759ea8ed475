// The records a request will read, named by what they are: the layers above name them (the read
// ahead of lib/http/prefetch.ts, a new note's reads), and only the store turns a name into its key.
import * as keys from './keys.ts';
import type { ItemKey } from './keys.ts';
import { recordName } from '../domain/idempotency.ts';
import { isUuid } from '../domain/input.ts';

export type RecordName =
  | { entity: string }
  | { note: string }
  | { member: string }
  /** A customer's rating of an entity. */
  | { rating: { entity: string; customer: string } }
  /** A custom field's definition, by a field id a write names (only a uuid names one). */
  | { customField: string }
  /** The record of an Idempotency-Key in its scope (lib/domain/idempotency.ts). */
  | { idempotencyRecord: { scope: string; key: string } };

/** The keys of `names` in workspace `ws`, in their order. */
export function keysOf(ws: string, names: readonly RecordName[]): ItemKey[] {
  return names.flatMap((n): ItemKey[] => {
    if ('entity' in n) return [keys.entity(ws, n.entity)];
    if ('note' in n) return [keys.note(ws, n.note)];
    if ('member' in n) return [keys.member(ws, n.member)];
    if ('rating' in n) return [keys.rating(ws, n.rating.entity, n.rating.customer)];
    if ('customField' in n) return isUuid(n.customField) ? [keys.customField(ws, n.customField.toLowerCase())] : [];
    return [keys.idempotency(ws, recordName(n.idempotencyRecord.scope, n.idempotencyRecord.key))];
  });
}

/**
 * What a new note's first reads ask for: the customer given by id, each link target, the customer's
 * rating of each target, the members given by id, and the custom-field definitions its field ids
 * may name. Most useful first: a BatchGetItem that has room for only some takes those.
 */
export function newNoteRecords(want: {
  customerId?: string | undefined;
  linkIds: readonly string[];
  memberIds?: readonly string[];
  fieldIds: readonly string[];
}): RecordName[] {
  const { customerId, linkIds } = want;
  return [
    ...(customerId ? [{ entity: customerId }] : []),
    ...linkIds.map((id) => ({ entity: id })),
    ...(customerId ? linkIds.map((id) => ({ rating: { entity: id, customer: customerId } })) : []),
    ...(want.memberIds ?? []).map((id) => ({ member: id })),
    ...want.fieldIds.map((id) => ({ customField: id })),
  ];
}
