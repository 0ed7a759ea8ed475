import { uuidParam } from '#lib/domain/input.ts';
import { ApiError } from '#lib/http/errors.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { notFound } from '#lib/store/entity-writes.ts';
import { deleteLink, getNote, setNoteCustomer } from '#lib/store/notes.ts';

export const handler = api('deleteNoteRelationship', async (req) => {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const kind = req.params.relationshipType;
  if (kind !== 'link' && kind !== 'customer') {
    throw new ApiError('request.invalid', `Path parameter 'relationshipType' must be 'link' or 'customer'.`, { source: { parameter: 'relationshipType' } });
  }
  const targetId = uuidParam(req.params.targetId, 'targetId');
  if (kind === 'link') await deleteLink(ws, id, targetId);
  else {
    const note = await getNote(ws, id);
    if (!note) throw notFound('note', id);
    if (note.customer?.id !== targetId) throw new ApiError('resource.notFound', `Note ${id} does not have customer ${targetId}.`);
    await setNoteCustomer(ws, id, null, { onlyIf: targetId });
  }
  return { status: 204 };
});
