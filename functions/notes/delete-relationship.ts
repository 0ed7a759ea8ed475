// DELETE /v2/notes/{id}/relationships/{link|customer}/{targetId} — remove a link or the customer.
import { NotFound } from '#lib/domain/errors.ts';
import { NoteRelationshipPath } from '#lib/domain/schemas/note-writes.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { deleteLink, getNote, setNoteCustomer } from '#lib/store/notes.ts';

export const handler = api('deleteNoteRelationship', { params: NoteRelationshipPath, responses: { 204: null } }, async (req, { params }) => {
  const ws = principalOf(req).workspaceId;
  const { id, relationshipType, targetId } = params;
  if (relationshipType === 'link') await deleteLink(ws, id, targetId);
  else {
    const note = await getNote(ws, id);
    if (!note) throw new NotFound('note', id);
    if (note.customer?.id !== targetId) throw new NotFound('customer', targetId, `Note ${id} does not have customer ${targetId}.`);
    await setNoteCustomer(ws, id, null, { onlyIf: targetId });
  }
  return { status: 204 };
});
