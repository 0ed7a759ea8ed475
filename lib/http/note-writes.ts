// A note created from the body POST /v2/notes takes: the REST handler and the MCP server's
// create_note tool (lib/http/mcp/tools/notes.ts) both create notes through it. Its creator is the
// member whose token made the request unless the body names another.
import type * as z from 'zod/mini';
import { uuidOf, type PrefetchKeys } from './prefetch.ts';
import type { Principal } from '../auth/principal.ts';
import { fieldWrite, MEMBER_FIELDS, NOTE_FIELDS, type FieldWrite } from '../domain/entity-fields.ts';
import { checkNoteContent } from '../domain/note-content.ts';
import type { CreateNoteBody } from '../domain/schemas/note-writes.ts';
import { outcome, settle } from '../settle.ts';
import { namedFieldCheck } from '../store/custom-fields.ts';
import { customerTarget } from '../store/customers.ts';
import { resolveMembers } from '../store/field-refs.ts';
import type { WriteScope } from '../store/idempotency.ts';
import type { ItemKey } from '../store/keys.ts';
import { createNote, newNoteKeys, type NewLink, type NoteItem } from '../store/notes.ts';
import { readAhead, type ReadAhead } from '../store/preread.ts';

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

const record = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * The items a new note's first reads ask for by key (lib/store/notes.ts newNoteKeys), from its
 * `data` as sent (unvalidated: read defensively, see lib/http/prefetch.ts) or as validated; the
 * owner and creator given by id only with `members`.
 */
function noteReadKeys(ws: string, data: unknown, options: { members: boolean }): ItemKey[] {
  const d = record(data);
  const rels = Array.isArray(d?.relationships) ? d.relationships.map(record) : [];
  const targetId = (rel: Record<string, unknown> | undefined) => uuidOf(record(rel?.target)?.id);
  // As createNoteFrom takes it: the last customer named (validation lets one through).
  const customerId = rels
    .filter((r) => r?.type === 'customer')
    .map(targetId)
    .at(-1);
  const linked = rels
    .filter((r) => r?.type === 'link')
    .map(targetId)
    .filter((id) => id !== undefined);
  const fields = record(d?.fields) ?? {};
  const members = options.members ? MEMBER_FIELDS.map((f) => uuidOf(record(fields[f])?.id)).filter((id) => id !== undefined) : [];
  return newNoteKeys(ws, { customerId, linkIds: linked, memberIds: members, fieldIds: Object.keys(fields) });
}

/** POST /v2/notes's prefetch (lib/http/prefetch.ts): what createNoteFrom reads by key. */
export const noteWriteKeys: PrefetchKeys = ({ workspaceId, body }) => noteReadKeys(workspaceId, record(body)?.data, { members: true });

/** `prefetched`: the items read with the credential (noteWriteKeys); the rest is read here. */
export async function createNoteFrom(principal: Principal, data: NoteData, prefetched?: ReadAhead, scope?: WriteScope): Promise<NoteItem> {
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
  // Every read the note needs goes out at once: one BatchGetItem for what the bearer check did not
  // read (the customer by id, the link targets, the customer's ratings of them, the definitions of
  // the custom fields named by id: none when nothing was left), the members by id that were not
  // prefetched, and the members and the customer named by e-mail (Queries). The verdicts are taken
  // in the order a client expects: fields, members, customer, then what createNote judges.
  const ahead = readAhead(noteReadKeys(ws, data, { members: false }), prefetched);
  const [custom, members, target, read] = await Promise.all([
    settle(ahead.then((a) => namedFieldCheck(ws, data.type, Object.keys(data.fields), a))),
    settle(resolveMembers(ws, namedMembers(data.fields), prefetched)),
    customer ? settle(customerTarget(ws, customer, customerPath)) : undefined,
    ahead,
  ]);
  const write = fieldWrite(data.fields, { standard: NOTE_FIELDS, mode: 'create', path: ['data', 'fields'], custom: outcome(custom), what: 'a note' });
  const values: Record<string, unknown> = { ...write.values, ...outcome(members) };
  values.creator ??= { id: principal.memberId, email: principal.email };
  const customerRef = target && outcome(target);
  return createNote(ws, { type: data.type, values, metadata: data.metadata, ...(customerRef ? { customer: customerRef } : {}), links }, read, scope);
}
