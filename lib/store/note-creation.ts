// A note created from the `data` POST /v2/notes takes: the REST handler (functions/notes/create.ts)
// and the MCP server's create_note tool (lib/http/mcp/tools/notes.ts) both create notes here. Its
// creator is the member whose token made the request unless the data names another.
import type * as z from 'zod/mini';
import { namedFieldCheck } from './custom-fields.ts';
import { customerTarget } from './customers.ts';
import { resolveMembers } from './field-refs.ts';
import type { WriteScope } from './idempotency.ts';
import { createNote, type NewLink, type NoteItem } from './notes.ts';
import { readAhead, type ReadAhead } from './preread.ts';
import { keysOf, newNoteRecords } from './record-names.ts';
import { fieldWrite, NOTE_FIELDS, type FieldWrite } from '../domain/entity-fields.ts';
import { checkNoteContent } from '../domain/note-content.ts';
import { noteReads } from '../domain/note-reads.ts';
import type { CreateNoteBody } from '../domain/schemas/note-writes.ts';
import type { Scope } from '../domain/scopes.ts';
import { outcome, settle } from '../settle.ts';

type NoteData = z.output<typeof CreateNoteBody>['data'];

/** The member a note is created for, in their workspace; `scopes`: their token's (a customer by e-mail takes users:pii:read). */
interface NoteCreator {
  workspaceId: string;
  memberId: string;
  email: string;
  scopes: ReadonlySet<Scope>;
}

/**
 * The member fields (owner, creator) the data names, known before the custom-field configuration
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

/** `prefetched`: items read with the credential (lib/http/prefetch.ts); the rest is read here. */
export async function createNoteFrom(creator: NoteCreator, data: NoteData, prefetched?: ReadAhead, scope?: WriteScope): Promise<NoteItem> {
  const ws = creator.workspaceId;
  checkNoteContent(data.type, data.fields.content, ['data', 'fields', 'content']);
  const links: NewLink[] = [];
  let customer: Parameters<typeof customerTarget>[1] | undefined;
  let customerPath: Array<string | number> = [];
  (data.relationships ?? []).forEach((rel, i) => {
    const at = ['data', 'relationships', i, 'target'];
    if (rel.type === 'customer') [customer, customerPath] = [rel.target, at];
    else links.push({ entityId: rel.target.id, entityType: rel.target.type, importance: rel.importance, path: [...at, 'id'] });
  });
  // Every read the note needs goes out at once: one BatchGetItem for what the bearer check did not
  // read (the customer by id, the link targets, the customer's ratings of them, the definitions of
  // the custom fields named by id: none when nothing was left), the members by id that were not
  // prefetched, and the members and the customer named by e-mail (Queries). The verdicts are taken
  // in the order a client expects: fields, members, customer, then what createNote judges.
  const ahead = readAhead(keysOf(ws, newNoteRecords(noteReads(data, { members: false }))), prefetched);
  const [custom, members, target, read] = await Promise.all([
    settle(ahead.then((a) => namedFieldCheck(ws, data.type, Object.keys(data.fields), a))),
    settle(resolveMembers(ws, namedMembers(data.fields), prefetched)),
    customer ? settle(customerTarget(ws, customer, customerPath, creator.scopes.has('users:pii:read'))) : undefined,
    ahead,
  ]);
  const write = fieldWrite(data.fields, { standard: NOTE_FIELDS, mode: 'create', path: ['data', 'fields'], custom: outcome(custom), what: 'a note' });
  const values: Record<string, unknown> = { ...write.values, ...outcome(members) };
  values.creator ??= { id: creator.memberId, email: creator.email };
  const customerRef = target && outcome(target);
  return createNote(ws, { type: data.type, values, metadata: data.metadata, ...(customerRef ? { customer: customerRef } : {}), links }, read, scope);
}
