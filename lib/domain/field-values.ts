// The values of the fields that have a set of them (Productboard's field values,
// /v2/entities/fields/{id}/values): an entity's tags (the workspace's tag values), each custom select
// field's options, and the status values of each type (./statuses.ts). Which field an id names, the
// values' shapes as the API shows them, and the rules a value must follow.
import { createHash } from 'node:crypto';
import { allStatuses, type AssignedStatus } from './statuses.ts';

/** Productboard's select option colors. */
export const SELECT_COLORS = ['red', 'blue', 'green', 'yellow', 'purple', 'gray', 'lime', 'pink'] as const;
export type SelectColor = (typeof SELECT_COLORS)[number];

/** The color of a value created without one: one of the colors, the same for the same id. */
export const colorFor = (valueId: string): SelectColor => SELECT_COLORS[Number.parseInt(valueId.slice(0, 8), 16) % SELECT_COLORS.length]!;

/** The field ids of the standard fields with values: the entity tags and the status field. */
export const TAGS_FIELD = 'tags';
export const STATUS_FIELD = 'status';

/** A value of a select or tag field as stored. */
export interface SelectValue {
  id: string;
  name: string;
  color: SelectColor;
  /** A select option's place in its field's order (ascending, never reused), which its list pages by. */
  seq?: number;
}

/** Options a custom select field holds at most: they live in its definition, read with every record of its type. */
export const MAX_SELECT_VALUES = 200;

/** New tag values one entity write may create by name (each is two items of the write's transaction). */
export const MAX_NEW_TAGS_PER_WRITE = 25;

/**
 * The id of an option of a select field defined before options had ids (a definition holding only
 * their names): derived from the field and the name, so it is the same on every read.
 */
function legacyOptionId(fieldId: string, name: string): string {
  const h = createHash('sha256').update(`${fieldId}\u0000${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The options of a select field definition: its values, or those derived from the names it held before options had ids. */
export function selectValuesOf(def: { id: string; options?: readonly string[] | undefined; values?: readonly SelectValue[] | undefined }): SelectValue[] {
  if (def.values) return [...def.values];
  return (def.options ?? []).map((name, seq) => {
    const id = legacyOptionId(def.id, name);
    return { id, name, color: colorFor(id), seq };
  });
}

/** The place of a new option: after every option the field has. */
export const nextSeq = (values: readonly SelectValue[]) => values.reduce((max, v) => Math.max(max, v.seq ?? 0), -1) + 1;

/** An option's list position (keyset pagination of a select field's options). */
export const seqPosition = (v: SelectValue) => String(v.seq ?? 0).padStart(6, '0');

/** A tag or select value as the field-value routes show it (Productboard's SelectOptionValue). */
export const selectValueView = (v: SelectValue) => ({ id: v.id, fields: { name: v.name, color: v.color } });

/** A created or changed value's reference, as Productboard's create and update answer it. */
export const fieldValueReference = (baseUrl: string, fieldId: string, valueId: string) => ({
  id: valueId,
  links: { self: `${baseUrl}/entities/fields/${fieldId}/values/${valueId}` },
});

/** A status value as the field-value routes show it (Productboard's StatusValue). */
export const statusValueView = (v: AssignedStatus) => ({ id: v.id, fields: { name: v.name, assignedEntityTypes: [...v.assignedEntityTypes] } });

/** The status values assigned to any of `types` (all of them when no type is named). */
export const statusValuesFor = (types: readonly string[] | undefined): AssignedStatus[] =>
  allStatuses().filter((s) => !types?.length || s.assignedEntityTypes.some((t) => types.includes(t)));

/** Why a status value cannot be created, changed or deleted here (Productboard refuses it too). */
export const STATUS_VALUES_FIXED =
  "Status values are not managed through field values: each entity type has its own fixed set (GET /v2/entities/fields/status/values lists them), as Productboard's status lifecycle manages them outside this endpoint.";

/** Names compare case-insensitively: two values of one field may not differ only in case. */
export const nameKey = (name: string) => name.toLowerCase();

/** The first name of `names` that repeats an earlier one regardless of case, with the earlier one's index; undefined when none does. */
export function repeatedName(names: readonly string[]): { first: number; repeat: number } | undefined {
  const seen = new Map<string, number>();
  for (const [i, name] of names.entries()) {
    const first = seen.get(nameKey(name));
    if (first !== undefined) return { first, repeat: i };
    seen.set(nameKey(name), i);
  }
  return undefined;
}
