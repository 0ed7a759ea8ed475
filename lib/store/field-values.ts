// The values of the fields that have a set of them (GET/POST /v2/entities/fields/{id}/values,
// PATCH/DELETE …/{valueId}): the workspace's tag values (items of their own, keys.fieldValue, with a
// name guard each), a custom select field's options (in its definition: lib/store/custom-fields.ts)
// and the status values (fixed per type: lib/domain/statuses.ts, read only).
//
// Records store the value's id (tags as [{id, name}], a select option as its id), and every read
// names it as it is now (lib/store/field-refs.ts withCurrentRefs, lib/domain/configurations.ts
// customValueRead): renaming a value renames it on every record at once, and deleting one clears it
// from every record at once — it is no value of any record from then on, and a record's next write
// drops the stale id. Deleting with `replaceWith` leaves the old id pointing at its replacement, so
// every record that had the old value reads the replacement instead.
import { randomUUID } from 'node:crypto';
import { batchGetByKey, itemKeyId } from './batch.ts';
import { getItem } from './calls.ts';
import { changeSelectValues, getCustomField, heldCountIs } from './custom-fields.ts';
import { transactOnce, type WriteScope } from './idempotency.ts';
import * as keys from './keys.ts';
import type { StoredItem } from './query.ts';
import { tableName } from './table.ts';
import { transact, type TxItem } from './tx.ts';
import type { CustomFieldDef } from '../domain/configurations.ts';
import { Conflict, InvalidInput, NotFound, parameter, pointer } from '../domain/errors.ts';
import {
  colorFor,
  MAX_SELECT_VALUES,
  nameKey,
  nextSeq,
  STATUS_FIELD,
  STATUS_VALUES_FIXED,
  TAGS_FIELD,
  type SelectColor,
  type SelectValue,
} from '../domain/field-values.ts';
import { isUuid } from '../domain/input.ts';
import type { StandardFieldId } from '../domain/schemas/field-values.ts';

export const TAG_VALUE_KIND = 'fieldValue';
export const TAG_VALUE_REPLACED_KIND = 'fieldValueReplaced';

/** A tag value as stored: the value and when it was made (its place in the list). */
export interface StoredTagValue extends SelectValue {
  createdAt: string;
}

export const toSelectValue = (item: StoredItem): StoredTagValue => ({
  id: String(item.id),
  name: String(item.name),
  color: (item.color as SelectColor | undefined) ?? colorFor(String(item.id)),
  createdAt: String(item.createdAt),
});

