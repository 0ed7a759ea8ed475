// DELETE /v2/notes/{id} — delete a note with its links, taking their ratings out of the scores.
import { NotePath } from '#lib/domain/schemas/note.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { ifMatchOf, principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { deleteNote } from '#lib/store/notes.ts';

export const handler = authedApi(routes.deleteNote, { params: NotePath, responses: { 204: null }, headers: { ifMatch: true } }, async (req, { params }) => {
  await deleteNote(principalOf(req).workspaceId, params.id, ifMatchOf(req), req);
  return { status: 204 };
});
