// One page of notes as GET /v2/notes and POST /v2/notes/search answer it: the selected fields
// checked against the note types' configurations, the keyset read of lib/store/pages.ts (newest
// first, its cursors bound to that order), and each note's record with its inline relationships.
import { pageOf, stringKey, type PageParameters } from './pagination.ts';
import { noteRecords } from './records.ts';
import type { ApiRequest } from './request.ts';
import { NOTE_TYPES } from '../domain/configurations.ts';
import { checkKnownFields, type FieldSelection } from '../domain/fields.ts';
import { fieldCatalog } from '../store/custom-fields.ts';
import { NOTE_LIST_ORDER, notesAfter, type NoteQuery } from '../store/pages.ts';
import { goneIn } from '../store/tombstones.ts';

/**
 * `filter` runs once the page's cursor is accepted (so a bad cursor is reported before a filter's
 * reads); `body`, when the operation has one, binds the cursor to it.
 */
export async function notesPage(
  req: ApiRequest,
  ws: string,
  request: { selection: FieldSelection; parameters: PageParameters; body?: unknown; filter: () => Promise<NoteQuery> },
) {
  const catalog = await fieldCatalog(ws, NOTE_TYPES);
  checkKnownFields(request.selection, catalog.configured);
  const page = await pageOf(req, request.parameters, { order: NOTE_LIST_ORDER, ...(request.body === undefined ? {} : { body: request.body }) });
  // The entities being deleted, which the notes' links must not show, are read beside the page.
  const gone = goneIn(ws);
  const filter = await request.filter();
  const [slice] = await Promise.all([notesAfter(ws, filter, stringKey(page.after), page.limit + 1, gone), gone()]);
  return page.envelope(slice, (records) => noteRecords(ws, records, request.selection, catalog, gone));
}
