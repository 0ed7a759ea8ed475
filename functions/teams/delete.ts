// DELETE /v2/teams/{id} — the team and every membership of it (its members stay members of the
// workspace; entities assigned to it no longer show it). A delete cut short is finished by the next.
import { TeamPath } from '#lib/domain/schemas/team.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { deleteTeam } from '#lib/store/teams.ts';

export const handler = authedApi(routes.deleteTeam, { params: TeamPath, responses: { 204: null } }, async (req, { params: { id } }) => {
  await deleteTeam(principalOf(req).workspaceId, id, req);
  return { status: 204 };
});
