// Tools over the customer score: one entity's score, and a subtree ranked by score. Both read the
// precomputed totals GET /v2/entities/{id}/score reads (lib/store/score.ts, lib/store/ranking.ts).
import * as z from 'zod/mini';
import { InvalidInput, NotFound } from '../../../domain/errors.ts';
import { HIERARCHY_TYPES, isHierarchyType } from '../../../domain/hierarchy.ts';
import { Uuid } from '../../../domain/schemas/common.ts';
import * as routes from '../../../routes.ts';
import { getEntity } from '../../../store/entities.ts';
import { MAX_RANKED_DESCENDANTS, scoredDescendants, type ScoredEntity } from '../../../store/ranking.ts';
import { readScore } from '../../../store/score.ts';
import { cursorPosition, nextCursor } from '../cursor.ts';
import { Cursor, pageLimit } from '../inputs.ts';
import { entitySummary } from '../summaries.ts';
import { tool } from '../tool.ts';

const MAX_RANK_PAGE = 100;
const DEFAULT_RANK_PAGE = 20;

/** Said with every cursor: a ranking is read afresh for each page. */
export const RANKING_CURSOR_NOTE =
  'Each page is ranked afresh from the current scores: scores may move between pages, so an entity whose score changed can appear twice or not at all.';

export const getCustomerScore = tool({
  name: 'get_customer_score',
  title: 'Customer score of an entity',
  description:
    "The customer score of a product, component, feature or subfeature: the weighted customer importance of the notes linked to it and to everything under it (latest rating per customer). Returns the entity's id, name, type and score.",
  mirrors: routes.getCustomerScore,
  readOnly: true,
  input: { entityId: Uuid.check(z.describe('Id of a product, component, feature or subfeature')) },
  async run(principal, { entityId }) {
    const ws = principal.workspaceId;
    const [score, entity] = await Promise.all([readScore(ws, entityId), getEntity(ws, entityId)]);
    if (score === undefined || !entity) throw new NotFound('product hierarchy entity', entityId);
    const data = { ...entitySummary(entity), score };
    return { text: `${entity.type} "${data.name}" has a customer score of ${score}.`, data };
  },
});

/** Highest score first; equal scores by id, so that the order (and a cursor's position in it) is total. */
const rankOrder = (a: { score: number; id: string }, b: { score: number; id: string }) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const rankByCustomerScore = tool({
  name: 'rank_by_customer_score',
  title: 'Rank a subtree by customer score',
  description: `The descendants of a product hierarchy entity (e.g. the features under a product or component), highest customer score first, optionally only those of one type. Paginated: pass the result's nextCursor as cursor for the next page. Subtrees of more than ${MAX_RANKED_DESCENDANTS} descendants are refused.`,
  mirrors: routes.getCustomerScore,
  readOnly: true,
  input: {
    parentId: Uuid.check(z.describe('Id of the product, component, feature or subfeature whose descendants are ranked')),
    type: z.optional(z.enum(HIERARCHY_TYPES).check(z.describe('Only descendants of this type'))),
    limit: pageLimit('Entities', MAX_RANK_PAGE, DEFAULT_RANK_PAGE),
    cursor: Cursor,
  },
  async run(principal, args) {
    const ws = principal.workspaceId;
    const after = await cursorPosition('rank_by_customer_score', principal, args);
    const parent = await getEntity(ws, args.parentId);
    if (!parent || !isHierarchyType(parent.type)) throw new NotFound('product hierarchy entity', args.parentId);
    const found = await scoredDescendants(ws, parent.id);
    if (found.tooMany) {
      throw new InvalidInput(
        `The subtree under ${parent.id} has more than ${MAX_RANKED_DESCENDANTS} descendants, more than one call ranks; rank a component or feature below it instead.`,
        { pointer: '/parentId' },
      );
    }
    const ranked = found.scored
      .filter(({ entity }) => args.type === undefined || entity.type === args.type)
      .map(({ entity, score }: ScoredEntity) => ({ ...entitySummary(entity), score }))
      .sort(rankOrder);
    const start = Array.isArray(after) ? ranked.findIndex((r) => rankOrder(r, { score: Number(after[0]), id: String(after[1]) }) > 0) : 0;
    const limit = args.limit ?? DEFAULT_RANK_PAGE;
    const page = start < 0 ? [] : ranked.slice(start, start + limit);
    const last = page.at(-1);
    const more = start >= 0 && start + limit < ranked.length && last !== undefined;
    const data = {
      parent: entitySummary(parent),
      entities: page.map((r, i) => ({ rank: start + i + 1, ...r })),
      ...(more ? { nextCursor: await nextCursor('rank_by_customer_score', principal, args, [last.score, last.id]), cursorNote: RANKING_CURSOR_NOTE } : {}),
    };
    const what = args.type ? `${args.type}s` : 'descendants';
    const text = page.length
      ? `${page.length} ${page.length === 1 ? (args.type ?? 'descendant') : what} of ${parent.type} "${data.parent.name}" by customer score, ranks ${start + 1}–${start + page.length} of ${ranked.length}${more ? '; more with nextCursor' : ''}.`
      : `No ${what} under ${parent.type} "${data.parent.name}"${after ? ' after this cursor' : ''}.`;
    return { text, data };
  },
});
