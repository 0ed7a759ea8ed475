// What is "configured" for each entity and note type: its standard fields (contract: Entities,
// standard fields) plus the workspace's custom fields, each with a JSON Schema of its value.
// A field is configured for a type iff it appears in that type's configuration; the fields
// parameter (lib/domain/fields.ts) accepts exactly these identifiers.
import { z } from 'zod';
import { ApiError, pointer } from '../http/errors.ts';

export const ENTITY_TYPES = ['product', 'component', 'feature', 'subfeature', 'user', 'company'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
export const HIERARCHY_TYPES = ['product', 'component', 'feature', 'subfeature'] as const satisfies readonly EntityType[];
export const CUSTOMER_TYPES = ['user', 'company'] as const satisfies readonly EntityType[];

export const NOTE_TYPES = ['textNote'] as const;
export type NoteType = (typeof NOTE_TYPES)[number];

export const isEntityType = (t: unknown): t is EntityType => typeof t === 'string' && (ENTITY_TYPES as readonly string[]).includes(t);
export const isNoteType = (t: unknown): t is NoteType => typeof t === 'string' && (NOTE_TYPES as readonly string[]).includes(t);

/** Custom field kinds (`admin field add --kind`). */
export const CUSTOM_FIELD_KINDS = ['text', 'number', 'date', 'select'] as const;
export type CustomFieldKind = (typeof CUSTOM_FIELD_KINDS)[number];

/** A workspace's custom field definition (stored by lib/store/custom-fields.ts). */
export interface CustomFieldDef {
  id: string;
  /** The entity or note type it is configured on. */
  entityType: string;
  name: string;
  fieldKind: CustomFieldKind;
  /** The allowed values of a select field. */
  options?: string[];
}

export interface FieldConfiguration {
  id: string;
  name: string;
  /** JSON Schema (2020-12) of the field's value; a field without a value is null or absent. */
  schema: Record<string, unknown>;
}

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).meta({ format: 'date' });
// Plain formats in the published schemas (zod's own uuid/email patterns are long and stricter than needed).
const uuid = z.string().meta({ format: 'uuid' });
const email = z.string().meta({ format: 'email' });

/** Value shapes of the standard fields as the API returns them. */
const STANDARD: Record<string, { name: string; value: z.ZodType }> = {
  name: { name: 'Name', value: z.string().min(1).max(255) },
  description: { name: 'Description', value: z.string().describe('HTML') },
  status: { name: 'Status', value: z.object({ id: uuid, name: z.string() }) },
  owner: { name: 'Owner', value: z.object({ id: uuid, email }) },
  tags: { name: 'Tags', value: z.array(z.object({ name: z.string() })) },
  timeframe: {
    name: 'Timeframe',
    value: z.object({ startDate: isoDate, endDate: isoDate, granularity: z.enum(['none', 'day', 'week', 'month', 'quarter', 'year']) }),
  },
  archived: { name: 'Archived', value: z.boolean() },
  email: { name: 'E-mail', value: email },
  domain: { name: 'Domain', value: z.string() },
  content: { name: 'Content', value: z.string().describe('HTML') },
};

const ENTITY_COMMON = ['name', 'description', 'status', 'owner', 'tags', 'timeframe', 'archived'];

/** The standard field identifiers of each type, in response order. */
const STANDARD_BY_TYPE: Record<EntityType | NoteType, string[]> = {
  product: ENTITY_COMMON,
  component: ENTITY_COMMON,
  feature: ENTITY_COMMON,
  subfeature: ENTITY_COMMON,
  user: ['name', 'description', 'owner', 'tags', 'archived', 'email'],
  company: ['name', 'description', 'owner', 'tags', 'archived', 'domain'],
  textNote: ['name', 'content', 'tags', 'owner'],
};

export function standardFieldIds(type: EntityType | NoteType): readonly string[] {
  return STANDARD_BY_TYPE[type];
}

const jsonSchema = (schema: z.ZodType): Record<string, unknown> => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
};

/** The zod schema a custom field's value must satisfy (writes are validated with it). */
export function customValueSchema(def: Pick<CustomFieldDef, 'fieldKind' | 'options'>): z.ZodType {
  switch (def.fieldKind) {
    case 'text':
      return z.string().max(10_000);
    case 'number':
      return z.number();
    case 'date':
      return isoDate.refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'not a calendar date');
    case 'select': {
      const options = def.options ?? [];
      return options.length ? z.enum(options as [string, ...string[]]) : z.never();
    }
  }
}

