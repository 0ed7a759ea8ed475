// What is "configured" for each entity and note type: its standard fields (the write parsers'
// table in ./entity-fields.ts) plus the workspace's custom fields, each with a JSON Schema of its value:
// the standard fields' converted from their zod schemas at build time (./field-json-schemas.ts), the
// custom field kinds' written here, so that no request runs zod's converter.
// A field is configured for a type iff it appears in that type's configuration; the fields
// parameter (lib/domain/fields.ts) accepts exactly these identifiers.
import * as z from 'zod/mini';
import { ENTITY_FIELDS, NOTE_FIELDS } from './entity-fields.ts';
import { InvalidInput, pointer, type Path } from './errors.ts';
import { NOTE_CONTENT_SCHEMAS, NOTE_TAGS_SCHEMA, STANDARD_FIELD_SCHEMAS } from './field-json-schemas.ts';
import { selectValuesOf, type SelectValue } from './field-values.ts';
import { ENTITY_TYPES, HIERARCHY_TYPES, PARENT_RULES, type EntityType } from './hierarchy.ts';
import { isPlainObject } from './input.ts';
import { RELATION_TYPES, relationTargets } from './relations.ts';
import { IsoDate } from './schemas/common.ts';
import type { StandardFieldId } from './schemas/field-values.ts';
import { isNoteType, NOTE_TYPES, type NoteType } from './schemas/note.ts';

export { ENTITY_TYPES, isEntityType, type EntityType } from './hierarchy.ts';
export { isNoteType, NOTE_TYPES, type NoteType } from './schemas/note.ts';

/** Custom field kinds (`admin field add --kind`). */
export const CUSTOM_FIELD_KINDS = ['text', 'number', 'date', 'select'] as const;
export type CustomFieldKind = (typeof CUSTOM_FIELD_KINDS)[number];

/** The types a custom field is defined on (`admin field add --entity-type`): every entity and note type. */
export const CUSTOM_FIELD_TYPES = [...ENTITY_TYPES, ...NOTE_TYPES] as const;

/** A workspace's custom field definition (stored by lib/store/custom-fields.ts). */
export interface CustomFieldDef {
  id: string;
  /** The entity or note type it is configured on. */
  entityType: string;
  name: string;
  fieldKind: CustomFieldKind;
  /** The names of a select field's options (its values' names, in their order). */
  options?: string[];
  /** A select field's options with their ids; absent on a definition made before options had ids (./field-values.ts selectValuesOf). */
  values?: SelectValue[];
  /** Options deleted with a replacement: old id → the id a record holding the old one now reads. */
  replaced?: Record<string, string>;
}

interface FieldConfiguration {
  id: string;
  name: string;
  /** Where the field's value is in a record: `/fields/<id>` (as Productboard's configurations give it). */
  path: string;
  /** JSON Schema (2020-12) of the field's value; a field without a value is null or absent. */
  schema: Record<string, unknown>;
}

/** Display names of the standard fields. */
const FIELD_NAMES: Record<StandardFieldId, string> = {
  name: 'Name',
  description: 'Description',
  status: 'Status',
  owner: 'Owner',
  tags: 'Tags',
  teams: 'Teams',
  timeframe: 'Timeframe',
  archived: 'Archived',
  processed: 'Processed',
  creator: 'Creator',
  email: 'E-mail',
  domain: 'Domain',
  content: 'Content',
};

/** The standard field identifiers of each type, in response order. */
const standardIds = (type: EntityType | NoteType): readonly StandardFieldId[] => (isNoteType(type) ? NOTE_FIELDS : ENTITY_FIELDS[type]);

/**
 * The JSON Schema of a type's standard field as it reads. Only notes have content (./entity-fields.ts),
 * each note type its own (HTML, or conversation parts).
 */
const readSchema = (type: EntityType | NoteType, id: StandardFieldId): Record<string, unknown> =>
  id === 'content' ? NOTE_CONTENT_SCHEMAS[type as NoteType] : id === 'tags' && isNoteType(type) ? NOTE_TAGS_SCHEMA : STANDARD_FIELD_SCHEMAS[id];

/** The names of a select field's options, in their order. */
const optionNames = (def: Pick<CustomFieldDef, 'options' | 'values'>): string[] => (def.values ? def.values.map((v) => v.name) : [...(def.options ?? [])]);

/**
 * What a number field holds: integers beyond 2^53 − 1 lose their digits (the SDK refuses to write
 * them), and DynamoDB stores no magnitude below 1e-130 but 0.
 */
const NUMBER_LIMIT = Number.MAX_SAFE_INTEGER;
const SMALLEST_MAGNITUDE = 1e-130;
const NUMBER_RANGE = `a number from ${-NUMBER_LIMIT} to ${NUMBER_LIMIT}, 0 or at least ${SMALLEST_MAGNITUDE} in magnitude`;

