// Tools over the product hierarchy and customers: search (the REST search's types, archived and
// fields, plus a name and a parent) and one entity, as the REST API answers them (lib/http/records.ts).
import * as z from 'zod/mini';
import { ENTITY_TYPES } from '../../../domain/configurations.ts';
import { NotFound } from '../../../domain/errors.ts';
import { checkKnownFields, fieldsFromBody } from '../../../domain/fields.ts';
import { Uuid } from '../../../domain/schemas/common.ts';
import { EntityType } from '../../../domain/schemas/entity.ts';
import { configuredFields } from '../../../store/custom-fields.ts';
import { getEntity } from '../../../store/entities.ts';
import { entitiesAfter } from '../../../store/pages.ts';
import { entityRecord, entityResource } from '../../records.ts';
import { cursorPosition, nextCursor } from '../cursor.ts';
import { Cursor, Fields, pageLimit } from '../inputs.ts';
import { tool } from '../tool.ts';

const MAX_SEARCH_PAGE = 100;
const DEFAULT_SEARCH_PAGE = 20;
/**
 * The name and parent filters are applied to the list by type as it is read: one call reads at
 * most this many entities and, when it found fewer matches than asked, answers them with a cursor
 * to go on from where it stopped.
 */
export const MAX_SCANNED_PER_CALL = 1_000;
const SCAN_BATCH = 200;


export const searchEntities = tool({
  name: 'search_entities',
  title: 'Search entities',
  description:
    'Products, components, features, subfeatures, users and companies, oldest first, filtered by type, by a name fragment (case-insensitive), by parent and by archived state. Paginated: pass the result\'s nextCursor as cursor for the next page (a page may hold fewer matches than the limit and still have a nextCursor).',
  mirrors: 'searchEntities',
  readOnly: true,
  input: {
    types: z.optional(z.array(EntityType).check(z.minLength(1), z.describe('Entity types to include; every type when omitted'))),
    name: z.optional(z.string().check(z.minLength(1), z.maxLength(255), z.describe('A fragment of the name, matched case-insensitively'))),
    parentId: z.optional(Uuid.check(z.describe('Only the direct children of this entity'))),
    archived: z.optional(z.boolean().check(z.describe('Only archived (true) or only active (false) entities'))),
    fields: Fields,
    limit: pageLimit('Entities', MAX_SEARCH_PAGE, DEFAULT_SEARCH_PAGE),
    cursor: Cursor,
  },
  async run(principal, args) {
    const ws = principal.workspaceId;
    const types = args.types ? [...new Set(args.types)] : [...ENTITY_TYPES];
    const selection = fieldsFromBody(args.fields, ['fields']);
    const configured = await configuredFields(ws, types);
    checkKnownFields(selection, configured);
    const limit = args.limit ?? DEFAULT_SEARCH_PAGE;
    const fragment = args.name?.toLowerCase();
    const matches = (fields: Record<string, unknown>, parentId: string | undefined) =>
      (args.parentId === undefined || parentId === args.parentId) &&
      (fragment === undefined || (typeof fields.name === 'string' && fields.name.toLowerCase().includes(fragment)));
    let position = (await cursorPosition('search_entities', principal, args)) as string | undefined;
    const found: Awaited<ReturnType<typeof entitiesAfter>> = [];
    let scanned = 0;
    let ended = false;
    let consumedAll = true;
    while (found.length < limit && scanned < MAX_SCANNED_PER_CALL && !ended) {
      const want = Math.min(SCAN_BATCH, MAX_SCANNED_PER_CALL - scanned);
      const batch = await entitiesAfter(ws, types, position, want, { archived: args.archived });
      ended = batch.length < want;
      consumedAll = true;
      for (const [i, item] of batch.entries()) {
        position = item.position;
        scanned++;
        if (matches(item.record.fields, item.record.parentId)) found.push(item);
        if (found.length === limit) {
          consumedAll = i === batch.length - 1;
          break;
        }
      }
    }
    // More may follow unless the list ended and every entity read was looked at.
    const more = position !== undefined && !(ended && consumedAll);
    const entities = await Promise.all(found.map(({ record }) => entityRecord(ws, record, selection, configured.get(record.type) ?? [])));
    const data = { entities, ...(more ? { nextCursor: await nextCursor('search_entities', principal, args, position!) } : {}) };
    return { text: `${entities.length} ${entities.length === 1 ? 'entity' : 'entities'} found${more ? '; more with nextCursor' : ''}.`, data };
  },
});

export const getEntityTool = tool({
  name: 'get_entity',
  title: 'Get an entity',
  description: 'One product, component, feature, subfeature, user or company by id, with its fields and its relationships (parent and children), as the REST API answers GET /v2/entities/{id}.',
  mirrors: 'getEntity',
  readOnly: true,
  input: { entityId: Uuid.check(z.describe('Id of the entity')), fields: Fields },
  async run(principal, { entityId, fields }) {
    const ws = principal.workspaceId;
    const entity = await getEntity(ws, entityId);
    if (!entity) throw new NotFound('entity', entityId);
    const record = await entityResource(ws, entity, fieldsFromBody(fields, ['fields']));
    const name = typeof entity.fields.name === 'string' ? entity.fields.name : '';
    return { text: `${entity.type} "${name}" (${entity.id}).`, data: { entity: record } };
  },
});
