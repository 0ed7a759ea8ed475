// GET /v2/entities/{id}/score — the customer score of a hierarchy entity: one read of its precomputed total.
import { config } from '#lib/config.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { EntityPath } from '#lib/domain/schemas/common.ts';
import { CustomerScoreResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { readScore } from '#lib/store/score.ts';

export const handler = authedApi(
  routes.getCustomerScore,
  { params: EntityPath, responses: { 200: CustomerScoreResponse } },
  async (req, { params: { id } }) => {
    const score = await readScore(principalOf(req).workspaceId, id, req.preread);
    if (score === undefined) throw new NotFound('product hierarchy entity', id);
    return {
      status: 200,
      body: { data: { id, type: 'customerScore' as const, fields: { score }, links: { self: `${config.baseUrl}/entities/${id}/score` } } },
    };
  },
);
