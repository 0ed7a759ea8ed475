// GET /v2/notes/{id} — one note, `fields` or `fields[]` selecting its fields.
import { NotFound } from '#lib/domain/errors.ts';
import { fieldsFromQuery, NOTE_FIELDS_PARAMS } from '#lib/domain/fields.ts';
import { uuidParam } from '#lib/domain/input.ts';
import { api } from '#lib/http/pipeline.ts';
import { noteResource } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import { getNote } from '#lib/store/notes.ts';

export const handler = api('getNote', async (req) => {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const selection = fieldsFromQuery(req.query, NOTE_FIELDS_PARAMS);
  const note = await getNote(ws, id);
  if (!note) throw new NotFound('note', id);
  return { status: 200, body: { data: await noteResource(ws, note, selection) } };
});
