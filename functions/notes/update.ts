// PATCH /v2/notes/{id} — change a note's fields: `data.fields` (null clears one) or `data.patch`
// (Productboard's field operations). Processed and archived notes still count in the score.
import { config } from '#lib/config.ts';
import { fieldWrite, NOTE_UPDATE_FIELDS } from '#lib/domain/entity-fields.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { fieldPatch, noteListRuleOf, resolvedOps } from '#lib/domain/field-patch.ts';
import { invalid } from '#lib/domain/input.ts';
import { checkNoteContent, checkNotePatch, checkSameNoteType } from '#lib/domain/note-content.ts';
import { noteReference } from '#lib/domain/note-view.ts';
import { applyPatch } from '#lib/domain/patch.ts';
import { UpdateNoteBody } from '#lib/domain/schemas/note-writes.ts';
import { NotePath } from '#lib/domain/schemas/note.ts';
import { NoteReferenceResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { ifMatchOf, principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { resolveFieldRefs } from '#lib/store/field-refs.ts';
import { getNote, updateNote } from '#lib/store/notes.ts';

export const handler = authedApi(
  routes.updateNote,
  { params: NotePath, body: UpdateNoteBody, responses: { 200: NoteReferenceResponse }, headers: { ifMatch: true } },
  async (req, { params: { id }, body: { data } }) => {
    const ws = principalOf(req).workspaceId;
    // The type decides the content's shape and the custom fields, so the note (read with the
    // credential) is read before its fields are judged; a note's type never changes.
    const note = await getNote(ws, id, req.preread);
    if (!note) throw new NotFound('note', id);
    checkSameNoteType(note, data.type, ['data', 'type']);
    if (data.id !== undefined && data.id !== id) invalid(['data', 'id'], `'/data/id' is ${data.id}, not the id in the path (${id}).`);
    const rules = { standard: NOTE_UPDATE_FIELDS, custom: await customFieldCheck(ws, note.type), what: 'a note' };
    const patch = data.patch ? fieldPatch(data.patch, { ...rules, path: ['data', 'patch'] }) : undefined;
    if (patch) checkNotePatch(note.type, patch.ops);
    else checkNoteContent(note.type, data.fields?.content, ['data', 'fields', 'content']);
    const write = patch?.write ?? fieldWrite(data.fields ?? {}, { ...rules, mode: 'update', path: ['data', 'fields'] });
    const values = await resolveFieldRefs(ws, write);
    const ops = patch && resolvedOps(patch.ops, values);
    const updated = await updateNote(ws, id, (current) => ({ values: ops ? applyPatch(current.fields, ops, noteListRuleOf) : values }), ifMatchOf(req), req);
    return { status: 200, body: { data: noteReference(config.urls, updated) } };
  },
);
