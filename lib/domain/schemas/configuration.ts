// Configurations of entity and note types: each configured field with a JSON Schema of its value,
// and the relationships the type takes (lib/domain/configurations.ts builds them).
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedString, strictObject } from './build.ts';
import { dataOf, listOf, repeated, SelfLinks } from './common.ts';
import { EntityType } from './entity.ts';
import { NoteTypeInput } from './note.ts';

const FieldConfiguration = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      id: doc(z.string(), 'The field identifier: a standard field name or a custom field uuid'),
      name: z.string(),
      path: doc(z.string(), "Where the field's value is in a record: /fields/<id>"),
      schema: doc(z.record(z.string(), z.unknown()), "JSON Schema (2020-12) of the field's value; a field without a value is null or absent"),
    }),
    { id: 'FieldConfiguration' },
  ))();

const RelationshipConfiguration = /* @__PURE__ */ (() =>
  doc(strictObject({ targetType: z.array(z.string()), cardinality: z.enum(['single', 'multiple']), mandatory: z.boolean() }), {
    id: 'RelationshipConfiguration',
  }))();

const Configuration = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      type: z.string(),
      fields: z.record(z.string(), FieldConfiguration),
      relationships: z.record(z.string(), RelationshipConfiguration),
      links: SelfLinks,
    }),
    { id: 'Configuration' },
  ))();

export const ConfigurationResponse = /* @__PURE__ */ (() => doc(dataOf(Configuration), { id: 'ConfigurationResponse' }))();
export const ConfigurationList = /* @__PURE__ */ (() => doc(listOf(Configuration), { id: 'ConfigurationList' }))();

export const EntityConfigurationsQuery = /* @__PURE__ */ (() => strictObject({ 'type[]': repeated(EntityType), type: z.optional(EntityType) }))();
/** Note types by name or by Productboard's alias (`simple`). */
export const NoteConfigurationsQuery = /* @__PURE__ */ (() => strictObject({ 'type[]': repeated(NoteTypeInput), type: z.optional(NoteTypeInput) }))();

/** A type in the path: an unknown one is a resource that does not exist (404), so any text is taken. */
export const ConfigurationPath = /* @__PURE__ */ (() => strictObject({ type: checkedString(z.minLength(1)) }))();
