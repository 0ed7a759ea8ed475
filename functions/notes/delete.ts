// DELETE /v2/notes/{id} — delete a note with its links, taking their ratings out of the scores.
import { NotePath } from '#lib/domain/schemas/note.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { deleteNote } from '#lib/store/notes.ts';

export const handler = api('deleteNote', { params: NotePath, responses: { 204: null } }, async (req, { params }) => {
  await deleteNote(principalOf(req).workspaceId, params.id);
  return { status: 204 };
});
