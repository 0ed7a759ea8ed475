// PUT /v2/entities/{id}/relationships/parent — move an entity (and its subtree) under another parent.
import { config } from '#lib/config.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { data, object, onlyKeys, uuid, uuidParam } from '#lib/domain/input.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { setParent } from '#lib/store/entity-writes.ts';

export const handler = api('setEntityParent', async (req) => {
  const id = uuidParam(req.params.id, 'id');
  const d = data(req.body);
  onlyKeys(d, ['target'], ['data']);
  const target = object(d.target, ['data', 'target']);
  onlyKeys(target, ['id', 'type'], ['data', 'target']);
  const parentId = uuid(target.id, ['data', 'target', 'id']);
  const moved = await setParent(principalOf(req).workspaceId, id, parentId, ['data', 'target', 'id']);
  return {
    status: 200,
    body: { data: { type: 'parent', target: entityReference(config.baseUrl, { id: parentId, type: moved.parentType! }) } },
  };
});
