// The ids a new note's `data` names — its customer, link targets, members by id and field ids —
// from the body as validated or as sent: a request's read ahead runs before validation
// (lib/http/prefetch.ts), so the data is read defensively (what it cannot read names nothing, it
// never throws) and a wrong guess costs a read, never a wrong answer.
import { MEMBER_FIELDS } from './entity-fields.ts';
import { uuidOf } from './input.ts';

const record = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

interface NoteReads {
  customerId: string | undefined;
  linkIds: string[];
  memberIds: string[];
  fieldIds: string[];
}

/** `members`: also the owner and creator given by id. */
export function noteReads(data: unknown, options: { members: boolean }): NoteReads {
  const d = record(data);
  const rels = Array.isArray(d?.relationships) ? d.relationships.map(record) : [];
  const targetId = (rel: Record<string, unknown> | undefined) => uuidOf(record(rel?.target)?.id);
  // As a note is created: the last customer named (validation lets one through).
  const customerId = rels
    .filter((r) => r?.type === 'customer')
    .map(targetId)
    .at(-1);
  const linkIds = rels
    .filter((r) => r?.type === 'link')
    .map(targetId)
    .filter((id) => id !== undefined);
  const fields = record(d?.fields) ?? {};
  const memberIds = options.members ? MEMBER_FIELDS.map((f) => uuidOf(record(fields[f])?.id)).filter((id) => id !== undefined) : [];
  return { customerId, linkIds, memberIds, fieldIds: Object.keys(fields) };
}

/** The `data` of a request body as sent, when it is an object's member. */
export const dataOf = (body: unknown): unknown => record(body)?.data;
