import { config } from '#lib/config.ts';
import { uuidParam } from '#lib/domain/input.ts';
import { ApiError } from '#lib/http/errors.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { readScore } from '#lib/store/score.ts';

export const handler = api('getCustomerScore', async (req) => {
  const id = uuidParam(req.params.id, 'id');
  const score = await readScore(principalOf(req).workspaceId, id);
  if (score === undefined) throw new ApiError('resource.notFound', `No product hierarchy entity ${id} in this workspace.`);
  return {
    status: 200,
    body: { data: { id, type: 'customerScore', fields: { score }, links: { self: `${config.baseUrl}/entities/${id}/score` } } },
  };
});
