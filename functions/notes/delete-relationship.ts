// DELETE /v2/notes/{id}/relationships/{link|customer}/{targetId} — remove a link or the customer.
import { InvalidInput, NotFound, parameter } from '#lib/domain/errors.ts';
import { uuidParam } from '#lib/domain/input.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { deleteLink, getNote, setNoteCustomer } from '#lib/store/notes.ts';

export const handler = api('deleteNoteRelationship', async (req) => {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const kind = req.params.relationshipType;
  if (kind !== 'link' && kind !== 'customer') {
    throw new InvalidInput(`Path parameter 'relationshipType' must be 'link' or 'customer'.`, parameter('relationshipType'));
  }
  const targetId = uuidParam(req.params.targetId, 'targetId');
  if (kind === 'link') await deleteLink(ws, id, targetId);
  else {
    const note = await getNote(ws, id);
    if (!note) throw new NotFound('note', id);
    if (note.customer?.id !== targetId) throw new NotFound('customer', targetId, `Note ${id} does not have customer ${targetId}.`);
    await setNoteCustomer(ws, id, null, { onlyIf: targetId });
  }
  return { status: 204 };
});
