// PATCH /v2/entities/{id} — change an entity's fields (`data.fields`, null clears one, or
// `data.patch`, Productboard's field operations) and its `metadata.source` (merged key by key).
import { config } from '#lib/config.ts';
import { ENTITY_FIELDS, entityFieldCheck, fieldWrite, REFERENCE_FIELDS } from '#lib/domain/entity-fields.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { entityListRuleOf, entityPartsCheckOf, fieldPatch, resolvedOps } from '#lib/domain/field-patch.ts';
import { aType } from '#lib/domain/hierarchy.ts';
import { invalid } from '#lib/domain/input.ts';
import { applyPatch } from '#lib/domain/patch.ts';
import { UpdateEntityBody } from '#lib/domain/schemas/entity-writes.ts';
import { EntityPath } from '#lib/domain/schemas/entity.ts';
import { EntityReferenceResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { ifMatchOf, principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { getEntity } from '#lib/store/entities.ts';
import { updateEntity } from '#lib/store/entity-writes.ts';
import { resolveFieldRefs, resolveReferences, withCurrentRefs } from '#lib/store/field-refs.ts';

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
    const rules = {
      standard: ENTITY_FIELDS[entity.type],
      custom,
      what: aType(entity.type),
      check: entityFieldCheck(entity.type),
      references: REFERENCE_FIELDS,
    };
    const patch = data.patch ? fieldPatch(data.patch, { ...rules, path: ['data', 'patch'] }) : undefined;
    const write = patch?.write ?? fieldWrite(data.fields ?? {}, { ...rules, mode: 'update', path: ['data', 'fields'] });
    const values = await resolveFieldRefs(ws, write);
    const updated = await updateEntity(
      ws,
      id,
      async (current) => {
        // Tags and teams resolve within the write (a new tag value is created with it).
        const refs = await resolveReferences(ws, write.references);
        const resolved = { ...values, ...refs.values };
        if (!patch) return { values: resolved, metadata: data.metadata, items: refs.items };
        const ops = resolvedOps(patch.ops, resolved, refs.opItems);
        // A patch applies to the tags and teams as reads show them now (renamed or deleted since).
        const lists = ops.some((op) => op.field === 'tags' || op.field === 'teams');
        const [now] = lists ? await withCurrentRefs(ws, [current]) : [current];
        return { values: applyPatch(now!.fields, ops, entityListRuleOf, entityPartsCheckOf), metadata: data.metadata, items: refs.items };
      },
      ifMatchOf(req),
      req,
      patch ? () => ['data', 'patch'] : (field) => ['data', 'fields', field],
    );
    return { status: 200, body: { data: entityReference(config.urls, updated) } };
  },
);
