// GET /v2/entities/{id}/relationships — `type` (parent|child), `pageCursor`, `limit`: the parent
// first, then the children oldest first.
import { InvalidInput, NotFound, parameter } from '#lib/domain/errors.ts';
import { uuidParam } from '#lib/domain/input.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { api } from '#lib/http/pipeline.ts';
import { relationshipView } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import { getEntity } from '#lib/store/entities.ts';
import { entityRelationshipsAfter } from '#lib/store/pages.ts';

const KINDS = ['parent', 'child'] as const;

export const handler = api('listEntityRelationships', async (req) => {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const type = req.query.get('type');
  if (type !== undefined && !(KINDS as readonly string[]).includes(type)) {
    throw new InvalidInput(`The type filter must be one of ${KINDS.join(', ')}; got '${type.slice(0, 100)}'.`, parameter('type'));
  }
  const entity = await getEntity(ws, id);
  if (!entity) throw new NotFound('entity', id);
  const page = await pageOf(req);
  const rows = await entityRelationshipsAfter(ws, entity, type as (typeof KINDS)[number] | undefined, stringKey(page.after), page.limit + 1);
  return { status: 200, body: await page.envelope(rows, (r) => r.position, (items) => items.map(relationshipView)) };
});
