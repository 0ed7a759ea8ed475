// Tools over entities (the product hierarchy, planning entities and customers): search (the REST search's types, archived and
// fields, plus a name and a parent) and one entity, as the REST API answers them (lib/http/records.ts).
import * as z from 'zod/mini';
import { ENTITY_TYPES } from '../../../domain/configurations.ts';
import { visibleName } from '../../../domain/entity-view.ts';
import { NotFound } from '../../../domain/errors.ts';
import { checkKnownFields, fieldsFromBody } from '../../../domain/fields.ts';
import { nonBlank, Uuid } from '../../../domain/schemas/common.ts';
import { EntityType } from '../../../domain/schemas/entity.ts';
import { MAX_NAME } from '../../../domain/schemas/field-values.ts';
import * as routes from '../../../routes.ts';
import { fieldCatalog } from '../../../store/custom-fields.ts';
import { getEntity } from '../../../store/entities.ts';
import { entitiesAfter } from '../../../store/pages.ts';
import { pageOfFetched } from '../../pagination.ts';
import { entityRecords, entityResource } from '../../records.ts';
import { cursorPosition, nextCursor } from '../cursor.ts';
import { Cursor, Fields, pageLimit } from '../inputs.ts';
import { tool } from '../tool.ts';

const MAX_SEARCH_PAGE = 100;
const DEFAULT_SEARCH_PAGE = 20;

export const searchEntities = tool({
  name: 'search_entities',
  title: 'Search entities',
  description:
    "Products, components, features, subfeatures, initiatives, objectives, key results, releases, release groups, users and companies, oldest first, filtered by type, by a name fragment (case-insensitive), by parent and by archived state. Paginated: pass the result's nextCursor as cursor for the next page (a page may hold fewer matches than the limit and still have a nextCursor).",
  mirrors: routes.searchEntities,
  readOnly: true,
  input: {
    types: z.optional(z.array(EntityType).check(z.minLength(1), z.describe('Entity types to include; every type when omitted'))),
    // The REST `name` parameter's rule: white space alone would match every name with a space in it.
    name: z.optional(nonBlank(MAX_NAME).check(z.describe('A fragment of the name, matched case-insensitively'))),
    parentId: z.optional(Uuid.check(z.describe('Only the direct children of this entity'))),
    archived: z.optional(z.boolean().check(z.describe('Only archived (true) or only active (false) entities'))),
    fields: Fields,
    limit: pageLimit('Entities', MAX_SEARCH_PAGE, DEFAULT_SEARCH_PAGE),
    cursor: Cursor,
  },
  async run(principal, args) {
    const ws = principal.workspaceId;
    const pii = principal.scopes.has('users:pii:read');
    const types = args.types ? [...new Set(args.types)] : [...ENTITY_TYPES];
    const selection = fieldsFromBody(args.fields, ['fields']);
    const catalog = await fieldCatalog(ws, types);
    checkKnownFields(selection, catalog.configured);
    const limit = args.limit ?? DEFAULT_SEARCH_PAGE;
    // The REST list's store query (lib/store/pages.ts): the children index for a parent, the type
    // index otherwise; a read that spends its scan budget ends early with a position to go on from.
    const after = (await cursorPosition('search_entities', principal, args)) as string | undefined;
    const query = {
      types,
      ...(args.parentId ? { parentIds: [args.parentId] } : {}),
      ...(args.name ? { name: args.name } : {}),
      ...(pii ? {} : { hidesUserNames: true as const }),
      ...(args.archived !== undefined ? { archived: args.archived } : {}),
    };
    const slice = await entitiesAfter(ws, query, after, limit + 1);
    const { views: entities, next: position } = await pageOfFetched(slice, limit, (records) => entityRecords(ws, records, selection, catalog, pii));
    const more = position !== undefined;
    const data = { entities, ...(more ? { nextCursor: await nextCursor('search_entities', principal, args, position) } : {}) };
    return { text: `${entities.length} ${entities.length === 1 ? 'entity' : 'entities'} found${more ? '; more with nextCursor' : ''}.`, data };
  },
});

export const getEntityTool = tool({
  name: 'get_entity',
  title: 'Get an entity',
  description:
    'One entity (product hierarchy, planning entity or customer) by id, with its fields and its relationships (parent, children, links), as the REST API answers GET /v2/entities/{id}.',
  mirrors: routes.getEntity,
  readOnly: true,
  input: { entityId: Uuid.check(z.describe('Id of the entity')), fields: Fields },
  async run(principal, { entityId, fields }) {
    const ws = principal.workspaceId;
    const entity = await getEntity(ws, entityId);
    if (!entity) throw new NotFound('entity', entityId);
    const pii = principal.scopes.has('users:pii:read');
    const record = await entityResource(ws, entity, fieldsFromBody(fields, ['fields']), pii);
    const shown = visibleName(entity, pii);
    const name = typeof shown === 'string' ? shown : '';
    return { text: `${entity.type} "${name}" (${entity.id}).`, data: { entity: record } };
  },
});
