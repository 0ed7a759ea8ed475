// GET /v2/entities/{id}/relationships — `type` (parent|child), `pageCursor`, `limit`: the parent
// first, then the children oldest first.
import { ApiError } from '#lib/http/errors.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { api } from '#lib/http/pipeline.ts';
import { relationshipView } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import { entityRelationshipsAfter, getTenantItem } from '#lib/store/pages.ts';
import { keys } from '#lib/store/keys.ts';

const KINDS = ['parent', 'child'] as const;

export const handler = api('listEntityRelationships', async (req) => {
  const ws = principalOf(req).workspaceId;
  const type = req.query.get('type');
  if (type !== undefined && !(KINDS as readonly string[]).includes(type)) {
    throw new ApiError('request.invalid', `The type filter must be one of ${KINDS.join(', ')}; got '${type.slice(0, 100)}'.`, { source: { parameter: 'type' } });
  }
  const entity = await getTenantItem(keys.entity(ws, req.params.id!), 'entity');
  if (!entity) throw new ApiError('resource.notFound', `No entity ${req.params.id!.slice(0, 100)} in this workspace.`);
  const page = await pageOf(req);
  const rows = await entityRelationshipsAfter(ws, entity as { id: string }, type as (typeof KINDS)[number] | undefined, stringKey(page.after), page.limit + 1);
  return { status: 200, body: await page.envelope(rows, (r) => r.key, (items) => items.map(relationshipView)) };
});
