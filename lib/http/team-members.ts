// A team update's member operations (`data.patch`: addItems, removeItems, set, clear, in order)
// resolved against the workspace: every member named by id or by e-mail must be a member of it
// (refused at its place otherwise, before anything is written), and the operations become the
// change the store applies to the team's members as they are when it writes.
import { InvalidInput, pointer, type Path } from '../domain/errors.ts';
import type { MembersPatch, TeamMemberRef } from '../domain/schemas/team.ts';
import { getMemberByEmail } from '../store/members.ts';
import { membersByIds, type MembersChange } from '../store/teams.ts';

export async function teamMembersChange(ws: string, patch: readonly MembersPatch[], path: Path): Promise<MembersChange> {
  const refs = patch.flatMap((op, i) => ('value' in op ? op.value.map((ref, j) => ({ ref, at: [...path, i, 'value', j] })) : []));
  const byId = await membersByIds(
    ws,
    refs.flatMap(({ ref }) => ('id' in ref ? [ref.id] : [])),
  );
  const emails = [...new Set(refs.flatMap(({ ref }) => ('email' in ref ? [ref.email.toLowerCase()] : [])))];
  const byEmail = new Map(await Promise.all(emails.map(async (e) => [e, (await getMemberByEmail(ws, e))?.id] as const)));
  const idOf = (ref: TeamMemberRef, at: Path): string => {
    const id = 'id' in ref ? (byId.has(ref.id) ? ref.id : undefined) : byEmail.get(ref.email.toLowerCase());
    if (id === undefined)
      throw new InvalidInput(
        `${'id' in ref ? `No member ${ref.id}` : `No member with e-mail '${ref.email.slice(0, 254)}'`} in this workspace.`,
        pointer([...at, 'id' in ref ? 'id' : 'email']),
      );
    return id;
  };
  const ops = patch.map((op, i) => ({ op: op.op, ids: 'value' in op ? op.value.map((ref, j) => idOf(ref, [...path, i, 'value', j])) : [] }));
  return (current) => {
    let members = [...current];
    for (const { op, ids } of ops) {
      if (op === 'clear') members = [];
      else if (op === 'set') members = [...new Set(ids)];
      else if (op === 'addItems') members = [...new Set([...members, ...ids])];
      else members = members.filter((m) => !ids.includes(m));
    }
    return members;
  };
}
