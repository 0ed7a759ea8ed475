// Field values that name other records, resolved against the workspace: an owner or a creator given
// by e-mail, by id, or by both (which must then name the same member).
import { getMember, getMemberByEmail, type Member } from './members.ts';
import type { FieldWrite } from '../domain/entity-fields.ts';
import type { Path } from '../domain/errors.ts';
import { invalid } from '../domain/input.ts';
import type { MemberInput } from '../domain/schemas/field-values.ts';

/** The active member a MemberInput names, or InvalidInput located at what named no one. */
export async function resolveMember(ws: string, ref: MemberInput, path: Path): Promise<Member> {
  const byId = ref.id === undefined ? undefined : await getMember(ws, ref.id);
  const byEmail = ref.email === undefined ? undefined : await getMemberByEmail(ws, ref.email);
  if (ref.id !== undefined && !byId?.active) invalid([...path, 'id'], `No active member with id ${ref.id} in this workspace.`);
  if (ref.email !== undefined && !byEmail?.active) invalid([...path, 'email'], `No active member with e-mail '${ref.email.slice(0, 254)}' in this workspace.`);
  if (byId && byEmail && byId.id !== byEmail.id) {
    invalid(path, `The id ${byId.id} and the e-mail '${ref.email}' name two different members; give one, or both of the same member.`);
  }
  return (byId ?? byEmail)!;
}

/** The values to store, with `owner` and `creator` resolved to {id, email} of an active member. */
export async function resolveFieldRefs(ws: string, write: FieldWrite): Promise<Record<string, unknown>> {
  const values = { ...write.values };
  for (const { field, ref, path } of write.members) {
    const m = await resolveMember(ws, ref, path);
    values[field] = { id: m.id, email: m.email };
  }
  return values;
}
