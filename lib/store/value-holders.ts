// Whether a field value is held: whether some entity, read now, shows it (a tag or a select option
// held directly, or through a value deleted with it as the replacement). No index says which records
// hold a value, so the entities of the workspace are read page by page, only the field's attribute
// of each, until one shows it. Deleting a value is rare; the read stops once three quarters of the
// request's time are spent, leaving the rest to the delete, and the refusal then says it could not
// tell rather than letting the request run out.
import { queryPage } from './calls.ts';
import { withCurrentRefs } from './field-refs.ts';
import type { ValueField } from './field-values.ts';
import * as keys from './keys.ts';
import { tableName } from './table.ts';
import { deadlineOf } from '../deadline.ts';
import { withCustomReads } from '../domain/configurations.ts';
import { InvalidInput, parameter } from '../domain/errors.ts';
import { TAGS_FIELD } from '../domain/field-values.ts';

interface HeldFields {
  sk: string;
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
  const query = {
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': keys.kindPrefix.entity },
    ExpressionAttributeNames: { '#type': 'type', '#fields': 'fields', '#f': attribute },
    ProjectionExpression: 'sk, #type, deleting, #fields.#f',
    ConsistentRead: true,
    Limit: PAGE,
  };
  for (let after: Record<string, unknown> | undefined; ;) {
    const page = await queryPage(after ? { ...query, ExclusiveStartKey: after } : query);
    const records = ((page.Items ?? []) as HeldFields[])
      .filter((e) => !e.deleting && e.fields?.[attribute] !== undefined)
      .map((e) => ({ id: e.sk.slice(keys.kindPrefix.entity.length), type: e.type, fields: e.fields! }));
    const read = records.length === 0 ? [] : field.kind === 'tags' ? await withCurrentRefs(ws, records) : records.map((r) => withCustomReads(r, [field.def]));
    const holder = read.find((r) => holds(r.fields[attribute], valueId));
    if (holder) return holder.id;
    after = page.LastEvaluatedKey;
    if (!after) return undefined;
    if (Date.now() > until) return UNDECIDED;
  }
}

/** A field's value as it reads — a tag list `[{id, name}]` or a select option `{id, name}` — shows `valueId`. */
const holds = (value: unknown, valueId: string): boolean =>
  Array.isArray(value) ? value.some((v) => holds(v, valueId)) : (value as { id?: unknown } | null | undefined)?.id === valueId;
