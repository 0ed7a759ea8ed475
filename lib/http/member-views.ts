// Members as the members routes answer them (list, get, search): each with the teams it belongs to,
// read for the whole page at once (the member items name their teams: lib/store/teams.ts).
import { config } from '../config.ts';
import { memberView } from '../domain/member-view.ts';
import { memberTeamReference } from '../domain/team-view.ts';
import type { Member } from '../store/members.ts';
import { teamsByIds } from '../store/teams.ts';

/** The members' views; `pii`: whether the caller may read names and e-mails (members:pii:read). */
export async function memberViews(ws: string, members: readonly Member[], pii: boolean) {
  const teams = await teamsByIds(
    ws,
    members.flatMap((m) => m.teamIds ?? []),
  );
  return members.map((m) => {
    const own = (m.teamIds ?? []).map((id) => teams.get(id)).filter((t) => t !== undefined);
    return memberView(config.urls, m, {
      pii,
      teams: own.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((t) => memberTeamReference(config.urls, t)),
    });
  });
}
