// Field values that name other records, resolved against the workspace: an owner or a creator given
// by e-mail, by id, or by both (which must then name the same member).
import { getMember, getMemberByEmail, type Member } from './members.ts';
import type { Prereads } from './preread.ts';
import type { FieldWrite } from '../domain/entity-fields.ts';
import type { Path } from '../domain/errors.ts';
import { invalid } from '../domain/input.ts';
import type { MemberInput } from '../domain/schemas/field-values.ts';
import { outcome, settle } from '../settle.ts';

/** The active member a MemberInput names, or InvalidInput located at what named no one. */
export async function resolveMember(ws: string, ref: MemberInput, path: Path, preread?: Prereads): Promise<Member> {
  const [byId, byEmail] = await Promise.all([
    ref.id === undefined ? undefined : getMember(ws, ref.id, preread),
    ref.email === undefined ? undefined : getMemberByEmail(ws, ref.email),
  ]);
  if (ref.id !== undefined && !byId?.active) invalid([...path, 'id'], `No active member with id ${ref.id} in this workspace.`);
  if (ref.email !== undefined && !byEmail?.active) invalid([...path, 'email'], `No active member with e-mail '${ref.email.slice(0, 254)}' in this workspace.`);
  if (byId && byEmail && byId.id !== byEmail.id) {
    invalid(path, `The id ${byId.id} and the e-mail '${ref.email}' name two different members; give one, or both of the same member.`);
  }
  return (byId ?? byEmail)!;
}

/**
 * The member fields of a write (`owner`, `creator`) resolved to {id, email} of an active member;
 * refusals in the fields' order. `preread`: members by id read ahead (lib/http/prefetch.ts).
 */
export async function resolveMembers(ws: string, members: FieldWrite['members'], preread?: Prereads): Promise<Record<string, { id: string; email: string }>> {
  const found = await Promise.all(members.map(({ ref, path }) => settle(resolveMember(ws, ref, path, preread))));
  return Object.fromEntries(members.map(({ field }, i) => {
    const m = outcome(found[i]!);
    return [field, { id: m.id, email: m.email }];
  }));
}

/** The values to store, with `owner` and `creator` resolved to {id, email} of an active member. */
export async function resolveFieldRefs(ws: string, write: FieldWrite): Promise<Record<string, unknown>> {
  return { ...write.values, ...(await resolveMembers(ws, write.members)) };
}
