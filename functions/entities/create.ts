// POST /v2/entities — create a hierarchy or customer entity, optionally under a parent.
import { config } from '#lib/config.ts';
import { parseEntityFields } from '#lib/domain/entity-fields.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { ENTITY_TYPES, isEntityType } from '#lib/domain/hierarchy.ts';
import { array, data, invalid, object, onlyKeys, uuid } from '#lib/domain/input.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { createEntity } from '#lib/store/entity-writes.ts';
import { resolveFieldRefs } from '#lib/store/field-refs.ts';

export const handler = api('createEntity', async (req) => {
  const ws = principalOf(req).workspaceId;
  const d = data(req.body);
  onlyKeys(d, ['type', 'fields', 'relationships'], ['data']);
  if (!isEntityType(d.type)) invalid(['data', 'type'], `'type' must be one of ${ENTITY_TYPES.join(', ')}.`);
  const parsed = parseEntityFields(d.type, d.fields ?? {}, 'create', ['data', 'fields'], await customFieldCheck(ws, d.type));
  let parentId: string | undefined;
  let parentPath = ['data', 'relationships', 0, 'target', 'id'] as (string | number)[];
  if (d.relationships !== undefined) {
    const rels = array(d.relationships, ['data', 'relationships']);
    rels.forEach((r, i) => {
      const rel = object(r, ['data', 'relationships', i]);
      onlyKeys(rel, ['type', 'target'], ['data', 'relationships', i]);
      if (rel.type !== 'parent') invalid(['data', 'relationships', i, 'type'], `Only a 'parent' relationship can be given on create.`);
      if (parentId !== undefined) invalid(['data', 'relationships', i], 'Only one parent can be given.');
      const target = object(rel.target, ['data', 'relationships', i, 'target']);
      onlyKeys(target, ['id', 'type'], ['data', 'relationships', i, 'target']);
      parentPath = ['data', 'relationships', i, 'target', 'id'];
      parentId = uuid(target.id, parentPath);
    });
  }
  const values = await resolveFieldRefs(ws, parsed);
  const entity = await createEntity(ws, { type: d.type, values, parentId, parentPath });
  return { status: 201, body: { data: entityReference(config.baseUrl, entity) } };
});
