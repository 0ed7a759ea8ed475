// DELETE /v2/entities/{id}/relationships/{type}/{targetId} — removes a link, isBlockedBy or
// isBlocking relationship (both sides), or a parent (or child) where the hierarchy rules let the
// entity stand without one (a user and its company); a parent they require → 400 (move instead).
import { parameter } from '#lib/domain/errors.ts';
import { EntityRelationshipPath } from '#lib/domain/schemas/entity-writes.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { detachParent } from '#lib/store/entity-writes.ts';
import { deleteRelation } from '#lib/store/relations.ts';

export const handler = authedApi(routes.deleteEntityRelationship, { params: EntityRelationshipPath, responses: { 204: null } }, async (req, { params }) => {
  const ws = principalOf(req).workspaceId;
  const { id, type, targetId } = params;
  if (type === 'parent') await detachParent(ws, id, targetId, parameter('type'), req);
  else if (type === 'child') await detachParent(ws, targetId, id, parameter('type'), req);
  else await deleteRelation(ws, id, type, targetId, req);
  return { status: 204 };
});
