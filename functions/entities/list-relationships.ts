// GET /v2/entities/{id}/relationships — `type`, `target[type]`, `target[id]`, `pageCursor`, `limit`: the parent
// first, then the children oldest first, then link, isBlockedBy and isBlocking (lib/http/relationship-lists.ts).
import { EntityPath, EntityRelationshipsQuery } from '#lib/domain/schemas/entity.ts';
import { EntityRelationshipList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { listEntityRelationships } from '#lib/http/relationship-lists.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(
  routes.listEntityRelationships,
  { params: EntityPath, query: EntityRelationshipsQuery, responses: { 200: EntityRelationshipList } },
  listEntityRelationships,
);
