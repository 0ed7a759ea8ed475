// DELETE /v2/notes/{id}/relationships/{link|customer}/{targetId} — remove a link, or the customer.
// For a customer the targetId is not compared, as Productboard documents: any uuid removes it.
import { NotFound } from '#lib/domain/errors.ts';
import { NoteRelationshipPath } from '#lib/domain/schemas/note-writes.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { deleteLink, getNote, setNoteCustomer } from '#lib/store/notes.ts';

export const handler = authedApi(routes.deleteNoteRelationship, { params: NoteRelationshipPath, responses: { 204: null } }, async (req, { params }) => {
  const ws = principalOf(req).workspaceId;
  const { id, targetType, targetId } = params;
  if (targetType === 'link') await deleteLink(ws, id, targetId, req);
  else {
    const note = await getNote(ws, id);
    if (!note) throw new NotFound('note', id);
    if (!note.customer) throw new NotFound('customer', targetId, `Note ${id} has no customer.`);
    await setNoteCustomer(ws, id, null, { scope: req });
  }
  return { status: 204 };
});
