// Whether a field value is held: whether some entity, read now, shows it (a tag or a select option
// held directly, or through a value deleted with it as the replacement). No index says which records
// hold a value, so the entities of the workspace are read page by page, only the field's attribute
// of each, until one shows it; deleting a value is rare, and the read is bounded like any other
// (a request's deadline ends it).
import { queryPages } from './calls.ts';
import { withCurrentRefs } from './field-refs.ts';
import type { ValueField } from './field-values.ts';
import * as keys from './keys.ts';
import { tableName } from './table.ts';
import { withCustomReads } from '../domain/configurations.ts';
import { InvalidInput, parameter } from '../domain/errors.ts';
import { TAGS_FIELD } from '../domain/field-values.ts';

interface HeldFields {
  sk: string;
  type: string;
  deleting?: string;
  fields?: Record<string, unknown>;
}

/**
 * Refuses to delete a value an entity holds, as Productboard does unless the request says what
 * becomes of it (`force` clears it, `replaceWith` gives them another value): InvalidInput at the
 * `force` parameter, naming one holder.
 */
export async function refuseIfHeld(ws: string, field: ValueField, valueId: string): Promise<void> {
  const holder = await firstHolder(ws, field, valueId);
  if (holder === undefined) return;
  throw new InvalidInput(
    `Entity ${holder} holds value ${valueId}, and others may: send force=true to clear the value from every entity that holds it, or replaceWith with another value's id to give them that one instead. Nothing was deleted.`,
    parameter('force'),
  );
}

/** The id of an entity that reads with `valueId` in the field (the first found), or undefined when none does. */
async function firstHolder(ws: string, field: ValueField, valueId: string): Promise<string | undefined> {
  if (field.kind === 'status') return undefined;
  const attribute = field.kind === 'tags' ? TAGS_FIELD : field.def.id;
  for await (const page of queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': keys.kindPrefix.entity },
    ExpressionAttributeNames: { '#type': 'type', '#fields': 'fields', '#f': attribute },
    ProjectionExpression: 'sk, #type, deleting, #fields.#f',
    ConsistentRead: true,
  })) {
    const records = (page as unknown as HeldFields[])
      .filter((e) => !e.deleting && e.fields?.[attribute] !== undefined)
      .map((e) => ({ id: e.sk.slice(keys.kindPrefix.entity.length), type: e.type, fields: e.fields! }));
    if (records.length === 0) continue;
    const read = field.kind === 'tags' ? await withCurrentRefs(ws, records) : records.map((r) => withCustomReads(r, [field.def]));
    const holder = read.find((r) => holds(r.fields[attribute], valueId));
    if (holder) return holder.id;
  }
  return undefined;
}

/** A field's value as it reads — a tag list `[{id, name}]` or a select option `{id, name}` — shows `valueId`. */
const holds = (value: unknown, valueId: string): boolean =>
  Array.isArray(value) ? value.some((v) => holds(v, valueId)) : (value as { id?: unknown } | null | undefined)?.id === valueId;
