import { config } from '#lib/config.ts';
import { entityView } from '#lib/domain/entity-view.ts';
import { uuidParam } from '#lib/domain/input.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { getEntity } from '#lib/store/entities.ts';
import { notFound } from '#lib/store/entity-writes.ts';

export const handler = api('getEntity', async (req) => {
  const id = uuidParam(req.params.id, 'id');
  const entity = await getEntity(principalOf(req).workspaceId, id);
  if (!entity) throw notFound('entity', id);
  return { status: 200, body: { data: entityView(config.baseUrl, entity) } };
});
