// GET /v2/notes — `type`/`type[]`, `fields` or `fields[]` (both spellings), Productboard's filters
// (lib/http/list-filters.ts), `pageCursor`, `limit`; newest first.
import { fieldsFromQuery, NOTE_FIELDS_PARAMS } from '#lib/domain/fields.ts';
import { ListNotesQuery } from '#lib/domain/schemas/note.ts';
import { NoteList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { noteQueryOf } from '#lib/http/list-filters.ts';
import { notesPage } from '#lib/http/note-pages.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(routes.listNotes, { query: ListNotesQuery, responses: { 200: NoteList } }, async (req, { query }) => {
  const ws = principalOf(req).workspaceId;
  const selection = fieldsFromQuery(query, NOTE_FIELDS_PARAMS);
  const body = await notesPage(req, ws, { selection, parameters: query, filter: () => noteQueryOf(ws, query) });
  return { status: 200, body };
});
