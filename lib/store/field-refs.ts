// Field values that name other records (an owner by e-mail) resolved against the workspace.
import { getMemberByEmail } from './members.ts';
import type { ParsedFields } from '../domain/entity-fields.ts';
import { invalid } from '../domain/input.ts';

/** The values to store, with `owner` resolved to {id, email} of an active member. */
export async function resolveFieldRefs(ws: string, parsed: ParsedFields): Promise<Record<string, unknown>> {
  const values = { ...parsed.values };
  if (parsed.owner) {
    const m = await getMemberByEmail(ws, parsed.owner.email);
    if (!m || !m.active) invalid(parsed.owner.path, `No active member with e-mail '${parsed.owner.email}' in this workspace.`);
    values.owner = { id: m.id, email: m.email };
  }
  return values;
}
