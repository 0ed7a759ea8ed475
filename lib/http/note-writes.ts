// A note created from the body POST /v2/notes takes: the REST handler and the MCP server's
// create_note tool (lib/http/mcp/tools/notes.ts) both create notes through it.
import type * as z from 'zod/mini';
import { fieldWrite, NOTE_FIELDS } from '../domain/entity-fields.ts';
import type { CreateNoteBody } from '../domain/schemas/note-writes.ts';
import { customFieldCheck } from '../store/custom-fields.ts';
import { resolveFieldRefs } from '../store/field-refs.ts';
import { createNote, type NewLink, type NoteItem } from '../store/notes.ts';

export async function createNoteFrom(ws: string, data: z.output<typeof CreateNoteBody>['data']): Promise<NoteItem> {
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
  return createNote(ws, { type: data.type, values, ...(customer ? { customer } : {}), links });
}
