// DELETE /v2/entities/{id} — delete an entity with its whole subtree (lib/store/cascade.ts).
import { uuidParam } from '#lib/domain/input.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { deleteEntity } from '#lib/store/cascade.ts';

export const handler = api('deleteEntity', async (req) => {
  await deleteEntity(principalOf(req).workspaceId, uuidParam(req.params.id, 'id'));
  return { status: 204 };
});
