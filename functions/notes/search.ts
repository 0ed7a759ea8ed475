// POST /v2/notes/search — Productboard's body {data?: {search?, filter?, return?}}
// (lib/domain/schemas/note.ts); pageCursor, limit and the deprecated fields[] in the query. The
// cursor is bound to the body's `data` too, so a cursor of one search fails on another.
import { NOTE_TYPES } from '#lib/domain/configurations.ts';
import { InvalidInput, parameter } from '#lib/domain/errors.ts';
import { checkKnownFields, fieldsFromBody, fieldsFromQuery } from '#lib/domain/fields.ts';
import { NoteList, SearchNotesBody, SearchNotesQuery } from '#lib/domain/schemas/note.ts';
import { noteSearchQueryOf } from '#lib/http/list-filters.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { api } from '#lib/http/pipeline.ts';
import { noteRecords } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import { configuredFields } from '#lib/store/custom-fields.ts';
import { notesAfter } from '#lib/store/pages.ts';

export const handler = api('searchNotes', { query: SearchNotesQuery, body: SearchNotesBody, responses: { 200: NoteList } }, async (req, { query, body: { data = {} } }) => {
  const ws = principalOf(req).workspaceId;
  if (query['fields[]'] !== undefined && data.return?.fields !== undefined) {
    throw new InvalidInput("Both 'fields[]' and '/data/return/fields' select fields; give one of them ('fields[]' is deprecated).", parameter('fields[]'));
  }
  const selection = data.return?.fields !== undefined ? fieldsFromBody(data.return.fields, ['data', 'return', 'fields']) : fieldsFromQuery(query, ['fields[]']);
  const configured = await configuredFields(ws, NOTE_TYPES);
  checkKnownFields(selection, configured);
  const search = await noteSearchQueryOf(ws, data.filter ?? {}, data.search?.query);
  const page = await pageOf(req, query, { body: data });
  const slice = await notesAfter(ws, search, stringKey(page.after), page.limit + 1);
  const body = await page.envelope(
    slice.items,
    (item) => item.position,
    (rows) => noteRecords(ws, rows.map(({ record }) => record), selection, configured),
    slice.resume,
  );
  return { status: 200, body };
});
