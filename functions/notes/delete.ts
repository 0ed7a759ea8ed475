// DELETE /v2/notes/{id} — delete a note with its links, taking their ratings out of the scores.
import { uuidParam } from '#lib/domain/input.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { deleteNote } from '#lib/store/notes.ts';

export const handler = api('deleteNote', async (req) => {
  await deleteNote(principalOf(req).workspaceId, uuidParam(req.params.id, 'id'));
  return { status: 204 };
});
