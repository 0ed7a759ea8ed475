// PATCH /v2/notes/{id} — change a note's fields: `data.fields` (null clears one) or `data.patch`
// (Productboard's field operations). Processed and archived notes still count in the score.
import { config } from '#lib/config.ts';
import { fieldWrite, NOTE_UPDATE_FIELDS } from '#lib/domain/entity-fields.ts';
import { fieldPatch, itemKeyOf, resolvedOps } from '#lib/domain/field-patch.ts';
import { invalid } from '#lib/domain/input.ts';
import { noteReference } from '#lib/domain/note-view.ts';
import { applyPatch } from '#lib/domain/patch.ts';
import { UpdateNoteBody } from '#lib/domain/schemas/note-writes.ts';
import { NotePath, NoteReferenceResponse } from '#lib/domain/schemas/note.ts';
import { api } from '#lib/http/pipeline.ts';
import { ifMatchOf, principalOf } from '#lib/http/request.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { resolveFieldRefs } from '#lib/store/field-refs.ts';
import { updateNote } from '#lib/store/notes.ts';

export const handler = api(
  'updateNote',
  { params: NotePath, body: UpdateNoteBody, responses: { 200: NoteReferenceResponse }, headers: { ifMatch: true } },
  async (req, { params: { id }, body: { data } }) => {
    const ws = principalOf(req).workspaceId;
    if (data.id !== undefined && data.id !== id) invalid(['data', 'id'], `'/data/id' is ${data.id}, not the id in the path (${id}).`);
    const rules = { standard: NOTE_UPDATE_FIELDS, custom: await customFieldCheck(ws, 'textNote'), what: 'a note' };
    const patch = data.patch ? fieldPatch(data.patch, { ...rules, path: ['data', 'patch'] }) : undefined;
    const write = patch?.write ?? fieldWrite(data.fields ?? {}, { ...rules, mode: 'update', path: ['data', 'fields'] });
    const values = await resolveFieldRefs(ws, write);
    const ops = patch && resolvedOps(patch.ops, values);
    const note = await updateNote(ws, id, (current) => ({ values: ops ? applyPatch(current.fields, ops, itemKeyOf) : values }), ifMatchOf(req));
    return { status: 200, body: { data: noteReference(config.urls, note) } };
  },
);