/** The two items of a new tag value (the value, its name guard), each only where nothing is yet. */
export function newTagValueItems(ws: string, value: StoredTagValue): TxItem[] {
  return [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.fieldValue(ws, TAGS_FIELD, value.id),
          kind: TAG_VALUE_KIND,
          fieldId: TAGS_FIELD,
          ...value,
          gsi1pk: keys.fieldValuesOf(ws, TAGS_FIELD),
          gsi1sk: keys.listPosition(value.createdAt, value.id),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.fieldValueName(ws, TAGS_FIELD, nameKey(value.name)), kind: 'fieldValueName', fieldId: TAGS_FIELD, valueId: value.id, name: value.name },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** A field whose values these routes manage, as its id names it. */
export type ValueField = { kind: 'tags' } | { kind: 'status' } | { kind: 'select'; def: CustomFieldDef };

/** Standard fields that have no values, for the refusal that says which do. */
const VALUELESS_STANDARD: readonly string[] = [
  'name',
  'description',
  'owner',
  'teams',
  'timeframe',
  'archived',
  'email',
  'domain',
] satisfies readonly StandardFieldId[];

/**
 * The field `id` names (`tags`, `status`, or a custom select field's uuid); NotFound when it names
 * no field of this workspace's entities, InvalidInput (at the `id` parameter) when the field has no
 * values.
 */
export async function valueFieldOf(ws: string, id: string): Promise<ValueField> {
  if (id === TAGS_FIELD) return { kind: 'tags' };
  if (id === STATUS_FIELD) return { kind: 'status' };
  const noValues = (what: string) =>
    new InvalidInput(`${what} has no values: select, tag and status fields have (tags, status, or a custom select field's id).`, parameter('id'));
  if (VALUELESS_STANDARD.includes(id)) throw noValues(`Field '${id}'`);
  const def = isUuid(id) ? await getCustomField(ws, id.toLowerCase()) : undefined;
  if (!def || !isEntityField(def))
    throw new NotFound(
      'field',
      id,
      `No entity field ${id.slice(0, 100)} in this workspace: the fields with values are tags, status and custom select fields (GET /v2/entities/configurations).`,
    );
  if (def.fieldKind !== 'select') throw noValues(`Custom field '${def.name}' (${def.id}, ${def.fieldKind})`);
  return { kind: 'select', def };
}

/** Custom fields of entity types (note types' fields are notes'). */
const isEntityField = (def: CustomFieldDef) => !['textNote', 'conversationNote'].includes(def.entityType);

/** A value's name must be free in its field (case-insensitive); 409 at the name otherwise. */
const nameTaken = (name: string) =>
  new Conflict(`The field already has a value named '${name.slice(0, 100)}' (names are compared case-insensitively).`, pointer(['data', 'fields', 'name']));
const noValue = (field: string, valueId: string) => new NotFound('value', valueId, `Field ${field} has no value ${valueId}.`);

/** A field value's id as the path gives it: a uuid (the route's schema checked it). */
interface ValueInput {
  name?: string | undefined;
  color?: SelectColor | undefined;
}

/** Refuses a change of the status values (they are each type's fixed set). */
function refuseStatus(): never {
  throw new InvalidInput(STATUS_VALUES_FIXED, parameter('id'));
}

export async function createFieldValue(
  ws: string,
  field: ValueField,
  input: { name: string; color?: SelectColor | undefined },
  scope?: WriteScope,
): Promise<SelectValue> {
  if (field.kind === 'status') refuseStatus();
  const id = randomUUID();
  const value: SelectValue = { id, name: input.name, color: input.color ?? colorFor(id) };
  if (field.kind === 'select') {
    const fieldId = field.def.id;
    return changeSelectValues(
      ws,
      fieldId,
      (_def, values) => {
        if (values.some((v) => nameKey(v.name) === nameKey(input.name))) throw nameTaken(input.name);
        if (values.length >= MAX_SELECT_VALUES)
          throw new InvalidInput(`A select field holds at most ${MAX_SELECT_VALUES} options; delete one first.`, pointer(['data', 'fields', 'name']));
        return { values: [...values, { ...value, seq: nextSeq(values) }], result: value };
      },
      () => new NotFound('field', fieldId),
      scope,
    );
  }
  return transactOnce(
    'createFieldValue',
    async () => {
      const { Item } = await getItem({ TableName: tableName(), Key: keys.fieldValueName(ws, TAGS_FIELD, nameKey(input.name)), ConsistentRead: true });
      if (Item) throw nameTaken(input.name);
      return { items: newTagValueItems(ws, { ...value, createdAt: new Date().toISOString() }), result: value };
    },
    scope,
  );
}

/** A live tag value by id, or undefined. */
async function getTagValue(ws: string, id: string): Promise<StoredTagValue | undefined> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.fieldValue(ws, TAGS_FIELD, id), ConsistentRead: true });
  return Item?.kind === TAG_VALUE_KIND ? toSelectValue(Item) : undefined;
}

export async function updateFieldValue(ws: string, field: ValueField, valueId: string, input: ValueInput, scope?: WriteScope): Promise<SelectValue> {
  if (field.kind === 'status') refuseStatus();
  if (field.kind === 'select') {
    const fieldId = field.def.id;
    return changeSelectValues(
      ws,
      fieldId,
      (_def, values) => {
        const at = values.findIndex((v) => v.id === valueId);
        if (at < 0) throw noValue(fieldId, valueId);
        if (input.name !== undefined && values.some((v) => v.id !== valueId && nameKey(v.name) === nameKey(input.name!))) throw nameTaken(input.name);
        const next = {
          ...values[at]!,
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.color !== undefined ? { color: input.color } : {}),
        };
        return { values: values.map((v, i) => (i === at ? next : v)), result: next };
      },
      () => new NotFound('field', fieldId),
      scope,
    );
  }
  return transact(
    'updateFieldValue',
    async () => {
      const current = await getTagValue(ws, valueId);
      if (!current) throw noValue(TAGS_FIELD, valueId);
      const next: StoredTagValue = {
        ...current,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.color !== undefined ? { color: input.color } : {}),
      };
      const renamed = nameKey(next.name) !== nameKey(current.name);
      if (renamed) {
        const { Item } = await getItem({ TableName: tableName(), Key: keys.fieldValueName(ws, TAGS_FIELD, nameKey(next.name)), ConsistentRead: true });
        if (Item) throw nameTaken(next.name);
      }
      const guard = (name: string) => keys.fieldValueName(ws, TAGS_FIELD, nameKey(name));
      const items: TxItem[] = [
        {
          Update: {
            TableName: tableName(),
            Key: keys.fieldValue(ws, TAGS_FIELD, valueId),
            UpdateExpression: 'SET #n = :n, color = :c',
            ConditionExpression: 'kind = :kind AND #n = :was',
            ExpressionAttributeNames: { '#n': 'name' },
            ExpressionAttributeValues: { ':n': next.name, ':c': next.color, ':kind': TAG_VALUE_KIND, ':was': current.name },
          },
        },
        ...(renamed
          ? [
              {
                Delete: { TableName: tableName(), Key: guard(current.name), ConditionExpression: 'valueId = :v', ExpressionAttributeValues: { ':v': valueId } },
              },
              {
                Put: {
                  TableName: tableName(),
                  Item: { ...guard(next.name), kind: 'fieldValueName', fieldId: TAGS_FIELD, valueId, name: next.name },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ]
          : [
              {
                Update: {
                  TableName: tableName(),
                  Key: guard(current.name),
                  UpdateExpression: 'SET #n = :n',
                  ConditionExpression: 'valueId = :v',
                  ExpressionAttributeNames: { '#n': 'name' },
                  ExpressionAttributeValues: { ':n': next.name, ':v': valueId },
                },
              },
            ]),
      ];
      return { items, result: { id: next.id, name: next.name, color: next.color } };
    },
    scope?.deadline,
  );
}

