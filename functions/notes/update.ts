// PATCH /v2/notes/{id} — change a note's fields (null clears one).
import { config } from '#lib/config.ts';
import { fieldWrite, NOTE_FIELDS } from '#lib/domain/entity-fields.ts';
import { invalid } from '#lib/domain/input.ts';
import { noteReference } from '#lib/domain/note-view.ts';
import { UpdateNoteBody } from '#lib/domain/schemas/note-writes.ts';
import { NotePath, NoteReferenceResponse } from '#lib/domain/schemas/note.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { resolveFieldRefs } from '#lib/store/field-refs.ts';
import { updateNoteFields } from '#lib/store/notes.ts';

export const handler = api(
  'updateNote',
  { params: NotePath, body: UpdateNoteBody, responses: { 200: NoteReferenceResponse } },
  async (req, { params: { id }, body: { data } }) => {
    const ws = principalOf(req).workspaceId;
    if (data.id !== undefined && data.id !== id) invalid(['data', 'id'], `'/data/id' is ${data.id}, not the id in the path (${id}).`);
    const write = fieldWrite(data.fields, { standard: NOTE_FIELDS, mode: 'update', path: ['data', 'fields'], custom: await customFieldCheck(ws, 'textNote'), what: 'a note' });
    const values = await resolveFieldRefs(ws, write);
    await updateNoteFields(ws, id, values);
    return { status: 200, body: { data: noteReference(config.baseUrl, id) } };
  },
);
