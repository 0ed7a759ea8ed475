// POST /v2/notes — create a note, optionally with its customer (by id, or a user by e-mail), links
// and metadata.source. Its creator is the member whose token made the request unless the body
// names another.
import { config } from '#lib/config.ts';
import { fieldWrite, NOTE_FIELDS } from '#lib/domain/entity-fields.ts';
import { noteReference } from '#lib/domain/note-view.ts';
import { CreateNoteBody } from '#lib/domain/schemas/note-writes.ts';
import { NoteReferenceResponse } from '#lib/domain/schemas/note.ts';
import { api } from '#lib/http/pipeline.ts';
import { idempotentCreate, principalOf } from '#lib/http/request.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { customerTarget } from '#lib/store/customers.ts';
import { resolveFieldRefs } from '#lib/store/field-refs.ts';
import { createNote, type NewLink } from '#lib/store/notes.ts';

export const handler = api(
  'createNote',
  { body: CreateNoteBody, responses: { 201: NoteReferenceResponse }, errors: ['resource.notFound'], headers: { idempotencyKey: true } },
  async (req, { body: { data } }) => {
    const principal = principalOf(req);
    const ws = principal.workspaceId;
    const custom = await customFieldCheck(ws, data.type);
    const write = fieldWrite(data.fields, { standard: NOTE_FIELDS, mode: 'create', path: ['data', 'fields'], custom, what: 'a note' });
    const links: NewLink[] = [];
    let customer: Parameters<typeof customerTarget>[1] | undefined;
    let customerPath: Array<string | number> = [];
    (data.relationships ?? []).forEach((rel, i) => {
      const at = ['data', 'relationships', i, 'target'];
      if (rel.type === 'customer') [customer, customerPath] = [rel.target, at];
      else links.push({ entityId: rel.target.id, entityType: rel.target.type, importance: rel.importance, path: [...at, 'id'] });
    });
    const values = await resolveFieldRefs(ws, write);
    values.creator ??= { id: principal.memberId, email: principal.email };
    const target = customer && (await customerTarget(ws, customer, customerPath));
    const note = await createNote(ws, { type: data.type, values, metadata: data.metadata, ...(target ? { customer: target } : {}), links }, idempotentCreate(req));
    return { status: 201, body: { data: noteReference(config.urls, note) } };
  },
);