/**
 * The zod schema of a custom field's value as it reads. Text, number and date fields are written as
 * they read and validated with it; a select field's option reads as `{id, name}` (Productboard's
 * single-select value) and is written as selectOptionOf takes it.
 */
export function customValueSchema(def: Pick<CustomFieldDef, 'fieldKind' | 'options' | 'values'>): z.ZodMiniType {
  switch (def.fieldKind) {
    case 'text':
      return z.string().check(z.maxLength(10_000));
    case 'number':
      return z.number().check(
        z.gte(-NUMBER_LIMIT),
        z.lte(NUMBER_LIMIT),
        z.refine((n) => n === 0 || Math.abs(n) >= SMALLEST_MAGNITUDE),
      );
    case 'date':
      return IsoDate;
    case 'select': {
      const options = optionNames(def);
      return options.length ? z.strictObject({ id: z.string(), name: z.enum(options as [string, ...string[]]) }) : z.never();
    }
  }
}

/** The JSON Schema of a custom field's value: what zod's converter gives for customValueSchema (a test holds them equal). */
export function customValueJsonSchema(def: Pick<CustomFieldDef, 'fieldKind' | 'options' | 'values'>): Record<string, unknown> {
  switch (def.fieldKind) {
    case 'text':
      return { type: 'string', maxLength: 10_000 };
    case 'number':
      return { type: 'number', minimum: -NUMBER_LIMIT, maximum: NUMBER_LIMIT };
    case 'date':
      return { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
    case 'select': {
      const options = optionNames(def);
      // No option yet: no value is valid (z.never()).
      return options.length
        ? {
            type: 'object',
            properties: { id: { type: 'string' }, name: { type: 'string', enum: [...options] } },
            required: ['id', 'name'],
            additionalProperties: false,
          }
        : { not: {} };
    }
  }
}

/**
 * The option a select field's write names (Productboard's single-select assignment): its name, or
 * `{id}`, `{name}` or both of one of its values (both must then name the same one; the values are
 * listed at GET /v2/entities/fields/{id}/values). An error message when it names none.
 */
function selectOptionOf(def: CustomFieldDef, value: unknown): { id: string } | { error: string } {
  const values = selectValuesOf(def);
  const field = `Custom field '${def.name}' (${def.id})`;
  const expected = `takes one of ${optionNames(def)
    .map((o) => `'${o}'`)
    .join(', ')}: its name, or {id} or {name} of one of its values.`;
  const takes = `${field} ${expected}`;
  if (typeof value === 'string') {
    const byName = values.find((v) => v.name === value);
    return byName ? { id: byName.id } : { error: takes };
  }
  if (!isPlainObject(value)) return { error: takes };
  const extra = Object.keys(value).find((k) => k !== 'id' && k !== 'name');
  if (extra !== undefined) return { error: `${field}: an option is named by id and name only, not '${extra.slice(0, 100)}'.` };
  const { id, name } = value;
  if ((id !== undefined && typeof id !== 'string') || (name !== undefined && typeof name !== 'string') || (id === undefined && name === undefined)) {
    return { error: takes };
  }
  const byId = id === undefined ? undefined : values.find((v) => v.id === id);
  const byName = name === undefined ? undefined : values.find((v) => v.name === name);
  if (id !== undefined && !byId) return { error: `${field} has no value ${JSON.stringify(id.slice(0, 100))}; ${expected}` };
  if (name !== undefined && !byName) return { error: takes };
  if (byId && byName && byId.id !== byName.id) return { error: `${field}: id ${id} is the value '${byId.name}', not '${name}'.` };
  return { id: (byId ?? byName)!.id };
}

/**
 * Checks a custom field value on write: returns an error message, or undefined when valid
 * (null always clears the field).
 */
function customValueError(def: CustomFieldDef, value: unknown): string | undefined {
  if (value === null) return undefined;
  const result = customValueSchema(def).safeParse(value);
  if (result.success) return undefined;
  const expected = def.fieldKind === 'date' ? 'a date YYYY-MM-DD' : def.fieldKind === 'number' ? NUMBER_RANGE : 'a string of at most 10000 characters';
  return `Custom field '${def.name}' (${def.id}) takes ${expected}.`;
}

const fieldPath = (id: string) => `/fields/${id}`;

/** Every configured field of a type, standard first, then custom fields in creation order. */
function fieldConfigurations(type: EntityType | NoteType, custom: readonly CustomFieldDef[]): FieldConfiguration[] {
  const standard = standardIds(type).map((id) => ({ id, name: FIELD_NAMES[id], path: fieldPath(id), schema: readSchema(type, id) }));
  const own = custom.filter((d) => d.entityType === type).map((d) => ({ id: d.id, name: d.name, path: fieldPath(d.id), schema: customValueJsonSchema(d) }));
  return [...standard, ...own];
}

export function configuredFieldIds(type: EntityType | NoteType, custom: readonly CustomFieldDef[]): string[] {
  return [...standardIds(type), ...custom.filter((d) => d.entityType === type).map((d) => d.id)];
}

interface RelationshipConfiguration {
  targetType: string[];
  cardinality: 'single' | 'multiple';
  mandatory: boolean;
}

/**
 * The relationships a type takes, as configuration: `parent` from PARENT_RULES, `child` its
 * inverse, then the relations (`link`, `isBlockedBy`, `isBlocking`) with the types they join
 * (./relations.ts).
 */
function relationshipsOf(type: EntityType | NoteType): Record<string, RelationshipConfiguration> {
  if (isNoteType(type)) {
    return {
      customer: { targetType: ['user', 'company'], cardinality: 'single', mandatory: false },
      link: { targetType: [...HIERARCHY_TYPES], cardinality: 'multiple', mandatory: false },
    };
  }
  const out: Record<string, RelationshipConfiguration> = {};
  const rule = PARENT_RULES[type];
  if (rule.parents.length) out.parent = { targetType: [...rule.parents], cardinality: 'single', mandatory: rule.required };
  const children = ENTITY_TYPES.filter((t) => PARENT_RULES[t].parents.includes(type));
  if (children.length) out.child = { targetType: children, cardinality: 'multiple', mandatory: false };
  for (const relation of RELATION_TYPES) {
    const targets = relationTargets(type, relation);
    if (targets.length) out[relation] = { targetType: [...targets], cardinality: 'multiple', mandatory: false };
  }
  return out;
}

interface Configuration {
  type: string;
  fields: Record<string, FieldConfiguration>;
  relationships: Record<string, RelationshipConfiguration>;
}

export function configurationOf(type: EntityType | NoteType, custom: readonly CustomFieldDef[]): Configuration {
  return {
    type,
    fields: Object.fromEntries(fieldConfigurations(type, custom).map((f) => [f.id, f])),
    relationships: relationshipsOf(type),
  };
}

/** Checks one custom field value on write (entity/note create and update): the value to store. */
export type CustomValueCheck = (fieldId: string, value: unknown, path: Path) => unknown;

/**
 * The check for custom fields of `type`: an id that is not a custom field of this type in this
 * workspace, or a value of the wrong kind → InvalidInput pointing at the value. A select field's
 * option is written by name and stored by its id, so renaming the option renames it on every record.
 */
export function customValueCheck(defs: readonly CustomFieldDef[], type: string): CustomValueCheck {
  const own = new Map(defs.filter((d) => d.entityType === type).map((d) => [d.id, d]));
  return (fieldId, value, path) => {
    const def = own.get(fieldId.toLowerCase());
    if (!def) throw new InvalidInput(`Unknown field '${fieldId}': no custom field with this id is configured for ${type}.`, pointer(path));
    if (def.fieldKind === 'select' && value !== null) {
      const option = selectOptionOf(def, value);
      if ('error' in option) throw new InvalidInput(option.error, pointer(path));
      return option.id;
    }
    const problem = customValueError(def, value);
    if (problem) throw new InvalidInput(problem, pointer(path));
    return value;
  };
}

/**
 * A custom field value as stored → as it reads: a select field's option id → the option's current
 * `{id, name}` (following a replacement); an option since deleted reads as no value (undefined).
 */
export function customValueRead(def: CustomFieldDef, stored: unknown): unknown {
  if (def.fieldKind !== 'select' || typeof stored !== 'string') return stored;
  const values = selectValuesOf(def);
  let id = stored;
  for (let hop = 0; hop < 10; hop++) {
    const found = values.find((v) => v.id === id);
    if (found) return { id: found.id, name: found.name };
    const next = def.replaced?.[id];
    if (next === undefined) break;
    id = next;
  }
  // Written before options had ids: the option's name itself.
  const named = values.find((v) => v.name === stored);
  return named ? { id: named.id, name: named.name } : undefined;
}

/** A record with its select fields' options by their current names (customValueRead); an option deleted since is no value. */
export function withCustomReads<T extends { type: string; fields: Record<string, unknown> }>(record: T, defs: readonly CustomFieldDef[]): T {
  const selects = defs.filter((d) => d.fieldKind === 'select' && d.entityType === record.type && d.id in record.fields);
  if (selects.length === 0) return record;
  const fields = { ...record.fields };
  for (const def of selects) {
    const value = customValueRead(def, fields[def.id]);
    if (value === undefined) delete fields[def.id];
    else fields[def.id] = value;
  }
  return { ...record, fields };
}
