// POST /v2/notes/{id}/relationships — link the note to an entity (409 if linked) or set its customer.
import { config } from '#lib/config.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { data, uuidParam } from '#lib/domain/input.ts';
import { relationship } from '#lib/domain/note-input.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { setNoteCustomer, upsertLink } from '#lib/store/notes.ts';

export const handler = api('createNoteRelationship', async (req) => {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const rel = relationship(data(req.body), ['data']);
  if (rel.type === 'link') {
    const { link } = await upsertLink(ws, id, rel.entityId, rel.importance, { create: true, path: rel.path });
    return {
      status: 201,
      body: { data: { type: 'link', target: entityReference(config.baseUrl, { id: link.entityId, type: link.entityType }), importance: link.importance } },
    };
  }
  const note = await setNoteCustomer(ws, id, { id: rel.id, type: rel.customerType, path: rel.path });
  return { status: 201, body: { data: { type: 'customer', target: entityReference(config.baseUrl, note.customer!) } } };
});
