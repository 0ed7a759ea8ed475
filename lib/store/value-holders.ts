// Whether a field value is held: whether some entity, read now, shows it (a tag or a select option
// held directly, or through a value deleted with it as the replacement). No index says which records
// hold a value, so the entities of the workspace are read page by page, only the field's attribute
// of each, until one shows it. Deleting a value is rare; the read stops once three quarters of the
// request's time are spent, leaving the rest to the delete, and the refusal then says it could not
// tell rather than letting the request run out.
import { queryPage, queryPages } from './calls.ts';
import { idsIn, MAX_REPLACEMENTS } from './field-refs.ts';
import { TAG_VALUE_REPLACED_KIND, type ValueField } from './field-values.ts';
import * as keys from './keys.ts';
import { tableName } from './table.ts';
import { deadlineOf } from '../deadline.ts';
import { customValueRead, type CustomFieldDef } from '../domain/configurations.ts';
import { InvalidInput, parameter } from '../domain/errors.ts';
import { TAGS_FIELD } from '../domain/field-values.ts';

interface HeldFields {
  id: string;
  type: string;
  deleting?: string;
  fields?: Record<string, unknown>;
}

/** Entities read per page: the check of the time left comes between pages. */
const PAGE = 1000;

const UNDECIDED = Symbol('undecided');

/**
 * Refuses to delete a value an entity holds, as Productboard does unless the request says what
 * becomes of it (`force` clears it, `replaceWith` gives them another value): InvalidInput at the
 * `force` parameter, naming one holder.
 */
export async function refuseIfHeld(ws: string, field: ValueField, valueId: string): Promise<void> {
  const holder = await firstHolder(ws, field, valueId);
  if (holder === undefined) return;
  const what =
    "send force=true to clear the value from every entity that holds it, or replaceWith with another value's id to give them that one instead. Nothing was deleted.";
  throw new InvalidInput(
    holder === UNDECIDED
      ? `Could not tell in the request's time whether an entity holds value ${valueId} (this workspace's entities take longer to read): ${what}`
      : `Entity ${holder} holds value ${valueId}, and others may: ${what}`,
    parameter('force'),
  );
}

/**
 * The id of an entity that reads with `valueId` in the field (the first found), undefined when none
 * does, or UNDECIDED when three quarters of the request's time passed before the last page.
 */
async function firstHolder(ws: string, field: ValueField, valueId: string): Promise<string | undefined | typeof UNDECIDED> {
  if (field.kind === 'status') return undefined;
  const start = Date.now();
  const until = start + ((deadlineOf(start) - start) * 3) / 4;
  const attribute = field.kind === 'tags' ? TAGS_FIELD : field.def.id;
  const holds = field.kind === 'tags' ? tagsHolding(await tagIdsReadingAs(ws, valueId)) : selectHolding(field.def, valueId);
  const query = {
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': keys.kindPrefix.entity },
    ExpressionAttributeNames: { '#type': 'type', '#fields': 'fields', '#f': attribute },
    ProjectionExpression: 'id, #type, deleting, #fields.#f',
    ConsistentRead: true,
    Limit: PAGE,
  };
  for (let after: Record<string, unknown> | undefined; ;) {
    const page = await queryPage(after ? { ...query, ExclusiveStartKey: after } : query);
    const holder = ((page.Items ?? []) as HeldFields[]).find((e) => !e.deleting && e.fields?.[attribute] !== undefined && holds(e.type, e.fields[attribute]));
    if (holder) return holder.id;
    after = page.LastEvaluatedKey;
    if (!after) return undefined;
    if (Date.now() > until) return UNDECIDED;
  }
}

/**
 * The tag ids an entity may store that read as `valueId` (lib/store/field-refs.ts, withCurrentRefs):
 * the value itself, and each deleted with it as the replacement, or with one of those, up to the hops
 * a read follows. One Query of the field's value items, replaced ones kept as pointers.
 */
async function tagIdsReadingAs(ws: string, valueId: string): Promise<Set<string>> {
  const replacedBy = new Map<string, string>();
  for await (const page of queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    FilterExpression: 'kind = :replaced',
    ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': keys.fieldValuePrefix(TAGS_FIELD), ':replaced': TAG_VALUE_REPLACED_KIND },
    ProjectionExpression: 'id, replacedBy',
    ConsistentRead: true,
  }))
    for (const item of page) if (typeof item.id === 'string' && typeof item.replacedBy === 'string') replacedBy.set(item.id, item.replacedBy);
  const reading = new Set([valueId]);
  for (let hop = 0; hop < MAX_REPLACEMENTS; hop++) {
    const before = reading.size;
    for (const [from, to] of replacedBy) if (reading.has(to)) reading.add(from);
    if (reading.size === before) break;
  }
  return reading;
}

/** Whether a stored tag list (`[{id, name}]`) holds one of `ids`. */
const tagsHolding =
  (ids: ReadonlySet<string>) =>
  (_type: string, stored: unknown): boolean =>
    idsIn(stored).some((id) => ids.has(id));

/** Whether a stored select value (an option's id, or a name written before options had ids) reads as option `valueId` on an entity of the field's type. */
const selectHolding =
  (def: CustomFieldDef, valueId: string) =>
  (type: string, stored: unknown): boolean =>
    type === def.entityType && (customValueRead(def, stored) as { id?: string } | undefined)?.id === valueId;
