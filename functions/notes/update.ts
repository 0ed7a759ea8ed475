// PATCH /v2/notes/{id} — change a note's fields (null clears one).
import { config } from '#lib/config.ts';
import { parseNoteFields } from '#lib/domain/entity-fields.ts';
import { data, invalid, onlyKeys, uuidParam } from '#lib/domain/input.ts';
import { NOTE_TYPES } from '#lib/domain/note-input.ts';
import { noteReference } from '#lib/domain/note-view.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { resolveFieldRefs } from '#lib/store/field-refs.ts';
import { updateNoteFields } from '#lib/store/notes.ts';

export const handler = api('updateNote', async (req) => {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const d = data(req.body);
  onlyKeys(d, ['fields', 'type', 'id'], ['data']);
  if (d.type !== undefined && !(typeof d.type === 'string' && NOTE_TYPES[d.type])) invalid(['data', 'type'], `A note's type is 'textNote'.`);
  if (d.id !== undefined && d.id !== id) invalid(['data', 'id'], `'data/id' does not match the path.`);
  if (d.fields === undefined) invalid(['data', 'fields'], "'fields' is required.");
  const parsed = parseNoteFields(d.fields, 'update', ['data', 'fields'], await customFieldCheck(ws, 'textNote'));
  const values = await resolveFieldRefs(ws, parsed);
  await updateNoteFields(ws, id, values);
  return { status: 200, body: { data: noteReference(config.baseUrl, id) } };
});
