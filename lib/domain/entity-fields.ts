// Which standard fields each entity and note type has, and the write rules a schema cannot state
// because they need the record's type or the workspace: a status is one of its type's
// (lib/domain/statuses.ts), custom fields (uuid keys) are checked against the workspace's
// definitions, and an owner, an entity's tags and its teams are resolved against the workspace by
// lib/store/field-refs.ts. The values themselves were checked by the body's schema
// (lib/domain/schemas/field-values.ts) and are stored in API shape.
import { InvalidInput, pointer, type Path } from './errors.ts';
import type { EntityType } from './hierarchy.ts';
import { isUuid } from './schemas/common.ts';
import type { MemberInput, StandardFieldId, StatusInput, ValueRef } from './schemas/field-values.ts';
import { statusOf } from './statuses.ts';

const HIERARCHY_FIELDS = ['name', 'description', 'status', 'owner', 'tags', 'teams', 'timeframe', 'archived'] as const satisfies readonly StandardFieldId[];

/** A release's: its dates are its timeframe; no owner or tags (release groups hold releases, and only a name and a description). */
const RELEASE_FIELDS = ['name', 'description', 'status', 'timeframe', 'archived'] as const satisfies readonly StandardFieldId[];

/** The standard fields of each entity type, in response order. */
export const ENTITY_FIELDS: Record<EntityType, readonly StandardFieldId[]> = {
  product: HIERARCHY_FIELDS,
  component: HIERARCHY_FIELDS,
  feature: HIERARCHY_FIELDS,
  subfeature: HIERARCHY_FIELDS,
  initiative: HIERARCHY_FIELDS,
  objective: HIERARCHY_FIELDS,
  keyResult: HIERARCHY_FIELDS,
  release: RELEASE_FIELDS,
  releaseGroup: ['name', 'description', 'archived'],
  user: ['name', 'description', 'owner', 'tags', 'archived', 'email'],
  company: ['name', 'description', 'owner', 'tags', 'archived', 'domain'],
};

/** The standard fields of a note, in response order. */
export const NOTE_FIELDS = ['name', 'content', 'tags', 'owner', 'creator', 'processed', 'archived'] as const satisfies readonly StandardFieldId[];

/** The note fields an update may change: the creator is who created it, set once. */
export const NOTE_UPDATE_FIELDS = NOTE_FIELDS.filter((f) => f !== 'creator');

/** Fields whose value names a member (`{id}`, `{email}` or both), resolved by lib/store/field-refs.ts. */
export const MEMBER_FIELDS = ['owner', 'creator'] as const satisfies readonly StandardFieldId[];
export type MemberFieldId = (typeof MEMBER_FIELDS)[number];
const isMemberField = (key: string): key is MemberFieldId => (MEMBER_FIELDS as readonly string[]).includes(key);

/**
 * An entity's list fields whose items name values of the workspace by `{id}` or `{name}`: its tags
 * (the tag values; a new name creates one) and its teams (which must exist). Resolved by
 * lib/store/field-refs.ts to `[{id, name}]`; a note's tags are labels by name, not these.
 */
export const REFERENCE_FIELDS = ['tags', 'teams'] as const satisfies readonly StandardFieldId[];
export type ReferenceFieldId = (typeof REFERENCE_FIELDS)[number];

/**
 * Items of a reference field to resolve: the field's whole value (`op` absent), or the items of the
 * patch operation at index `op`.
 */
export interface ReferenceWrite {
  field: ReferenceFieldId;
  items: readonly ValueRef[];
  path: Path;
  op?: number;
  /** Items of a removeItems: a name no value has removes nothing, and creates nothing. */
  removing?: boolean;
}

/**
 * The check of a standard field that depends on the record's type: returns the value to store or
 * throws InvalidInput at `path`. An entity's status is one of its type's status values.
 */
export type StandardFieldCheck = (field: StandardFieldId, value: unknown, path: Path) => unknown;

/** The standard field checks of an entity type: its status is one of the type's values, stored as `{id, name}`. */
export const entityFieldCheck =
  (type: EntityType): StandardFieldCheck =>
  (field, value, path) => {
    if (field !== 'status') return value;
    const found = statusOf(type, value as StatusInput);
    if ('value' in found) return found.value;
    throw new InvalidInput(found.problem, pointer(found.at ? [...path, found.at] : path));
  };

/** Checks a custom field (uuid key) value for the record's type; returns the value to store or throws InvalidInput. */
export type CustomFieldCheck = (fieldId: string, value: unknown, path: Path) => unknown;

/** A write's fields as the store takes them. */
export interface FieldWrite {
  /** Values to store by field id (custom fields by lower-case uuid); `null` clears (updates only). */
  values: Record<string, unknown>;
  /** Members as written (owner, creator), to resolve (lib/store/field-refs.ts), and where each was. */
  members: Array<{ field: MemberFieldId; ref: MemberInput; path: Path }>;
  /** Tags and teams as written (entities), to resolve (lib/store/field-refs.ts). */
  references: ReferenceWrite[];
}

/** Whether `key` is a reference field of this write (`references`: the record kind's, none for notes). */
const isReference = (key: string, references: readonly ReferenceFieldId[] | undefined): key is ReferenceFieldId =>
  (references ?? []).includes(key as ReferenceFieldId);

/**
 * The parsed `fields` of a create or update (`standard` are the fields of the record's type) as a
 * write. Keys that are no field of the type — another type's standard field, any other name,
 * whatever its spelling (`constructor`, `toString`) — and uuids that are no custom field of the
 * type are refused, located at the key. On create a null value is simply not set.
 */
export function fieldWrite(
  fields: Readonly<Record<string, unknown>>,
  options: {
    standard: readonly StandardFieldId[];
    mode: 'create' | 'update';
    path: Path;
    custom: CustomFieldCheck;
    what: string;
    check?: StandardFieldCheck | undefined;
    references?: readonly ReferenceFieldId[] | undefined;
  },
): FieldWrite {
  const { standard, mode, path, custom, what, check, references } = options;
  const out: FieldWrite = { values: {}, members: [], references: [] };
  const seen = new Map<string, string>();
  for (const [key, value] of Object.entries(fields)) {
    const at = [...path, key];
    // A key of the type's own standard fields (never an Object.prototype name: a list, not a lookup).
    const own = (standard as readonly string[]).includes(key);
    if (own) {
      if (value === null) {
        if (mode === 'update') out.values[key] = null;
      } else if (isMemberField(key)) {
        out.members.push({ field: key, ref: value as MemberInput, path: at });
      } else if (isReference(key, references)) {
        out.references.push({ field: key, items: value as ValueRef[], path: at });
      } else {
        out.values[key] = check ? check(key as StandardFieldId, value, at) : value;
      }
      continue;
    }
    if (!isUuid(key))
      throw new InvalidInput(
        `Unknown field '${String(key).slice(0, 100)}' for ${what}; its fields are ${standard.join(', ')} and its custom fields by id.`,
        pointer(at),
      );
    const id = key.toLowerCase();
    const earlier = seen.get(id);
    if (earlier !== undefined) throw new InvalidInput(`Custom field ${id} is given twice ('${earlier}' and '${key}').`, pointer(at));
    seen.set(id, key);
    const checked = custom(id, value, at);
    if (checked !== null || mode === 'update') out.values[id] = checked;
  }
  return out;
}
