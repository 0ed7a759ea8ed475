// GET /v2/entities/configurations/{type} — one entity type's fields (with JSON Schemas) and relationships.
import { ENTITY_TYPES, isEntityType } from '#lib/domain/configurations.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { ConfigurationPath } from '#lib/domain/schemas/configuration.ts';
import { ConfigurationResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { configurationResources } from '#lib/http/configurations.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(
  routes.getEntityConfiguration,
  { params: ConfigurationPath, responses: { 200: ConfigurationResponse } },
  async (req, { params }) => {
    const { type } = params;
    if (!isEntityType(type)) {
      throw new NotFound('entity type', type, `No entity type '${type.slice(0, 100)}'; known types: ${ENTITY_TYPES.join(', ')}.`);
    }
    const [data] = await configurationResources(principalOf(req).workspaceId, 'entities', [type]);
    return { status: 200, body: { data: data! } };
  },
);
