// The bodies that write entities: create, update, and a new parent.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, objectWithCatchall, strictObject } from './build.ts';
import { Uuid } from './common.ts';
import { EntityType } from './entity.ts';
import { ENTITY_STANDARD_FIELDS, Name, type FieldTable, type StandardFieldId } from './field-values.ts';
import { Metadata, MetadataUpdate } from './metadata.ts';
import { patchOf } from './patch.ts';
import { ENTITY_FIELDS } from '../entity-fields.ts';
import { ENTITY_TYPES, type EntityType as EntityTypeName } from '../hierarchy.ts';
import { ENTITY_RELATIONSHIP_TYPES } from '../relations.ts';

/** Custom field values by field id: the workspace's definitions check them (lib/domain/entity-fields.ts fieldWrite). */
const CustomFieldInput = /* @__PURE__ */ (() => doc(z.unknown(), "A custom field value by the field's id (uuid); the type's configuration gives its schema"))();

// Built once per table and field, and shared by the bodies made from that table (the user and company
// bodies take most of the hierarchy's fields): fewer schemas built at import, the same document.
const optionalWrites = /* @__PURE__ */ new WeakMap<FieldTable, Map<StandardFieldId, z.ZodMiniType>>();
function optionalWrite(table: FieldTable, id: StandardFieldId) {
  const built = optionalWrites.get(table) ?? new Map<StandardFieldId, z.ZodMiniType>();
  optionalWrites.set(table, built);
  const known = built.get(id);
  if (known) return known;
  const write = table[id]?.write;
  if (!write) throw new Error(`${id} is no field of the table it is looked up in (lib/domain/schemas/field-values.ts)`);
  const optional = z.optional(z.nullable(write));
  built.set(id, optional);
  return optional;
}

/** `fields` of a create: `name` required; any other field of the type may be null (= not set). */
export const createFields = (table: FieldTable, ids: readonly StandardFieldId[]) =>
  objectWithCatchall(Object.fromEntries(ids.map((id) => [id, id === 'name' ? Name : optionalWrite(table, id)])), CustomFieldInput);

/** `fields` of an update: at least one; null clears a field, but never the name. */
export const updateFields = (table: FieldTable, ids: readonly StandardFieldId[]) =>
  objectWithCatchall(
    Object.fromEntries(ids.map((id) => [id, optionalWrite(table, id)])),
    CustomFieldInput,
    z.superRefine((fields, ctx) => {
      if (Object.keys(fields).length === 0) ctx.addIssue({ code: 'custom', message: 'names no field to update', input: fields });
      if (fields.name === null) ctx.addIssue({ code: 'custom', message: 'cannot be cleared: every record has a name', path: ['name'], input: null });
    }),
  );

/** `{type: 'parent', target: {id, type?}}`: the one relationship a create may give. */
const ParentTarget = /* @__PURE__ */ (() => strictObject({ id: Uuid, type: z.optional(EntityType) }))();
const ParentRelationship = /* @__PURE__ */ (() => strictObject({ type: z.literal('parent'), target: ParentTarget }))();
/** What every type's create takes beside its fields (one schema each, shared by every type). */
const CreateRelationships = /* @__PURE__ */ (() => z.optional(checkedArray(ParentRelationship, z.maxLength(1))))();
const CreateMetadata = /* @__PURE__ */ (() => z.optional(Metadata))();

const HierarchyEntityFieldsInput = /* @__PURE__ */ (() =>
  doc(createFields(ENTITY_STANDARD_FIELDS, ENTITY_FIELDS.product), { id: 'HierarchyEntityFieldsInput' }))();
const CREATE_FIELDS_OF: Record<EntityTypeName, ReturnType<typeof createFields>> = /* @__PURE__ */ (() => ({
  product: HierarchyEntityFieldsInput,
  component: HierarchyEntityFieldsInput,
  feature: HierarchyEntityFieldsInput,
  subfeature: HierarchyEntityFieldsInput,
  initiative: HierarchyEntityFieldsInput,
  objective: HierarchyEntityFieldsInput,
  keyResult: HierarchyEntityFieldsInput,
  release: doc(createFields(ENTITY_STANDARD_FIELDS, ENTITY_FIELDS.release), { id: 'ReleaseFieldsInput' }),
  releaseGroup: doc(createFields(ENTITY_STANDARD_FIELDS, ENTITY_FIELDS.releaseGroup), { id: 'ReleaseGroupFieldsInput' }),
  user: doc(createFields(ENTITY_STANDARD_FIELDS, ENTITY_FIELDS.user), { id: 'UserFieldsInput' }),
  company: doc(createFields(ENTITY_STANDARD_FIELDS, ENTITY_FIELDS.company), { id: 'CompanyFieldsInput' }),
}))();

