// POST /v2/notes/search — Productboard's body {data?: {search?, filter?, return?}}
// (lib/domain/schemas/note.ts); pageCursor, limit and the deprecated fields[] in the query. The
// cursor is bound to the body's `data` too, so a cursor of one search fails on another.
import { InvalidInput, parameter } from '#lib/domain/errors.ts';
import { fieldsFromBody, fieldsFromQuery } from '#lib/domain/fields.ts';
import { SearchNotesBody, SearchNotesQuery } from '#lib/domain/schemas/note.ts';
import { NoteList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { noteSearchQueryOf } from '#lib/http/list-filters.ts';
import { notesPage } from '#lib/http/note-pages.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(
  routes.searchNotes,
  { query: SearchNotesQuery, body: SearchNotesBody, responses: { 200: NoteList } },
  async (req, { query, body: { data = {} } }) => {
    const ws = principalOf(req).workspaceId;
    if (query['fields[]'] !== undefined && data.return?.fields !== undefined) {
      throw new InvalidInput("Both 'fields[]' and '/data/return/fields' select fields; give one of them ('fields[]' is deprecated).", parameter('fields[]'));
    }
    const selection =
      data.return?.fields !== undefined ? fieldsFromBody(data.return.fields, ['data', 'return', 'fields']) : fieldsFromQuery(query, ['fields[]']);
    const body = await notesPage(req, ws, {
      selection,
      parameters: query,
      body: data,
      filter: () => noteSearchQueryOf(ws, data.filter ?? {}, data.search?.query),
    });
    return { status: 200, body };
  },
);
