// PATCH /v2/entities/{id} — change an entity's fields (`data.fields`, null clears one, or
// `data.patch`, Productboard's field operations) and its `metadata.source` (merged key by key).
import { config } from '#lib/config.ts';
import { ENTITY_FIELDS, fieldWrite } from '#lib/domain/entity-fields.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { fieldPatch, listRuleOf, resolvedOps } from '#lib/domain/field-patch.ts';
import { aType } from '#lib/domain/hierarchy.ts';
import { invalid } from '#lib/domain/input.ts';
import { applyPatch } from '#lib/domain/patch.ts';
import { UpdateEntityBody } from '#lib/domain/schemas/entity-writes.ts';
import { EntityPath } from '#lib/domain/schemas/entity.ts';
import { EntityReferenceResponse } from '#lib/domain/schemas/responses.ts';
import { statusCheck } from '#lib/domain/statuses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { ifMatchOf, principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { getEntity } from '#lib/store/entities.ts';
import { updateEntity } from '#lib/store/entity-writes.ts';
import { resolveFieldRefs } from '#lib/store/field-refs.ts';

export const handler = authedApi(
  routes.updateEntity,
  { params: EntityPath, body: UpdateEntityBody, responses: { 200: EntityReferenceResponse }, headers: { ifMatch: true } },
  async (req, { params: { id }, body: { data } }) => {
    const ws = principalOf(req).workspaceId;
    // The type decides which fields exist, so the entity is read before its fields are judged.
    const entity = await getEntity(ws, id);
    if (!entity) throw new NotFound('entity', id);
    if (data.type !== undefined && data.type !== entity.type) invalid(['data', 'type'], `Entity ${id} is ${aType(entity.type)}; its type cannot change.`);
    if (data.id !== undefined && data.id !== id) invalid(['data', 'id'], `'/data/id' is ${data.id}, not the id in the path (${id}).`);
    const custom = await customFieldCheck(ws, entity.type);
    const rules = { standard: ENTITY_FIELDS[entity.type], custom, what: aType(entity.type), check: statusCheck(entity.type) };
    const patch = data.patch ? fieldPatch(data.patch, { ...rules, path: ['data', 'patch'] }) : undefined;
    const write = patch?.write ?? fieldWrite(data.fields ?? {}, { ...rules, mode: 'update', path: ['data', 'fields'] });
    const values = await resolveFieldRefs(ws, write);
    const ops = patch && resolvedOps(patch.ops, values);
    const updated = await updateEntity(ws, id, (current) => ({ values: ops ? applyPatch(current.fields, ops, listRuleOf) : values, metadata: data.metadata }), ifMatchOf(req), req);
    return { status: 200, body: { data: entityReference(config.urls, updated) } };
  },
);
