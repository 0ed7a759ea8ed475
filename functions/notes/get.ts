// GET /v2/notes/{id} — one note, `fields` or `fields[]` selecting its fields.
import { NotFound } from '#lib/domain/errors.ts';
import { etagOf } from '#lib/domain/etag.ts';
import { fieldsFromQuery, NOTE_FIELDS_PARAMS } from '#lib/domain/fields.ts';
import { GetNoteQuery, NotePath } from '#lib/domain/schemas/note.ts';
import { NoteResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { noteResource } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { getNote, noteVersion } from '#lib/store/notes.ts';

export const handler = authedApi(
  routes.getNote,
  { params: NotePath, query: GetNoteQuery, responses: { 200: NoteResponse }, headers: { etag: true } },
  async (req, { params: { id }, query }) => {
    const ws = principalOf(req).workspaceId;
    const selection = fieldsFromQuery(query, NOTE_FIELDS_PARAMS);
    const note = await getNote(ws, id, req.preread);
    if (!note) throw new NotFound('note', id);
    return { status: 200, body: { data: await noteResource(ws, note, selection) }, headers: { ETag: etagOf(noteVersion(note)) } };
  },
);
