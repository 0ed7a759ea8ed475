// GET /v2/notes — `type`/`type[]`, `fields` or `fields[]` (both spellings), Productboard's filters
// (lib/http/list-filters.ts), `pageCursor`, `limit`; oldest first.
import { NOTE_TYPES } from '#lib/domain/configurations.ts';
import { checkKnownFields, fieldsFromQuery, NOTE_FIELDS_PARAMS } from '#lib/domain/fields.ts';
import { ListNotesQuery, NoteList } from '#lib/domain/schemas/note.ts';
import { noteQueryOf } from '#lib/http/list-filters.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { api } from '#lib/http/pipeline.ts';
import { noteRecords } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import { configuredFields } from '#lib/store/custom-fields.ts';
import { notesAfter } from '#lib/store/pages.ts';

export const handler = api('listNotes', { query: ListNotesQuery, responses: { 200: NoteList } }, async (req, { query }) => {
  const ws = principalOf(req).workspaceId;
  const selection = fieldsFromQuery(query, NOTE_FIELDS_PARAMS);
  const configured = await configuredFields(ws, NOTE_TYPES);
  checkKnownFields(selection, configured);
  const page = await pageOf(req, query);
  const slice = await notesAfter(ws, await noteQueryOf(ws, query), stringKey(page.after), page.limit + 1);
  const body = await page.envelope(
    slice.items,
    (item) => item.position,
    (rows) => noteRecords(ws, rows.map(({ record }) => record), selection, configured),
    slice.resume,
  );
  return { status: 200, body };
});
