// POST /v2/entities/{id}/relationships — body {data: {type? (link), target: {id}}}. link,
// isBlockedBy and isBlocking relate two hierarchy entities (both sides, no effect on the score);
// parent moves the entity under the target, child moves the target under the entity (the move of
// PUT …/relationships/parent, exact for the score).
import { config } from '#lib/config.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { CreateEntityRelationshipBody } from '#lib/domain/schemas/entity-writes.ts';
import { EntityPath } from '#lib/domain/schemas/entity.ts';
import { EntityRelationshipResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { setParent } from '#lib/store/entity-writes.ts';
import { createRelation } from '#lib/store/relations.ts';

const TARGET = ['data', 'target', 'id'];

export const handler = authedApi(
  routes.createEntityRelationship,
  {
    params: EntityPath,
    body: CreateEntityRelationshipBody,
    responses: { 201: EntityRelationshipResponse },
    errors: ['conflict.uniqueViolation'],
    headers: { idempotencyKey: true },
  },
  async (req, { params: { id }, body: { data } }) => {
    const ws = principalOf(req).workspaceId;
    const targetId = data.target.id;
    let targetType;
    if (data.type === 'parent') targetType = (await setParent(ws, id, { id: targetId }, TARGET, req)).parentType!;
    else if (data.type === 'child') targetType = (await setParent(ws, targetId, { id }, TARGET, req)).type;
    else targetType = (await createRelation(ws, id, data.type, targetId, TARGET, req)).targetType;
    return { status: 201, body: { data: { type: data.type, target: entityReference(config.urls, { id: targetId, type: targetType }) } } };
  },
);
