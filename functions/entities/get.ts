// GET /v2/entities/{id} — one entity, `fields[]` selecting its fields.
import { NotFound } from '#lib/domain/errors.ts';
import { etagOf } from '#lib/domain/etag.ts';
import { fieldsFromQuery } from '#lib/domain/fields.ts';
import { EntityPath, GetEntityQuery } from '#lib/domain/schemas/entity.ts';
import { EntityResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { entityResource } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { entityVersion, getEntity } from '#lib/store/entities.ts';

export const handler = authedApi(
  routes.getEntity,
  { params: EntityPath, query: GetEntityQuery, responses: { 200: EntityResponse }, headers: { etag: true } },
  async (req, { params: { id }, query }) => {
    const selection = fieldsFromQuery(query);
    const principal = principalOf(req);
    const ws = principal.workspaceId;
    const entity = await getEntity(ws, id, req.preread);
    if (!entity) throw new NotFound('entity', id);
    const data = await entityResource(ws, entity, selection, principal.scopes.has('users:pii:read'));
    return { status: 200, body: { data }, headers: { ETag: etagOf(entityVersion(entity)) } };
  },
);
