// POST /v2/notes — create a note, optionally with its customer and links.
import { config } from '#lib/config.ts';
import { parseNoteFields } from '#lib/domain/entity-fields.ts';
import { array, data, invalid, onlyKeys } from '#lib/domain/input.ts';
import { NOTE_TYPES, relationship } from '#lib/domain/note-input.ts';
import { noteReference } from '#lib/domain/note-view.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { resolveFieldRefs } from '#lib/store/field-refs.ts';
import { createNote, type NewLink } from '#lib/store/notes.ts';

export const handler = api('createNote', async (req) => {
  const ws = principalOf(req).workspaceId;
  const d = data(req.body);
  onlyKeys(d, ['type', 'fields', 'relationships'], ['data']);
  const type = typeof d.type === 'string' ? NOTE_TYPES[d.type] : undefined;
  if (!type) invalid(['data', 'type'], `'type' must be 'textNote' (or its alias 'simple').`);
  const parsed = parseNoteFields(d.fields ?? {}, 'create', ['data', 'fields'], await customFieldCheck(ws, type));
  const links: NewLink[] = [];
  let customer: { id: string; type?: string | undefined; path: (string | number)[] } | undefined;
  if (d.relationships !== undefined) {
    array(d.relationships, ['data', 'relationships']).forEach((r, i) => {
      const rel = relationship(r, ['data', 'relationships', i]);
      if (rel.type === 'customer') {
        if (customer) invalid(['data', 'relationships', i], 'A note has at most one customer.');
        customer = { id: rel.id, type: rel.customerType, path: [...rel.path] };
      } else {
        if (links.some((l) => l.entityId === rel.entityId)) invalid(rel.path, `Entity ${rel.entityId} is linked twice.`);
        links.push({ entityId: rel.entityId, importance: rel.importance, path: rel.path });
      }
    });
  }
  const values = await resolveFieldRefs(ws, parsed);
  const note = await createNote(ws, { type, values, ...(customer ? { customer } : {}), links });
  return { status: 201, body: { data: noteReference(config.baseUrl, note.id) } };
});
