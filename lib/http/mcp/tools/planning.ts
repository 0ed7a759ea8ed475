// Tools over planning entities: the customer demand behind a plan, the entities linked to a plan
// ranked by customer score (the features of a release), the releases of a product area, and
// objectives with their key results. They read what the REST routes read (lib/store/demand.ts,
// lib/store/planning.ts) and require those routes' scope.
import * as z from 'zod/mini';
import { RANKING_CURSOR_NOTE } from './scores.ts';
import { InvalidInput, NotFound } from '../../../domain/errors.ts';
import { Uuid } from '../../../domain/schemas/common.ts';
import * as routes from '../../../routes.ts';
import { readDemand } from '../../../store/demand.ts';
import { getEntity, type EntityItem } from '../../../store/entities.ts';
import { entitiesAfter } from '../../../store/pages.ts';
import { childrenOfType, MAX_AREA_ENTITIES, MAX_RELEASES, releasesOfArea } from '../../../store/planning.ts';
import { scoreOfTotal } from '../../../store/score.ts';
import { cursorPosition, nextCursor } from '../cursor.ts';
import { Cursor, pageLimit } from '../inputs.ts';
import { entitySummary } from '../summaries.ts';
import { tool } from '../tool.ts';

const PLANS = 'initiative, objective, key result or release';

/** A planning entity's summary with the fields an assistant plans by (status, timeframe), when set. */
const planSummary = (e: EntityItem) => ({
  ...entitySummary(e),
  ...(e.fields.status ? { status: (e.fields.status as { name: string }).name } : {}),
  ...(e.fields.timeframe ? { timeframe: e.fields.timeframe } : {}),
});

export const getCustomerDemand = tool({
  name: 'get_customer_demand',
  title: 'Customer demand behind a plan',
  description: `The customer demand behind an ${PLANS}: the sum of the customer scores of the products, components, features and subfeatures linked to it, each counted once (one under a linked ancestor is in that ancestor's score), as GET /v2/entities/{id}/demand answers it.`,
  mirrors: routes.getCustomerDemand,
  readOnly: true,
  input: { entityId: Uuid.check(z.describe(`Id of an ${PLANS}`)) },
  async run(principal, { entityId }, scope) {
    const found = await readDemand(principal.workspaceId, entityId, undefined, scope.deadline);
    if (!found) throw new NotFound(PLANS, entityId);
    const data = {
      ...planSummary(found.entity),
      demand: found.demand,
      linkedEntities: found.live.length,
      countedEntities: found.counted.length,
      pointInTime: found.pointInTime,
    };
    return {
      text: `${found.entity.type} "${data.name}" has a customer demand of ${found.demand} from ${found.counted.length} linked ${found.counted.length === 1 ? 'entity' : 'entities'}.`,
      data,
    };
  },
});

const MAX_RANK_PAGE = 100;
const DEFAULT_RANK_PAGE = 20;
const rankOrder = (a: { score: number; id: string }, b: { score: number; id: string }) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const rankPlanByCustomerScore = tool({
  name: 'rank_plan_by_customer_score',
  title: 'Rank what a plan holds by customer score',
  description:
    `The products, components, features and subfeatures linked to an ${PLANS} (e.g. the features of a release), highest customer score first, with the plan's customer demand; ` +
    "scores and demand are read together, as of one moment. `counted` is false for an entity whose linked ancestor's score already holds it. Paginated: pass nextCursor as cursor.",
  mirrors: routes.getCustomerDemand,
  readOnly: true,
  input: {
    planId: Uuid.check(z.describe(`Id of an ${PLANS}`)),
    type: z.optional(z.enum(['product', 'component', 'feature', 'subfeature']).check(z.describe('Only linked entities of this type'))),
    limit: pageLimit('Entities', MAX_RANK_PAGE, DEFAULT_RANK_PAGE),
    cursor: Cursor,
  },
  async run(principal, args, scope) {
    const after = await cursorPosition('rank_plan_by_customer_score', principal, args);
    const found = await readDemand(principal.workspaceId, args.planId, undefined, scope.deadline);
    if (!found) throw new NotFound(PLANS, args.planId);
    const counted = new Set(found.counted);
    const ranked = found.linked
      .filter((e) => args.type === undefined || e.type === args.type)
      .map((e) => ({ ...entitySummary(e), score: scoreOfTotal(e.total), counted: counted.has(e.id) }))
      .sort(rankOrder);
    const start = Array.isArray(after) ? ranked.findIndex((r) => rankOrder(r, { score: Number(after[0]), id: String(after[1]) }) > 0) : 0;
    const limit = args.limit ?? DEFAULT_RANK_PAGE;
    const page = start < 0 ? [] : ranked.slice(start, start + limit);
    const last = page.at(-1);
    const more = start >= 0 && start + limit < ranked.length && last !== undefined;
    const plan = planSummary(found.entity);
    const data = {
      plan,
      demand: found.demand,
      entities: page.map((r, i) => ({ rank: start + i + 1, ...r })),
      ...(more ? { nextCursor: await nextCursor('rank_plan_by_customer_score', principal, args, [last.score, last.id]), cursorNote: RANKING_CURSOR_NOTE } : {}),
    };
    const text = page.length
      ? `${page.length} of the ${ranked.length} ${ranked.length === 1 ? 'entity' : 'entities'} linked to ${found.entity.type} "${plan.name}" by customer score (demand ${found.demand})${more ? '; more with nextCursor' : ''}.`
      : `Nothing linked to ${found.entity.type} "${plan.name}"${after ? ' after this cursor' : ''}.`;
    return { text, data };
  },
});

