// GET /v2/entities/configurations — every entity type's configured fields (`type[]` or `type` filters).
import { ENTITY_TYPES } from '#lib/domain/configurations.ts';
import { EntityConfigurationsQuery } from '#lib/domain/schemas/configuration.ts';
import { ConfigurationList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { configurationResources } from '#lib/http/configurations.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(
  routes.listEntityConfigurations,
  { query: EntityConfigurationsQuery, responses: { 200: ConfigurationList } },
  async (req, { query }) => {
    const named = [...(query['type[]'] ?? []), ...(query.type ? [query.type] : [])];
    const types = named.length ? [...new Set(named)] : ENTITY_TYPES;
    // At most six configurations: always one page.
    return { status: 200, body: { data: await configurationResources(principalOf(req).workspaceId, 'entities', types), links: {} } };
  },
);
