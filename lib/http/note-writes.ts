// A note created from the body POST /v2/notes takes: the REST handler and the MCP server's
// create_note tool (lib/http/mcp/tools/notes.ts) both create notes through it. Its creator is the
// member whose token made the request unless the body names another.
import type * as z from 'zod/mini';
import type { Principal } from '../auth/principal.ts';
import { fieldWrite, NOTE_FIELDS } from '../domain/entity-fields.ts';
import type { CreateNoteBody } from '../domain/schemas/note-writes.ts';
import { customFieldCheck } from '../store/custom-fields.ts';
import { customerTarget } from '../store/customers.ts';
import { resolveFieldRefs } from '../store/field-refs.ts';
import { createNote, type NewLink, type NoteItem } from '../store/notes.ts';

export async function createNoteFrom(principal: Principal, data: z.output<typeof CreateNoteBody>['data']): Promise<NoteItem> {
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
  return createNote(ws, { type: data.type, values, metadata: data.metadata, ...(target ? { customer: target } : {}), links });
}
