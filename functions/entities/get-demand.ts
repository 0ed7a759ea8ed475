// GET /v2/entities/{id}/demand — the customer demand behind an initiative, objective, key result or
// release (extension): the scores of the product hierarchy entities linked to it, read in one
// snapshot (lib/store/demand.ts).
import { config } from '#lib/config.ts';
import { DEMAND_RULE } from '#lib/domain/demand.ts';
import { entityLink } from '#lib/domain/entity-view.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { EntityPath } from '#lib/domain/schemas/common.ts';
import { CustomerDemandResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { readDemand } from '#lib/store/demand.ts';

export const handler = authedApi(
  routes.getCustomerDemand,
  { params: EntityPath, responses: { 200: CustomerDemandResponse }, extension: DEMAND_RULE },
  async (req, { params: { id } }) => {
    const found = await readDemand(principalOf(req).workspaceId, id, req.preread, req.deadline);
    if (!found) throw new NotFound('initiative, objective, key result or release', id);
    const target = entityLink(config.baseUrl, id);
    return {
      status: 200,
      body: {
        data: {
          id,
          type: 'customerDemand' as const,
          fields: { demand: found.demand, linkedEntities: found.live.length, countedEntities: found.counted.length, pointInTime: found.pointInTime },
          links: { self: `${target}/demand`, target },
        },
      },
    };
  },
);
