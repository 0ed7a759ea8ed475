// Custom field definitions of a workspace (keys.customField). Few per workspace, so a type's
// configuration is one Query of the workspace partition's custom-field range.
import { randomUUID } from 'node:crypto';
import { NameTaken } from './errors.ts';
import * as keys from './keys.ts';
import type { ItemKey } from './keys.ts';
import { readAhead, type Prereads } from './preread.ts';
import { queryAll, type StoredItem } from './query.ts';
import { putInWorkspace } from './workspaces.ts';
import { configuredFieldIds, customValueCheck, type CustomValueCheck, type CustomFieldDef, type CustomFieldKind, type EntityType, type NoteType } from '../domain/configurations.ts';
import { isUuid } from '../domain/input.ts';

/** A definition as stored: the definition and when it was made. */
type StoredDef = CustomFieldDef & { createdAt: string };

const toDef = (item: StoredItem): StoredDef => {
  const d = item as Partial<StoredDef>;
  return {
    id: d.id!,
    entityType: d.entityType!,
    name: d.name!,
    fieldKind: d.fieldKind!,
    ...(Array.isArray(d.options) ? { options: d.options } : {}),
    createdAt: d.createdAt!,
  };
};

/** The workspace's custom fields, oldest first (optionally of one type). */
export async function listCustomFields(workspaceId: string, entityType?: string): Promise<CustomFieldDef[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.partition(workspaceId), ':prefix': keys.customFieldsPrefix },
  });
  return items
    .map(toDef)
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1))
    .map(({ createdAt: _made, ...def }) => def)
    .filter((d) => entityType === undefined || d.entityType === entityType);
}

export async function addCustomField(
  workspaceId: string,
  input: { entityType: string; name: string; fieldKind: CustomFieldKind; options?: string[] },
): Promise<CustomFieldDef> {
  const existing = await listCustomFields(workspaceId, input.entityType);
  if (existing.some((d) => d.name.toLowerCase() === input.name.toLowerCase())) {
    throw new NameTaken(input.name, input.entityType);
  }
  const def: CustomFieldDef = {
    id: randomUUID(),
    entityType: input.entityType,
    name: input.name,
    fieldKind: input.fieldKind,
    ...(input.fieldKind === 'select' ? { options: input.options ?? [] } : {}),
  };
  await putInWorkspace(workspaceId, [
    { item: { ...keys.customField(workspaceId, def.id), kind: 'customField', workspaceId, ...def, createdAt: new Date().toISOString() }, unique: true },
  ]);
  return def;
}

/** The configured field identifiers of each type (standard, then the workspace's custom fields). */
export async function configuredFields(workspaceId: string, types: ReadonlyArray<EntityType | NoteType>): Promise<Map<string, string[]>> {
  const custom = await listCustomFields(workspaceId);
  return new Map(types.map((t) => [t, configuredFieldIds(t, custom)]));
}

/** The keys of the definitions that `fieldIds` (a write's field ids) may name: those that are uuids. */
export const customFieldKeys = (workspaceId: string, fieldIds: readonly string[]): ItemKey[] =>
  fieldIds.filter(isUuid).map((id) => keys.customField(workspaceId, id.toLowerCase()));

/**
 * The write check of the custom fields a write names (`fieldIds`), from their definitions read by
 * key — from `preread` when it asked for customFieldKeys (then no read here), else one
 * BatchGetItem. The check needs no other definition: a field is judged by its own. Read with the
 * write, never cached: definitions are only ever added today (addCustomField is the one write of
 * them), but a per-instance copy would have to be re-read on every miss and would let a definition
 * changed or deleted later accept a value the current one refuses; by key they ride along with the
 * write's other reads at no extra round trip.
 */
export async function namedFieldCheck(workspaceId: string, type: string, fieldIds: readonly string[], preread?: Prereads): Promise<CustomValueCheck> {
  const wanted = customFieldKeys(workspaceId, fieldIds);
  const read = await readAhead(wanted, preread);
  const defs = wanted.map((k) => read.item(k)).filter((i): i is StoredItem => i?.kind === 'customField').map(toDef);
  return customValueCheck(defs, type);
}

/** The write check of the custom fields of `type` in this workspace (see customValueCheck). */
export async function customFieldCheck(workspaceId: string, type: string): Promise<CustomValueCheck> {
  return customValueCheck(await listCustomFields(workspaceId, type), type);
}