/**
 * Deletes a value: it is cleared from every record at once (see the header). `replaceWith`, another
 * value of the same field: every record that had the deleted value has that one instead.
 * `unlessHeld`: the check that refuses while an entity holds the value, run once the value is found;
 * the delete is then conditioned on no write having given an entity the value since
 * (lib/store/value-guards.ts), else it runs again.
 */
export async function deleteFieldValue(
  ws: string,
  field: ValueField,
  valueId: string,
  replaceWith: string | undefined,
  scope?: WriteScope,
  unlessHeld?: () => Promise<void>,
): Promise<void> {
  if (field.kind === 'status') refuseStatus();
  const sameValue = () =>
    new InvalidInput(`replaceWith names the value being deleted (${valueId}); name another value of the field.`, parameter('replaceWith'));
  if (replaceWith === valueId) throw sameValue();
  const noReplacement = (fieldId: string) => new InvalidInput(`replaceWith: field ${fieldId} has no value ${replaceWith}.`, parameter('replaceWith'));
  if (field.kind === 'select') {
    const fieldId = field.def.id;
    await changeSelectValues(
      ws,
      fieldId,
      (def, values) => {
        if (!values.some((v) => v.id === valueId)) throw noValue(fieldId, valueId);
        if (replaceWith !== undefined && !values.some((v) => v.id === replaceWith)) throw noReplacement(fieldId);
        // Replacements point at live values: ones pointing at the deleted value now point at its replacement.
        const replaced = Object.fromEntries(
          Object.entries(def.replaced ?? {})
            .map(([from, to]) => [from, to === valueId ? replaceWith : to] as const)
            .filter((e): e is [string, string] => e[1] !== undefined),
        );
        if (replaceWith !== undefined) replaced[valueId] = replaceWith;
        return { values: values.filter((v) => v.id !== valueId), replaced, result: undefined };
      },
      () => new NotFound('field', fieldId),
      scope,
      unlessHeld,
    );
    return;
  }
  await transact(
    'deleteFieldValue',
    async () => {
      const found = await batchGetByKey(
        [keys.fieldValue(ws, TAGS_FIELD, valueId), ...(replaceWith !== undefined ? [keys.fieldValue(ws, TAGS_FIELD, replaceWith)] : [])],
        { consistent: true },
      );
      const current = found.get(itemKeyId(keys.fieldValue(ws, TAGS_FIELD, valueId)));
      if (current?.kind !== TAG_VALUE_KIND) throw noValue(TAGS_FIELD, valueId);
      const value = toSelectValue(current);
      const guard = {
        Delete: {
          TableName: tableName(),
          Key: keys.fieldValueName(ws, TAGS_FIELD, nameKey(value.name)),
          ConditionExpression: 'valueId = :v',
          ExpressionAttributeValues: { ':v': valueId },
        },
      };
      if (replaceWith === undefined) {
        const values: Record<string, unknown> = { ':kind': TAG_VALUE_KIND };
        let condition = 'kind = :kind';
        if (unlessHeld) {
          await unlessHeld();
          condition += ` AND ${heldCountIs(current.adds, values)}`;
        }
        return {
          items: [
            {
              Delete: {
                TableName: tableName(),
                Key: keys.fieldValue(ws, TAGS_FIELD, valueId),
                ConditionExpression: condition,
                ExpressionAttributeValues: values,
              },
            },
            guard,
          ],
          result: undefined,
        };
      }
      if (found.get(itemKeyId(keys.fieldValue(ws, TAGS_FIELD, replaceWith)))?.kind !== TAG_VALUE_KIND) throw noReplacement(TAGS_FIELD);
      return {
        items: [
          // The old id stays, off the list, pointing at its replacement (lib/store/field-refs.ts follows it).
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.fieldValue(ws, TAGS_FIELD, valueId), kind: TAG_VALUE_REPLACED_KIND, fieldId: TAGS_FIELD, id: valueId, replacedBy: replaceWith },
              ConditionExpression: 'kind = :kind',
              ExpressionAttributeValues: { ':kind': TAG_VALUE_KIND },
            },
          },
          guard,
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.fieldValue(ws, TAGS_FIELD, replaceWith),
              ConditionExpression: 'kind = :kind',
              ExpressionAttributeValues: { ':kind': TAG_VALUE_KIND },
            },
          },
        ],
        result: undefined,
      };
    },
    scope?.deadline,
  );
}
