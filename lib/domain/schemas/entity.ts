// Entities as reads answer them (retrieve, list, search, relationships) and the requests of those
// reads: their query parameters and the search body.
import * as z from 'zod/mini';
import { DateTime, listOf, ListLinks, pageParameters, RecordLinks, referenceTo, repeated, Uuid, dataOf } from './common.ts';
import { STANDARD_FIELDS } from './field-values.ts';
import { memberParameters, NameParameter, refusedParameter, sourceParameters, StatusIdParameter, StatusNameParameter } from './filters.ts';
import { Metadata } from './metadata.ts';
import { ENTITY_FIELDS } from '../entity-fields.ts';
import { ENTITY_TYPES, type EntityType as EntityTypeName } from '../hierarchy.ts';
import { ENTITY_RELATIONSHIP_TYPES } from '../relations.ts';

export const EntityType = z.enum(ENTITY_TYPES).check(z.meta({ id: 'EntityType' }));

export const EntityReference = referenceTo(EntityType).check(z.meta({ id: 'EntityReference' }));
export const EntityReferenceResponse = dataOf(EntityReference).check(z.meta({ id: 'EntityReferenceResponse' }));

export const EntityRelationship = z
  .strictObject({ type: z.enum(ENTITY_RELATIONSHIP_TYPES), target: EntityReference })
  .check(z.meta({ id: 'EntityRelationship' }));
export const EntityRelationshipResponse = dataOf(EntityRelationship).check(z.meta({ id: 'EntityRelationshipResponse' }));
export const EntityRelationshipList = listOf(EntityRelationship).check(z.meta({ id: 'EntityRelationshipList' }));

/** A custom field value (the configuration of the record's type gives its kind), or null when a selection names an empty field. */
export const CustomFieldValue = z
  .nullable(z.union([z.string(), z.number()]))
  .check(z.meta({ id: 'CustomFieldValue', description: 'A custom field value, by the field id (uuid); the type configuration gives its schema' }));

/** The `fields` of a record: its standard fields (null when selected but empty) and custom fields by uuid. */
export const recordFields = (ids: readonly (keyof typeof STANDARD_FIELDS)[]) =>
  z.catchall(z.strictObject(Object.fromEntries(ids.map((id) => [id, z.optional(z.nullable(STANDARD_FIELDS[id].read))]))), CustomFieldValue);

/** Hierarchy entities share their fields; users and companies each have their own. */
const HierarchyEntityFields = recordFields(ENTITY_FIELDS.product).check(z.meta({ id: 'HierarchyEntityFields' }));
const FIELDS_OF: Record<EntityTypeName, z.ZodMiniType> = {
  product: HierarchyEntityFields,
  component: HierarchyEntityFields,
  feature: HierarchyEntityFields,
  subfeature: HierarchyEntityFields,
  user: recordFields(ENTITY_FIELDS.user).check(z.meta({ id: 'UserFields' })),
  company: recordFields(ENTITY_FIELDS.company).check(z.meta({ id: 'CompanyFields' })),
};

const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);

const entityOf = (type: EntityTypeName) =>
  z.strictObject({
    id: Uuid,
    type: z.literal(type),
    fields: FIELDS_OF[type] as ReturnType<typeof recordFields>,
    relationships: z.strictObject({ data: z.array(EntityRelationship), links: ListLinks }),
    links: RecordLinks,
    metadata: z.optional(Metadata),
    createdAt: DateTime,
    updatedAt: DateTime,
  }).check(z.meta({ id: pascal(type) }));

/** An entity; its `relationships` hold at most 20 items, links.next lists the rest. */
export const Entity = z.discriminatedUnion('type', ENTITY_TYPES.map(entityOf) as [ReturnType<typeof entityOf>, ...ReturnType<typeof entityOf>[]]).check(z.meta({ id: 'Entity' }));
export const EntityResponse = dataOf(Entity).check(z.meta({ id: 'EntityResponse' }));
export const EntityList = listOf(Entity).check(z.meta({ id: 'EntityList' }));

const NO_TEAMS = 'This service has no teams, so entities cannot be filtered by team.';

/** A field identifier of the `fields` selection: a standard field, a custom field uuid, or `all`. */
const FieldId = z.string().check(z.minLength(1), z.maxLength(200));

const owner = memberParameters('owner');

/** Productboard's list filters and ours (`type`, `limit`); every filter given must hold. */
export const ListEntitiesQuery = z.strictObject({
  type: z.optional(EntityType),
  'type[]': repeated(EntityType),
  'fields[]': repeated(FieldId),
  name: z.optional(NameParameter),
  'owner[id]': owner.id,
  'owner[email]': owner.email,
  'status[id]': z.optional(StatusIdParameter),
  'status[name]': z.optional(StatusNameParameter),
  'teams[id]': refusedParameter(NO_TEAMS),
  'teams[name]': refusedParameter(NO_TEAMS),
  archived: z.optional(z.boolean()),
  'parent[id]': z.optional(Uuid.check(z.describe("Keeps the parent's children"))),
  ...sourceParameters,
  ...pageParameters,
});

export const GetEntityQuery = z.strictObject({ 'fields[]': repeated(FieldId) });

export const EntityRelationshipsQuery = z.strictObject({
  type: z.optional(z.enum(ENTITY_RELATIONSHIP_TYPES)),
  'target[type]': z.optional(EntityType),
  'target[id]': z.optional(Uuid),
  ...pageParameters,
});

export const SearchEntitiesQuery = z.strictObject(pageParameters);

/** The service specification's search body: `{data: {types, archived?, fields?}}`. */
export const SearchEntitiesBody = z
  .strictObject({
    data: z.strictObject({
      types: z.array(EntityType).check(z.minLength(1)),
      archived: z.optional(z.boolean()),
      fields: z.optional(
        z.union([z.literal('all'), z.array(FieldId).check(z.minLength(1))], { error: "must be the string 'all' or a non-empty array of field identifiers" }),
      ),
    }),
  })
  .check(z.meta({ id: 'SearchEntitiesBody' }));

/** Path parameters of an entity's routes. */
export const EntityPath = z.strictObject({ id: Uuid });
