// POST /v2/notes — create a note, optionally with its customer and links.
import { config } from '#lib/config.ts';
import { fieldWrite, NOTE_FIELDS } from '#lib/domain/entity-fields.ts';
import { noteReference } from '#lib/domain/note-view.ts';
import { CreateNoteBody } from '#lib/domain/schemas/note-writes.ts';
import { NoteReferenceResponse } from '#lib/domain/schemas/note.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { resolveFieldRefs } from '#lib/store/field-refs.ts';
import { createNote, type NewLink } from '#lib/store/notes.ts';

export const handler = api(
  'createNote',
  { body: CreateNoteBody, responses: { 201: NoteReferenceResponse }, errors: ['resource.notFound'] },
  async (req, { body: { data } }) => {
    const ws = principalOf(req).workspaceId;
    const custom = await customFieldCheck(ws, data.type);
    const write = fieldWrite(data.fields, { standard: NOTE_FIELDS, mode: 'create', path: ['data', 'fields'], custom, what: 'a note' });
    const links: NewLink[] = [];
    let customer: { id: string; type?: string | undefined; path: Array<string | number> } | undefined;
    (data.relationships ?? []).forEach((rel, i) => {
      const at = ['data', 'relationships', i, 'target'];
      if (rel.type === 'customer') customer = { ...rel.target, path: at };
      else links.push({ entityId: rel.target.id, entityType: rel.target.type, importance: rel.importance, path: [...at, 'id'] });
    });
    const values = await resolveFieldRefs(ws, write);
    const note = await createNote(ws, { type: data.type, values, ...(customer ? { customer } : {}), links });
    return { status: 201, body: { data: noteReference(config.baseUrl, note.id) } };
  },
);
