// GET /v2/notes/{id}/relationships — `type` (customer|link), `pageCursor`, `limit`: the customer
// first, then the links (by entity id).
import { InvalidInput, NotFound, parameter } from '#lib/domain/errors.ts';
import { uuidParam } from '#lib/domain/input.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { api } from '#lib/http/pipeline.ts';
import { noteRelationshipView } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import { getNote } from '#lib/store/notes.ts';
import { noteRelationshipsAfter } from '#lib/store/pages.ts';

const KINDS = ['customer', 'link'] as const;

export const handler = api('listNoteRelationships', async (req) => {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const type = req.query.get('type');
  if (type !== undefined && !(KINDS as readonly string[]).includes(type)) {
    throw new InvalidInput(`The type filter must be one of ${KINDS.join(', ')}; got '${type.slice(0, 100)}'.`, parameter('type'));
  }
  const note = await getNote(ws, id);
  if (!note) throw new NotFound('note', id);
  const page = await pageOf(req);
  const rows = await noteRelationshipsAfter(ws, note, type as (typeof KINDS)[number] | undefined, stringKey(page.after), page.limit + 1);
  return { status: 200, body: await page.envelope(rows, (r) => r.position, (items) => items.map(noteRelationshipView)) };
});
