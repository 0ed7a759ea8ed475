// Entities as reads answer them (retrieve, list, search, relationships) and the requests of those
// reads: their query parameters and the search body.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, checkedString, objectWithCatchall, strictObject } from './build.ts';
import {
  DateTime,
  Email,
  EntityPath,
  listOf,
  ListLinks,
  oneOrList,
  pageParameters,
  pascal,
  RecordLinks,
  referenceTo,
  repeated,
  Uuid,
  dataOf,
} from './common.ts';
import { STANDARD_FIELDS } from './field-values.ts';
import { DateRange, memberParameters, NameParameter, sourceParameters, StatusIdParameter, StatusNameParameter } from './filters.ts';
import { Metadata } from './metadata.ts';
import { ENTITY_FIELDS } from '../entity-fields.ts';
import { ENTITY_TYPES, type EntityType as EntityTypeName } from '../hierarchy.ts';
import { ENTITY_RELATIONSHIP_TYPES } from '../relations.ts';

export const EntityType = /* @__PURE__ */ (() => doc(z.enum(ENTITY_TYPES), { id: 'EntityType' }))();

export const EntityReference = /* @__PURE__ */ (() => doc(referenceTo(EntityType), { id: 'EntityReference' }))();
export const EntityReferenceResponse = /* @__PURE__ */ (() => doc(dataOf(EntityReference), { id: 'EntityReferenceResponse' }))();

const EntityRelationship = /* @__PURE__ */ (() =>
  doc(strictObject({ type: z.enum(ENTITY_RELATIONSHIP_TYPES), target: EntityReference }), { id: 'EntityRelationship' }))();
export const EntityRelationshipResponse = /* @__PURE__ */ (() => doc(dataOf(EntityRelationship), { id: 'EntityRelationshipResponse' }))();
export const EntityRelationshipList = /* @__PURE__ */ (() => doc(listOf(EntityRelationship), { id: 'EntityRelationshipList' }))();

/** A custom field value (the configuration of the record's type gives its kind), or null when a selection names an empty field. */
const CustomFieldValue = /* @__PURE__ */ (() =>
  doc(z.nullable(z.union([z.string(), z.number(), strictObject({ id: z.string(), name: z.string() })])), {
    id: 'CustomFieldValue',
    description: 'A custom field value, by the field id (uuid); the type configuration gives its schema',
  }))();

/**
 * The `fields` of a record: its standard fields (null when selected but empty) and custom fields by
 * uuid. `own` gives a field a shape of the record's type (a note's content).
 */
export const recordFields = (ids: readonly (keyof typeof STANDARD_FIELDS)[], own: Partial<Record<keyof typeof STANDARD_FIELDS, z.ZodMiniType>> = {}) =>
  objectWithCatchall(Object.fromEntries(ids.map((id) => [id, z.optional(z.nullable(own[id] ?? STANDARD_FIELDS[id].read))])), CustomFieldValue);

/** Hierarchy entities (and initiatives, objectives and key results) share their fields; releases, release groups, users and companies each have their own. */
const HierarchyEntityFields = /* @__PURE__ */ (() => doc(recordFields(ENTITY_FIELDS.product), { id: 'HierarchyEntityFields' }))();
const FIELDS_OF: Record<EntityTypeName, z.ZodMiniType> = /* @__PURE__ */ (() => ({
  product: HierarchyEntityFields,
  component: HierarchyEntityFields,
  feature: HierarchyEntityFields,
  subfeature: HierarchyEntityFields,
  initiative: HierarchyEntityFields,
  objective: HierarchyEntityFields,
  keyResult: HierarchyEntityFields,
  release: doc(recordFields(ENTITY_FIELDS.release), { id: 'ReleaseFields' }),
  releaseGroup: doc(recordFields(ENTITY_FIELDS.releaseGroup), { id: 'ReleaseGroupFields' }),
  user: doc(recordFields(ENTITY_FIELDS.user), { id: 'UserFields' }),
  company: doc(recordFields(ENTITY_FIELDS.company), { id: 'CompanyFields' }),
}))();

const entityOf = (type: EntityTypeName) =>
  doc(
    strictObject({
      id: Uuid,
      type: z.literal(type),
      fields: FIELDS_OF[type] as ReturnType<typeof recordFields>,
      relationships: strictObject({ data: z.array(EntityRelationship), links: ListLinks }),
      links: RecordLinks,
      metadata: z.optional(Metadata),
      createdAt: DateTime,
      updatedAt: DateTime,
    }),
    { id: pascal(type) },
  );

/** An entity; its `relationships` hold at most 20 items, links.next lists the rest. */
const Entity = /* @__PURE__ */ (() =>
  doc(z.discriminatedUnion('type', ENTITY_TYPES.map(entityOf) as [ReturnType<typeof entityOf>, ...ReturnType<typeof entityOf>[]]), { id: 'Entity' }))();
export const EntityResponse = /* @__PURE__ */ (() => doc(dataOf(Entity), { id: 'EntityResponse' }))();
export const EntityList = /* @__PURE__ */ (() => doc(listOf(Entity), { id: 'EntityList' }))();

/** A field identifier of the `fields` selection: a standard field, a custom field uuid, or `all`. */
const FieldId = /* @__PURE__ */ (() => checkedString(z.minLength(1), z.maxLength(200)))();

const owner = /* @__PURE__ */ (() => memberParameters('owner'))();

