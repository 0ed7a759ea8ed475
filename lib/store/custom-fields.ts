// Custom field definitions of a workspace (keys.customField). Few per workspace, so a type's
// configuration is one Query of the workspace partition's custom-field range. A select field's
// options (its values, with ids) live in its definition, so every read that knows the definitions
// can name them; changing them is a write of the definition, conditioned on the version it read.
import { randomUUID } from 'node:crypto';
import { getItem } from './calls.ts';
import { NameTaken } from './errors.ts';
import { transactOnce, type WriteScope } from './idempotency.ts';
import * as keys from './keys.ts';
import { readAhead, type Prereads } from './preread.ts';
import { partitionItems, type StoredItem } from './query.ts';
import { keysOf } from './record-names.ts';
import { tableName } from './table.ts';
import { putInWorkspace } from './workspaces.ts';
import {
  configuredFieldIds,
  customValueCheck,
  type CustomValueCheck,
  type CustomFieldDef,
  type CustomFieldKind,
  type EntityType,
  type NoteType,
} from '../domain/configurations.ts';
import { colorFor, nameKey, selectValuesOf, type SelectValue } from '../domain/field-values.ts';

/**
 * A definition as stored: the definition, when it was made, its version (changes of its options)
 * and, for a select field, how many writes have given an entity one of its options
 * (lib/store/value-guards.ts).
 */
type StoredDef = CustomFieldDef & { createdAt: string; ver: number; adds?: number };

export const storedDef = (item: StoredItem): StoredDef => {
  const d = item as Partial<StoredDef>;
  const def: StoredDef = {
    id: d.id!,
    entityType: d.entityType!,
    name: d.name!,
    fieldKind: d.fieldKind!,
    ...(Array.isArray(d.options) ? { options: d.options } : {}),
    ...(Array.isArray(d.values) ? { values: d.values } : {}),
    ...(d.replaced ? { replaced: d.replaced } : {}),
    createdAt: d.createdAt!,
    ver: typeof d.ver === 'number' ? d.ver : 0,
    ...(typeof d.adds === 'number' ? { adds: d.adds } : {}),
  };
  // The option names, from the values where the definition has them.
  if (def.fieldKind === 'select') def.options = selectValuesOf(def).map((v) => v.name);
  return def;
};

/** The workspace's custom fields, oldest first (optionally of one type). */
export async function listCustomFields(workspaceId: string, entityType?: string): Promise<CustomFieldDef[]> {
  const items = await partitionItems(workspaceId, keys.customFieldsPrefix);
  return items
    .map(storedDef)
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1))
    .map(({ createdAt: _made, ver: _ver, adds: _adds, ...def }) => def)
    .filter((d) => entityType === undefined || d.entityType === entityType);
}

export async function addCustomField(
  workspaceId: string,
  input: { entityType: string; name: string; fieldKind: CustomFieldKind; options?: string[] },
): Promise<CustomFieldDef> {
  // The guard item written with the definition settles two adds of one name at once; this read finds
  // a field defined before definitions had guards.
  const taken = () => new NameTaken(input.name, input.entityType);
  if ((await listCustomFields(workspaceId, input.entityType)).some((d) => nameKey(d.name) === nameKey(input.name))) throw taken();
  const id = randomUUID();
  const values = (input.options ?? []).map((name, seq): SelectValue => {
    const valueId = randomUUID();
    return { id: valueId, name, color: colorFor(valueId), seq };
  });
  const def: CustomFieldDef = {
    id,
    entityType: input.entityType,
    name: input.name,
    fieldKind: input.fieldKind,
    ...(input.fieldKind === 'select' ? { options: values.map((v) => v.name), values } : {}),
  };
  await putInWorkspace(workspaceId, [
    { item: { ...keys.customField(workspaceId, def.id), kind: 'customField', workspaceId, ...def, createdAt: new Date().toISOString(), ver: 0 }, unique: true },
    { item: customFieldNameGuard(workspaceId, def), unique: true, taken },
  ]);
  return def;
}

/** The item that holds a definition's name on its type (keys.customFieldName), written with the definition. */
export const customFieldNameGuard = (ws: string, def: { id: string; entityType: string; name: string }) => ({
  ...keys.customFieldName(ws, def.entityType, nameKey(def.name)),
  kind: 'customFieldName',
  fieldId: def.id,
});

/** One custom field definition, or undefined. */
export async function getCustomField(workspaceId: string, fieldId: string): Promise<StoredDef | undefined> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.customField(workspaceId, fieldId), ConsistentRead: true });
  return Item?.kind === 'customField' ? storedDef(Item) : undefined;
}