function customSchemaJson(def: CustomFieldDef): Record<string, unknown> {
  // The date refinement has no JSON Schema form; its pattern and format say the same.
  return def.fieldKind === 'date' ? jsonSchema(isoDate) : jsonSchema(customValueSchema(def));
}

/**
 * Checks a custom field value on write: returns an error message, or undefined when valid
 * (null always clears the field).
 */
export function customValueError(def: CustomFieldDef, value: unknown): string | undefined {
  if (value === null) return undefined;
  const result = customValueSchema(def).safeParse(value);
  if (result.success) return undefined;
  const expected =
    def.fieldKind === 'select' ? `one of ${(def.options ?? []).map((o) => `'${o}'`).join(', ')}` : def.fieldKind === 'date' ? 'a date YYYY-MM-DD' : `a ${def.fieldKind === 'text' ? 'string' : 'number'}`;
  return `Custom field '${def.name}' (${def.id}) takes ${expected}.`;
}

/** Every configured field of a type, standard first, then custom fields in creation order. */
export function fieldConfigurations(type: EntityType | NoteType, custom: readonly CustomFieldDef[]): FieldConfiguration[] {
  const standard = STANDARD_BY_TYPE[type].map((id) => ({ id, name: STANDARD[id]!.name, schema: jsonSchema(STANDARD[id]!.value) }));
  const own = custom.filter((d) => d.entityType === type).map((d) => ({ id: d.id, name: d.name, schema: customSchemaJson(d) }));
  return [...standard, ...own];
}

export function configuredFieldIds(type: EntityType | NoteType, custom: readonly CustomFieldDef[]): string[] {
  return [...STANDARD_BY_TYPE[type], ...custom.filter((d) => d.entityType === type).map((d) => d.id)];
}

interface RelationshipConfiguration {
  targetType: string[];
  cardinality: 'single' | 'multiple';
  mandatory: boolean;
}

/** The contract's parent rules, as configuration (child = the inverse). */
const RELATIONSHIPS: Record<EntityType | NoteType, Record<string, RelationshipConfiguration>> = {
  product: { child: { targetType: ['component', 'feature'], cardinality: 'multiple', mandatory: false } },
  component: {
    parent: { targetType: ['product', 'component'], cardinality: 'single', mandatory: true },
    child: { targetType: ['component', 'feature'], cardinality: 'multiple', mandatory: false },
  },
  feature: {
    parent: { targetType: ['product', 'component'], cardinality: 'single', mandatory: true },
    child: { targetType: ['subfeature'], cardinality: 'multiple', mandatory: false },
  },
  subfeature: { parent: { targetType: ['feature'], cardinality: 'single', mandatory: true } },
  user: { parent: { targetType: ['company'], cardinality: 'single', mandatory: false } },
  company: { child: { targetType: ['user'], cardinality: 'multiple', mandatory: false } },
  textNote: {
    customer: { targetType: ['user', 'company'], cardinality: 'single', mandatory: false },
    link: { targetType: [...HIERARCHY_TYPES], cardinality: 'multiple', mandatory: false },
  },
};

export interface Configuration {
  type: string;
  fields: Record<string, FieldConfiguration>;
  relationships: Record<string, RelationshipConfiguration>;
}

export function configurationOf(type: EntityType | NoteType, custom: readonly CustomFieldDef[]): Configuration {
  return {
    type,
    fields: Object.fromEntries(fieldConfigurations(type, custom).map((f) => [f.id, f])),
    relationships: RELATIONSHIPS[type],
  };
}

/** Checks one custom field value on write (entity/note create and update): the value to store. */
export type CustomValueCheck = (fieldId: string, value: unknown, path: ReadonlyArray<string | number>) => unknown;

/**
 * The check for custom fields of `type`: an id that is not a custom field of this type in this
 * workspace, or a value of the wrong kind → 400 request.invalid pointing at the value.
 */
export function customValueCheck(defs: readonly CustomFieldDef[], type: string): CustomValueCheck {
  const own = new Map(defs.filter((d) => d.entityType === type).map((d) => [d.id, d]));
  return (fieldId, value, path) => {
    const def = own.get(fieldId.toLowerCase());
    if (!def) throw new ApiError('request.invalid', `Unknown field '${fieldId}': no custom field with this id is configured for ${type}.`, { source: pointer(path) });
    const problem = customValueError(def, value);
    if (problem) throw new ApiError('request.invalid', problem, { source: pointer(path) });
    return value;
  };
}
