// Configurations of entity and note types: each configured field with a JSON Schema of its value,
// and the relationships the type takes (lib/domain/configurations.ts builds them).
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { dataOf, listOf, repeated, SelfLinks } from './common.ts';
import { EntityType } from './entity.ts';
import { NoteTypeInput } from './note.ts';

export const FieldConfiguration = /* @__PURE__ */ (() => z
  .strictObject({
    id: z.string().check(z.describe('The field identifier: a standard field name or a custom field uuid')),
    name: z.string(),
    path: z.string().check(z.describe("Where the field's value is in a record: /fields/<id>")),
    schema: z.record(z.string(), z.unknown()).check(z.describe("JSON Schema (2020-12) of the field's value; a field without a value is null or absent")),
  })
  .check(z.meta({ id: 'FieldConfiguration' })))();

export const RelationshipConfiguration = /* @__PURE__ */ (() => z
  .strictObject({ targetType: z.array(z.string()), cardinality: z.enum(['single', 'multiple']), mandatory: z.boolean() })
  .check(z.meta({ id: 'RelationshipConfiguration' })))();

export const Configuration = /* @__PURE__ */ (() => z
  .strictObject({
    type: z.string(),
    fields: z.record(z.string(), FieldConfiguration),
    relationships: z.record(z.string(), RelationshipConfiguration),
    links: SelfLinks,
  })
  .check(z.meta({ id: 'Configuration' })))();

export const ConfigurationResponse = /* @__PURE__ */ (() => dataOf(Configuration).check(z.meta({ id: 'ConfigurationResponse' })))();
export const ConfigurationList = /* @__PURE__ */ (() => listOf(Configuration).check(z.meta({ id: 'ConfigurationList' })))();

export const EntityConfigurationsQuery = /* @__PURE__ */ (() => z.strictObject({ 'type[]': repeated(EntityType), type: z.optional(EntityType) }))();
/** Note types by name or by Productboard's alias (`simple`). */
export const NoteConfigurationsQuery = /* @__PURE__ */ (() => z.strictObject({ 'type[]': repeated(NoteTypeInput), type: z.optional(NoteTypeInput) }))();

/** A type in the path: an unknown one is a resource that does not exist (404), so any text is taken. */
export const ConfigurationPath = /* @__PURE__ */ (() => z.strictObject({ type: z.string().check(z.minLength(1)) }))();