/** Productboard's list filters and ours (`type`, `limit`); every filter given must hold. */
export const ListEntitiesQuery = /* @__PURE__ */ (() =>
  strictObject({
    type: z.optional(EntityType),
    'type[]': repeated(EntityType),
    'fields[]': repeated(FieldId),
    name: z.optional(NameParameter),
    'owner[id]': owner.id,
    'owner[email]': owner.email,
    'status[id]': z.optional(StatusIdParameter),
    'status[name]': z.optional(StatusNameParameter),
    'teams[id]': z.optional(doc(Uuid, 'Keeps the entities assigned to this team (not with teams[name])')),
    'teams[name]': z.optional(doc(NameParameter, 'Keeps the entities assigned to the team of this name, compared case-insensitively (not with teams[id])')),
    archived: z.optional(z.boolean()),
    'parent[id]': z.optional(doc(Uuid, "Keeps the parent's children")),
    ...sourceParameters,
    ...pageParameters,
  }))();

export const GetEntityQuery = /* @__PURE__ */ (() => strictObject({ 'fields[]': repeated(FieldId) }))();

export const EntityRelationshipsQuery = /* @__PURE__ */ (() =>
  strictObject({
    type: z.optional(z.enum(ENTITY_RELATIONSHIP_TYPES)),
    'target[type]': z.optional(EntityType),
    'target[id]': z.optional(Uuid),
    ...pageParameters,
  }))();

export const SearchEntitiesQuery = /* @__PURE__ */ (() => strictObject(pageParameters))();

const SpecFields = /* @__PURE__ */ (() =>
  z.union([z.literal('all'), checkedArray(FieldId, z.minLength(1))], { error: "must be the string 'all' or a non-empty array of field identifiers" }))();

const MemberAssign = /* @__PURE__ */ (() => z.union([strictObject({ id: Uuid }), strictObject({ email: Email })]))();
const StatusAssign = /* @__PURE__ */ (() => z.union([strictObject({ id: StatusIdParameter }), strictObject({ name: StatusNameParameter })]))();
const TeamAssign = /* @__PURE__ */ (() =>
  z.union([strictObject({ id: Uuid }), strictObject({ name: NameParameter })], { error: 'must name a team: {id} or {name}' }))();
const refusedFilter = (why: string) => z.optional(z.unknown().check(z.refine(() => false, { error: why })));

/** Productboard's `data.filter` (EntitySearchFilter): every filter given must hold, the values of one filter are alternatives. */
export const EntitySearchFilter = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      // One type or a list of them: Productboard's examples send both.
      type: z.optional(oneOrList(EntityType)),
      id: z.optional(checkedArray(Uuid, z.minLength(1), z.maxLength(100))),
      createdAt: z.optional(DateRange),
      updatedAt: z.optional(DateRange),
      fields: z.optional(
        objectWithCatchall(
          {
            name: z.optional(NameParameter),
            archived: z.optional(z.boolean()),
            owner: z.optional(checkedArray(MemberAssign, z.minLength(1))),
            status: z.optional(checkedArray(StatusAssign, z.minLength(1))),
            creator: refusedFilter('Entities record no creator, so they cannot be filtered by one.'),
            teams: z.optional(doc(checkedArray(TeamAssign, z.minLength(1), z.maxLength(100)), 'Entities assigned to any of these teams')),
          },
          refusedFilter(
            'This field cannot be filtered on (custom fields and the other standard fields are not supported); filter by name, archived, owner, status or teams.',
          ),
        ),
      ),
      relationships: z.optional(
        strictObject({
          parent: z.optional(checkedArray(strictObject({ id: Uuid }), z.minLength(1))),
          customer: refusedFilter('Entities cannot be filtered by customer; search the notes of a customer instead (POST /v2/notes/search).'),
        }),
      ),
      metadata: z.optional(strictObject({ source: z.optional(strictObject({ system: z.optional(z.string()), recordId: z.optional(z.string()) })) })),
    }),
    { id: 'EntitySearchFilter' },
  ))();
export type EntitySearchFilter = z.output<typeof EntitySearchFilter>;

const MIXED = "'/data' mixes the service specification's search (types, archived, fields) with Productboard's (filter, return); use one of them.";

/**
 * The search body in either form: the service specification's `{data: {types, archived?,
 * fields?}}`, or Productboard's `{data: {filter?, return?}}` (either key makes it that form). The
 * two mixed → 400 at /data.
 */
export const SearchEntitiesBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: z.pipe(
        strictObject({
          types: doc(z.optional(checkedArray(EntityType, z.minLength(1))), "The service specification's form: the entity types (required in that form)"),
          archived: z.optional(z.boolean()),
          fields: z.optional(SpecFields),
          filter: doc(z.optional(EntitySearchFilter), "Productboard's form: the filters"),
          return: z.optional(strictObject({ fields: z.optional(z.union([z.enum(['all', 'default']), checkedArray(FieldId, z.minLength(1))])) })),
        }),
        z.transform((d, ctx) => {
          const productboard = d.filter !== undefined || d.return !== undefined;
          if (productboard && (d.types !== undefined || d.archived !== undefined || d.fields !== undefined)) {
            ctx.issues.push({ code: 'custom', message: MIXED, path: [], input: d });
            return z.NEVER;
          }
          if (productboard) {
            const fields = d.return?.fields;
            return { form: 'productboard' as const, filter: d.filter ?? {}, fields: fields === 'default' ? undefined : fields };
          }
          if (d.types === undefined) {
            ctx.issues.push({
              code: 'custom',
              message: "'/data/types' is required: a non-empty array of entity types (or Productboard's form, {filter, return}).",
              path: ['types'],
              input: undefined,
            });
            return z.NEVER;
          }
          return { form: 'specification' as const, types: d.types, archived: d.archived, fields: d.fields };
        }),
      ),
    }),
    { id: 'SearchEntitiesBody' },
  ))();

export { EntityPath };