const createOf = (type: EntityTypeName) =>
  doc(
    strictObject({
      type: z.literal(type),
      fields: CREATE_FIELDS_OF[type],
      relationships: CreateRelationships,
      metadata: CreateMetadata,
    }),
    { id: `New${type[0]!.toUpperCase()}${type.slice(1)}` },
  );

export const CreateEntityBody = /* @__PURE__ */ (() =>
  doc(strictObject({ data: z.discriminatedUnion('type', ENTITY_TYPES.map(createOf) as [ReturnType<typeof createOf>, ...ReturnType<typeof createOf>[]]) }), {
    id: 'CreateEntityBody',
  }))();
export type CreateEntityBody = z.output<typeof CreateEntityBody>;

/** Every standard field any entity type has: which of them the entity's own type takes is checked once it is read. */
const ALL_ENTITY_FIELDS = /* @__PURE__ */ (() => [...new Set(ENTITY_TYPES.flatMap((t) => ENTITY_FIELDS[t]))])();

export const UpdateEntityBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: withPatch(ENTITY_STANDARD_FIELDS, {
        fields: z.optional(
          doc(
            updateFields(ENTITY_STANDARD_FIELDS, ALL_ENTITY_FIELDS),
            "The fields to change: those of the entity's type (see its configuration); null clears one",
          ),
        ),
        metadata: z.optional(MetadataUpdate),
        type: doc(z.optional(EntityType), "When given, the entity's own type: a type cannot change"),
        id: doc(z.optional(Uuid), 'When given, the id in the path'),
      }),
    }),
    { id: 'UpdateEntityBody' },
  ))();

/**
 * An update's `data`: the given properties plus `patch` (Productboard's field operations). `fields`
 * and `patch` are two ways to say the same thing: one of them, not both; an update changes
 * something (fields, patch or, on entities, metadata). `table` is the kind of record's fields,
 * whose write shapes parse the patch's values.
 */
export function withPatch<S extends z.core.$ZodLooseShape>(table: FieldTable, shape: S) {
  return strictObject(
    { ...shape, patch: z.optional(patchOf(table)) },
    z.superRefine((data, ctx) => {
      const d = data as { fields?: unknown; patch?: unknown; metadata?: unknown };
      if (d.fields !== undefined && d.patch !== undefined)
        ctx.addIssue({ code: 'custom', message: "gives both 'fields' and 'patch': use one of them", input: data });
      else if (d.fields === undefined && d.patch === undefined && d.metadata === undefined) {
        ctx.addIssue({ code: 'custom', message: `changes nothing: give 'fields' or 'patch'${'metadata' in shape ? " (or 'metadata')" : ''}`, input: data });
      }
    }),
  );
}

export const SetParentBody = /* @__PURE__ */ (() => doc(strictObject({ data: strictObject({ target: ParentTarget }) }), { id: 'SetParentBody' }))();

/**
 * A new relationship of an entity (Productboard's createEntityRelationship): `type` defaults to
 * link; parent and child move an entity, the others relate two hierarchy entities.
 */
export const CreateEntityRelationshipBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: strictObject({
        type: doc(z._default(z.enum(ENTITY_RELATIONSHIP_TYPES), 'link'), 'link when omitted'),
        target: strictObject({ id: Uuid }),
      }),
    }),
    { id: 'CreateEntityRelationshipBody' },
  ))();

/** The path of DELETE /v2/entities/{id}/relationships/{type}/{targetId}. */
export const EntityRelationshipPath = /* @__PURE__ */ (() => strictObject({ id: Uuid, type: z.enum(ENTITY_RELATIONSHIP_TYPES), targetId: Uuid }))();
