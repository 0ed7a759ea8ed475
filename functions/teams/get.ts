// GET /v2/teams/{id} — one team of the workspace.
import { config } from '#lib/config.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { TeamResponse } from '#lib/domain/schemas/responses.ts';
import { TeamPath } from '#lib/domain/schemas/team.ts';
import { teamView } from '#lib/domain/team-view.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { getTeam } from '#lib/store/teams.ts';

export const handler = authedApi(routes.getTeam, { params: TeamPath, responses: { 200: TeamResponse } }, async (req, { params: { id } }) => {
  const team = await getTeam(principalOf(req).workspaceId, id);
  if (!team) throw new NotFound('team', id);
  return { status: 200, body: { data: teamView(config.urls, team) } };
});
