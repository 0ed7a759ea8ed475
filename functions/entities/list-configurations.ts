// GET /v2/entities/configurations — every entity type's configured fields (`type[]` filters).
import { configurationResources } from '#lib/http/configurations.ts';
import { typesFromQuery } from '#lib/http/entity-types.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';

export const handler = api('listEntityConfigurations', async (req) => {
  const types = typesFromQuery(req.query, ['type[]', 'type']);
  // At most six configurations: always one page.
  return { status: 200, body: { data: await configurationResources(principalOf(req).workspaceId, 'entities', types), links: {} } };
});