/**
 * Changes a select field's options: `change` gets the definition as read now and returns its new
 * values (and replacements), or throws. One write conditioned on the version it read; a concurrent
 * change makes it read again. `missing`: what to throw when the field is gone. `unlessHeld`, for a
 * delete refused while an entity holds the option: run after `change` on the definition as read,
 * and the write is also conditioned on the count of writes that added one of its options
 * (lib/store/value-guards.ts), so one that lands meanwhile makes it read again.
 */
export async function changeSelectValues<T>(
  workspaceId: string,
  fieldId: string,
  change: (def: CustomFieldDef, values: SelectValue[]) => { values: SelectValue[]; replaced?: Record<string, string>; result: T },
  missing: () => Error,
  scope?: WriteScope,
  unlessHeld?: () => Promise<void>,
): Promise<T> {
  // Through transactOnce: a create of an option honours its request's Idempotency-Key.
  return transactOnce(
    'changeSelectValues',
    async () => {
      const def = await getCustomField(workspaceId, fieldId);
      if (!def || def.fieldKind !== 'select') throw missing();
      const next = change(def, selectValuesOf(def));
      const values: Record<string, unknown> = {
        ':kind': 'customField',
        ':values': next.values,
        ':options': next.values.map((v) => v.name),
        ':replaced': next.replaced ?? def.replaced ?? {},
        ':next': def.ver + 1,
      };
      let condition = `kind = :kind AND ${versionIs(def.ver, values)}`;
      if (unlessHeld) {
        await unlessHeld();
        condition += ` AND ${heldCountIs(def.adds, values)}`;
      }
      return {
        items: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.customField(workspaceId, fieldId),
              UpdateExpression: 'SET #values = :values, #options = :options, #replaced = :replaced, ver = :next',
              ConditionExpression: condition,
              ExpressionAttributeNames: { '#values': 'values', '#options': 'options', '#replaced': 'replaced' },
              ExpressionAttributeValues: values,
            },
          },
        ],
        result: next.result,
      };
    },
    scope,
  );
}

/** The condition that a definition's version is `ver` (one made before versions has none: it reads as 0). */
export function versionIs(ver: number, values: Record<string, unknown>): string {
  values[':ver'] = ver;
  return ver === 0 ? '(attribute_not_exists(ver) OR ver = :ver)' : 'ver = :ver';
}

/** The condition that an item's count of writes adding its value (lib/store/value-guards.ts) is `adds` as read (none yet: undefined). */
export function heldCountIs(adds: unknown, values: Record<string, unknown>): string {
  if (typeof adds !== 'number') return 'attribute_not_exists(adds)';
  values[':adds'] = adds;
  return 'adds = :adds';
}

/** What a read of records needs of the workspace's fields: each type's configured field ids, and the custom field definitions (a select field's options name its values). */
export interface FieldCatalog {
  configured: Map<string, string[]>;
  defs: CustomFieldDef[];
}

/** The workspace's field catalog for these types: one Query. */
export async function fieldCatalog(workspaceId: string, types: ReadonlyArray<EntityType | NoteType>): Promise<FieldCatalog> {
  const defs = await listCustomFields(workspaceId);
  return { configured: new Map(types.map((t) => [t, configuredFieldIds(t, defs)])), defs };
}

/**
 * The write check of the custom fields a write names (`fieldIds`), from their definitions read by
 * key — from `preread` when it asked for them (`customField` names, lib/store/record-names.ts; then
 * no read here), else one BatchGetItem. The check needs no other definition: a field is judged by its own. Read with the
 * write, never cached: definitions are only ever added today (addCustomField is the one write of
 * them), but a per-instance copy would have to be re-read on every miss and would let a definition
 * changed or deleted later accept a value the current one refuses; by key they ride along with the
 * write's other reads at no extra round trip.
 */
export async function namedFieldCheck(workspaceId: string, type: string, fieldIds: readonly string[], preread?: Prereads): Promise<CustomValueCheck> {
  const wanted = keysOf(
    workspaceId,
    fieldIds.map((id) => ({ customField: id })),
  );
  const read = await readAhead(wanted, preread);
  const defs = wanted
    .map((k) => read.item(k))
    .filter((i): i is StoredItem => i?.kind === 'customField')
    .map(storedDef);
  return customValueCheck(defs, type);
}

/** The write check of the custom fields of `type` in this workspace (see customValueCheck). */
export async function customFieldCheck(workspaceId: string, type: string): Promise<CustomValueCheck> {
  return customValueCheck(await listCustomFields(workspaceId, type), type);
}