export const listReleasesOfArea = tool({
  name: 'list_releases_of_area',
  title: 'Releases of a product area',
  description: `The releases that hold a product, component, feature or subfeature or anything under it, oldest first, each with its release group, status, timeframe and the area's entities in it (with their customer scores). Areas of more than ${MAX_AREA_ENTITIES} entities and workspaces of more than ${MAX_RELEASES} releases are refused.`,
  mirrors: routes.listEntityRelationships,
  readOnly: true,
  input: { areaId: Uuid.check(z.describe('Id of the product, component, feature or subfeature')) },
  async run(principal, { areaId }) {
    const found = await releasesOfArea(principal.workspaceId, areaId);
    if (!found) throw new NotFound('product hierarchy entity', areaId);
    if ('tooMany' in found) {
      const why =
        found.tooMany === 'entities'
          ? `more than ${MAX_AREA_ENTITIES} entities are under ${areaId}; ask for a component or feature below it`
          : `the workspace has more than ${MAX_RELEASES} releases; list releases with search_entities instead`;
      throw new InvalidInput(`One call cannot answer this: ${why}.`, { pointer: '/areaId' });
    }
    const area = entitySummary(found.area);
    const releases = found.releases.map(({ release, entities }) => ({
      ...planSummary(release),
      entities: entities.map((e) => ({ ...entitySummary(e), score: scoreOfTotal(e.total) })).sort(rankOrder),
    }));
    return {
      text: `${releases.length} ${releases.length === 1 ? 'release holds' : 'releases hold'} ${found.area.type} "${area.name}" or entities under it.`,
      data: { area, releases },
    };
  },
});

const MAX_OBJECTIVE_PAGE = 50;
const DEFAULT_OBJECTIVE_PAGE = 20;

export const listObjectives = tool({
  name: 'list_objectives',
  title: 'Objectives with their key results',
  description:
    'Objectives, oldest first (only those nested directly in an objective, when parentId is given), each with its status, timeframe and key results. Paginated: pass nextCursor as cursor. get_customer_demand answers the demand behind one of them.',
  mirrors: routes.listEntities,
  readOnly: true,
  input: {
    parentId: z.optional(Uuid.check(z.describe('Only the objectives nested directly in this objective'))),
    limit: pageLimit('Objectives', MAX_OBJECTIVE_PAGE, DEFAULT_OBJECTIVE_PAGE),
    cursor: Cursor,
  },
  async run(principal, args) {
    const ws = principal.workspaceId;
    if (args.parentId !== undefined) {
      const parent = await getEntity(ws, args.parentId);
      if (parent?.type !== 'objective') throw new NotFound('objective', args.parentId);
    }
    const after = (await cursorPosition('list_objectives', principal, args)) as string | undefined;
    const limit = args.limit ?? DEFAULT_OBJECTIVE_PAGE;
    const slice = await entitiesAfter(ws, { types: ['objective'], ...(args.parentId ? { parentIds: [args.parentId] } : {}) }, after, limit + 1);
    const found = slice.items.slice(0, limit);
    const position = slice.items.length > limit ? found.at(-1)!.position : slice.resume;
    const objectives = await Promise.all(
      found.map(async ({ record }) => ({ ...planSummary(record), keyResults: (await childrenOfType(ws, record.id, 'keyResult')).map(planSummary) })),
    );
    const data = { objectives, ...(position !== undefined ? { nextCursor: await nextCursor('list_objectives', principal, args, position) } : {}) };
    return {
      text: `${objectives.length} ${objectives.length === 1 ? 'objective' : 'objectives'}${position !== undefined ? '; more with nextCursor' : ''}.`,
      data,
    };
  },
});
