// GET /v2/notes/{id}/relationships — `type` (customer|link), `pageCursor`, `limit`: the customer
// first, then the links (by entity id).
import { ApiError } from '#lib/http/errors.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { api } from '#lib/http/pipeline.ts';
import { noteRelationshipView } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import { keys } from '#lib/store/keys.ts';
import { getTenantItem, noteRelationshipsAfter } from '#lib/store/pages.ts';

const KINDS = ['customer', 'link'] as const;

export const handler = api('listNoteRelationships', async (req) => {
  const ws = principalOf(req).workspaceId;
  const type = req.query.get('type');
  if (type !== undefined && !(KINDS as readonly string[]).includes(type)) {
    throw new ApiError('request.invalid', `The type filter must be one of ${KINDS.join(', ')}; got '${type.slice(0, 100)}'.`, { source: { parameter: 'type' } });
  }
  const note = await getTenantItem(keys.note(ws, req.params.id!), 'note');
  if (!note) throw new ApiError('resource.notFound', `No note ${req.params.id!.slice(0, 100)} in this workspace.`);
  const page = await pageOf(req);
  const rows = await noteRelationshipsAfter(ws, note, type as (typeof KINDS)[number] | undefined, stringKey(page.after), page.limit + 1);
  return { status: 200, body: await page.envelope(rows, (r) => r.key, (items) => items.map(noteRelationshipView)) };
});
