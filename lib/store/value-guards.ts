// What orders an entity write that gives the entity a tag or a select option against a delete of that
// value refused while an entity holds it (DELETE …/values/{valueId} without force or replaceWith).
// That delete finds holders by reading the entities (lib/store/value-holders.ts), which no
// transaction can include, so the two sides meet on the value's own item instead:
//  - a write that gives an entity a value it did not have counts itself on the value's item (`adds`:
//    the tag value's item; a select option's field definition), conditioned on the value being
//    live, in the write's own transaction;
//  - the delete reads that count before it reads the entities, and deletes on condition that the
//    count is unchanged: a write that landed while it read makes it read again (and refuse), and a
//    write after it fails its condition and finds the value gone.
// Only additions count: a write that keeps, removes or clears a value cannot make it held.
import { batchGetByKey, itemKeyId } from './batch.ts';
import { txItemKey } from './calls.ts';
import { storedDef, versionIs } from './custom-fields.ts';
import { idsIn } from './field-refs.ts';
import { TAG_VALUE_KIND } from './field-values.ts';
import * as keys from './keys.ts';
import { tableName } from './table.ts';
import { MAX_TX_ITEMS, type TxItem } from './tx.ts';
import { InvalidInput, pointer, type Path } from '../domain/errors.ts';
import { TAGS_FIELD, selectValuesOf } from '../domain/field-values.ts';
import { isUuid } from '../domain/input.ts';

type Fields = Readonly<Record<string, unknown>>;

/** Where the request holds a field, by its id (`tags` for the tags). */
export type FieldAt = (field: string) => Path;

const keyOf = (item: TxItem) => {
  const key = txItemKey(item);
  return key ? itemKeyId(key) : undefined;
};

/**
 * The items that count an entity write's added values (see the header), for a write of an entity of
 * `type` from `before` (undefined: a create) to `after`, whose transaction already holds `items`
 * (a tag value the write creates is among them and needs no count). A select option deleted since
 * the write checked it → InvalidInput at that field (`at`); a write that would need more items than
 * one transaction takes → InvalidInput at the tags.
 */
export async function addedValueGuards(
  ws: string,
  type: string,
  before: Fields | undefined,
  after: Fields,
  items: readonly TxItem[],
  at: FieldAt,
): Promise<TxItem[]> {
  const inTx = new Set(items.map(keyOf));
  const hadTags = new Set(idsIn(before?.tags));
  const guards: TxItem[] = idsIn(after.tags)
    .filter((id) => !hadTags.has(id) && !inTx.has(itemKeyId(keys.fieldValue(ws, TAGS_FIELD, id))))
    .map((id) => ({
      Update: {
        TableName: tableName(),
        Key: keys.fieldValue(ws, TAGS_FIELD, id),
        UpdateExpression: 'ADD adds :one',
        ConditionExpression: 'kind = :kind',
        ExpressionAttributeValues: { ':one': 1, ':kind': TAG_VALUE_KIND },
      },
    }));
  // A select option is stored as its id, under the field's id: only such values can be options.
  const options = Object.entries(after).filter(([field, value]) => isUuid(field) && isUuid(value) && before?.[field] !== value) as Array<[string, string]>;
  if (options.length > 0) {
    const found = await batchGetByKey(
      options.map(([field]) => keys.customField(ws, field)),
      { consistent: true },
    );
    for (const [field, option] of options) {
      const item = found.get(itemKeyId(keys.customField(ws, field)));
      if (item?.kind !== 'customField') continue;
      const def = storedDef(item);
      if (def.fieldKind !== 'select' || def.entityType !== type) continue;
      if (!selectValuesOf(def).some((v) => v.id === option))
        throw new InvalidInput(`Field ${field} has no option ${option} any more: it was deleted while this write was in progress.`, pointer(at(field)));
      const values: Record<string, unknown> = { ':one': 1, ':kind': 'customField' };
      guards.push({
        Update: {
          TableName: tableName(),
          Key: keys.customField(ws, field),
          UpdateExpression: 'ADD adds :one',
          // The options as read: a delete of one of them changes the version.
          ConditionExpression: `kind = :kind AND ${versionIs(def.ver, values)}`,
          ExpressionAttributeValues: values,
        },
      });
    }
  }
  if (items.length + guards.length > MAX_TX_ITEMS)
    throw new InvalidInput(
      `This write gives the entity ${guards.length} values it did not have, more than one write can (at most ${MAX_TX_ITEMS - items.length} here); send the rest of its tags in another write.`,
      pointer(at('tags')),
    );
  return guards;
}
