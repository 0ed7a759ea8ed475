// PATCH /v2/entities/{id} — change an entity's fields (null clears one).
import { config } from '#lib/config.ts';
import { parseEntityFields } from '#lib/domain/entity-fields.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { data, invalid, onlyKeys, uuidParam } from '#lib/domain/input.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { getEntity } from '#lib/store/entities.ts';
import { updateEntityFields } from '#lib/store/entity-writes.ts';
import { resolveFieldRefs } from '#lib/store/field-refs.ts';

export const handler = api('updateEntity', async (req) => {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const d = data(req.body);
  onlyKeys(d, ['fields', 'type', 'id'], ['data']);
  // The type decides which fields exist, so the entity is read before the body's fields are checked.
  const entity = await getEntity(ws, id);
  if (!entity) throw new NotFound('entity', id);
  if (d.type !== undefined && d.type !== entity.type) invalid(['data', 'type'], `Entity ${id} is a ${entity.type}; its type cannot change.`);
  if (d.id !== undefined && d.id !== id) invalid(['data', 'id'], `'data/id' does not match the path.`);
  if (d.fields === undefined) invalid(['data', 'fields'], "'fields' is required.");
  const parsed = parseEntityFields(entity.type, d.fields, 'update', ['data', 'fields'], await customFieldCheck(ws, entity.type));
  const values = await resolveFieldRefs(ws, parsed);
  await updateEntityFields(ws, id, values);
  return { status: 200, body: { data: entityReference(config.baseUrl, entity) } };
});
