// PUT /v2/notes/{id}/relationships/customer — set the note's customer; its ratings move with it.
import { config } from '#lib/config.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { data, onlyKeys, uuidParam } from '#lib/domain/input.ts';
import { customerTarget } from '#lib/domain/note-input.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { setNoteCustomer } from '#lib/store/notes.ts';

export const handler = api('setNoteCustomer', async (req) => {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const d = data(req.body);
  onlyKeys(d, ['target'], ['data']);
  const t = customerTarget(d.target, ['data', 'target']);
  const note = await setNoteCustomer(ws, id, { id: t.id, type: t.customerType, path: t.path });
  return { status: 200, body: { data: { type: 'customer', target: entityReference(config.baseUrl, note.customer!) } } };
});
