// DELETE /v2/notes/{id} — delete a note with its links, taking their ratings out of the scores, then
// its comments. A note already gone (404) still loses comments left by a delete cut short.
import { isDomainError, NotFound } from '#lib/domain/errors.ts';
import { NotePath } from '#lib/domain/schemas/note.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { ifMatchOf, principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { removeNoteComments } from '#lib/store/comments.ts';
import { deleteNote } from '#lib/store/notes.ts';

export const handler = authedApi(routes.deleteNote, { params: NotePath, responses: { 204: null }, headers: { ifMatch: true } }, async (req, { params }) => {
  const ws = principalOf(req).workspaceId;
  try {
    await deleteNote(ws, params.id, ifMatchOf(req), req);
  } catch (err) {
    if (isDomainError(err) && err.code === NotFound.code) await removeNoteComments(ws, params.id);
    throw err;
  }
  await removeNoteComments(ws, params.id);
  return { status: 204 };
});
