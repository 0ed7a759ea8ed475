// The compute-on-read baseline the benchmark compares the precomputed score with: walk the subtree
// (children via GSI2), query every entity's links (GSI2 linksTo), and apply the score rule. It reads
// the customer from the link's cached customerId rather than from each note, which makes it cheaper
// than a faithful compute-on-read, so the ratio it yields is a lower bound. The benchmark serves it
// as a bench-only route, GET /v2/entities/{id}/naive-score, through the same gateway, pipeline and
// authentication as the endpoint (the route row of getCustomerScore: its scope and prefetch); it is
// in no route table, stack or OpenAPI document.
import { config } from '#lib/config.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { EntityPath } from '#lib/domain/schemas/entity.ts';
import { CustomerScoreResponse } from '#lib/domain/schemas/responses.ts';
import { ownScores, type RawLink } from '#lib/domain/score.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import { getCustomerScore } from '#lib/routes.ts';
import { toLink } from '#lib/store/aggregates.ts';
import { readEntityItem, subtree } from '#lib/store/entities.ts';
import * as keys from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/query.ts';
import type { Handler, ExtraRoutes } from '../local/gateway.ts';

async function linksTo(ws: string, entityId: string): Promise<RawLink[]> {
  const items = await queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': keys.linksTo(ws, entityId) },
    ProjectionExpression: 'noteId, entityId, customerId, importance, setAt',
  });
  return items.map(toLink).map(({ noteId, entityId: id, customerId, importance, setAt }) => ({ noteId, entityId: id, customerId, importance, setAt }));
}

/** score(root) recomputed from the raw links of its subtree, a few entities' queries at a time. */
export async function naiveScore(ws: string, rootId: string, parallel = 4): Promise<number> {
  const { ids } = await subtree(ws, rootId);
  const links: RawLink[] = [];
  for (let i = 0; i < ids.length; i += parallel) {
    for (const batch of await Promise.all(ids.slice(i, i + parallel).map((id) => linksTo(ws, id)))) links.push(...batch);
  }
  let sum = 0;
  for (const v of ownScores(links).values()) sum += v;
  return sum;
}

/** The baseline behind the endpoint's own pipeline: same authentication, scope and answer shape. */
const handler: Handler = authedApi(getCustomerScore, { params: EntityPath, responses: { 200: CustomerScoreResponse } }, async (req, { params: { id } }) => {
  const ws = principalOf(req).workspaceId;
  const root = await readEntityItem(ws, id, req.preread);
  if (!root || root.deleting) throw new NotFound('product hierarchy entity', id);
  const score = await naiveScore(ws, id);
  return { status: 200, body: { data: { id, type: 'customerScore' as const, fields: { score }, links: { self: `${config.baseUrl}/entities/${id}/score` } } } };
});

const PATH = /^\/v2\/entities\/([^/]+)\/naive-score$/;

/** The bench-only route for bench/local-stack.ts: GET /v2/entities/{id}/naive-score. */
export const naiveScoreRoute: ExtraRoutes = (method, rawPath) => {
  const m = method === 'GET' ? PATH.exec(rawPath) : null;
  return m ? { match: { route: getCustomerScore, params: { id: decodeURIComponent(m[1]!) } }, handler } : undefined;
};
