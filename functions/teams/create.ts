// POST /v2/teams — a team with a name and a handle, each unique in the workspace (409 otherwise).
import { config } from '#lib/config.ts';
import { TeamReferenceResponse } from '#lib/domain/schemas/responses.ts';
import { CreateTeamBody } from '#lib/domain/schemas/team.ts';
import { teamLink, teamReference } from '#lib/domain/team-view.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { createTeam } from '#lib/store/teams.ts';

export const handler = authedApi(
  routes.createTeam,
  { body: CreateTeamBody, responses: { 201: TeamReferenceResponse }, errors: ['conflict.uniqueViolation'], headers: { idempotencyKey: true } },
  async (req, { body }) => {
    const team = await createTeam(principalOf(req).workspaceId, body.data.fields, req);
    return { status: 201, body: { data: teamReference(config.urls, team.id) }, headers: { Location: teamLink(config.baseUrl, team.id) } };
  },
);
