// DELETE /v2/entities/{id} — delete an entity with its whole subtree (lib/store/cascade.ts).
import { EntityPath } from '#lib/domain/schemas/entity.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { ifMatchOf, principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { deleteEntity } from '#lib/store/cascade.ts';

export const handler = authedApi(routes.deleteEntity, { params: EntityPath, responses: { 204: null }, headers: { ifMatch: true } }, async (req, { params }) => {
  await deleteEntity(principalOf(req).workspaceId, params.id, ifMatchOf(req), req);
  return { status: 204 };
});
