// A note created from the body POST /v2/notes takes: the REST handler and the MCP server's
// create_note tool (lib/http/mcp/tools/notes.ts) both create notes through it. Its creator is the
// member whose token made the request unless the body names another.
import type * as z from 'zod/mini';
import type { Principal } from '../auth/principal.ts';
import { customValueCheck } from '../domain/configurations.ts';
import { fieldWrite, NOTE_FIELDS, type FieldWrite } from '../domain/entity-fields.ts';
import { isUuid } from '../domain/input.ts';
import { checkNoteContent } from '../domain/note-content.ts';
import type { CreateNoteBody } from '../domain/schemas/note-writes.ts';
import { outcome, settle } from '../settle.ts';
import { customFieldCheck } from '../store/custom-fields.ts';
import { customerTarget } from '../store/customers.ts';
import { resolveMembers } from '../store/field-refs.ts';
import { createNote, readAheadForNote, type NewLink, type NoteItem } from '../store/notes.ts';

type NoteData = z.output<typeof CreateNoteBody>['data'];

/**
 * The member fields (owner, creator) the body names, known before the custom-field configuration
 * is: they are standard fields, so a pass that accepts every custom field finds the same ones.
 * When that pass refuses the fields, the real one refuses them too, and no member is needed.
 */
function namedMembers(fields: NoteData['fields']): FieldWrite['members'] {
  try {
    return fieldWrite(fields, { standard: NOTE_FIELDS, mode: 'create', path: ['data', 'fields'], custom: (_id, value) => value, what: 'a note' }).members;
  } catch {
    return [];
  }
}

export async function createNoteFrom(principal: Principal, data: NoteData): Promise<NoteItem> {
  const ws = principal.workspaceId;
  checkNoteContent(data.type, data.fields.content, ['data', 'fields', 'content']);
  const links: NewLink[] = [];
  let customer: Parameters<typeof customerTarget>[1] | undefined;
  let customerPath: Array<string | number> = [];
  (data.relationships ?? []).forEach((rel, i) => {
    const at = ['data', 'relationships', i, 'target'];
    if (rel.type === 'customer') [customer, customerPath] = [rel.target, at];
    else links.push({ entityId: rel.target.id, entityType: rel.target.type, importance: rel.importance, path: [...at, 'id'] });
  });
  // Every read the note needs goes out at once: the type's custom-field configuration (a Query,
  // only when a field is named by id: custom fields are, and nothing else reaches the check), the
  // members and the customer named by e-mail, and one BatchGetItem for the rest (readAheadForNote).
  // The verdicts are taken in the order a client expects: fields, members, customer, then what
  // createNote judges.
  const [custom, members, target, ahead] = await Promise.all([
    Object.keys(data.fields).some(isUuid) ? settle(customFieldCheck(ws, data.type)) : { value: customValueCheck([], data.type) },
    settle(resolveMembers(ws, namedMembers(data.fields))),
    customer ? settle(customerTarget(ws, customer, customerPath)) : undefined,
    readAheadForNote(ws, { customerId: customer?.id, links }),
  ]);
  const write = fieldWrite(data.fields, { standard: NOTE_FIELDS, mode: 'create', path: ['data', 'fields'], custom: outcome(custom), what: 'a note' });
  const values: Record<string, unknown> = { ...write.values, ...outcome(members) };
  values.creator ??= { id: principal.memberId, email: principal.email };
  const customerRef = target && outcome(target);
  return createNote(ws, { type: data.type, values, metadata: data.metadata, ...(customerRef ? { customer: customerRef } : {}), links }, ahead);
}
