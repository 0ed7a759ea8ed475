// PUT /v2/entities/{id}/relationships/parent — move an entity (and its subtree) under another parent.
import { config } from '#lib/config.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { SetParentBody } from '#lib/domain/schemas/entity-writes.ts';
import { EntityPath } from '#lib/domain/schemas/entity.ts';
import { EntityRelationshipResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { setParent } from '#lib/store/entity-writes.ts';

export const handler = authedApi(
  routes.setEntityParent,
  { params: EntityPath, body: SetParentBody, responses: { 200: EntityRelationshipResponse } },
  async (req, { params: { id }, body: { data } }) => {
    const moved = await setParent(principalOf(req).workspaceId, id, data.target, ['data', 'target', 'id'], req);
    return {
      status: 200,
      body: { data: { type: 'parent' as const, target: entityReference(config.urls, { id: data.target.id, type: moved.parentType! }) } },
    };
  },
);
