// PATCH /v2/teams/{id} — a team's name, handle or description (`data.fields`; a new name or handle
// must be free) and its members (`data.patch`: addItems, removeItems, set, clear; members by id or
// e-mail), together or apart.
import { config } from '#lib/config.ts';
import { TeamReferenceResponse } from '#lib/domain/schemas/responses.ts';
import { TeamPath, UpdateTeamBody } from '#lib/domain/schemas/team.ts';
import { teamReference } from '#lib/domain/team-view.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import { teamMembersChange } from '#lib/http/team-members.ts';
import * as routes from '#lib/routes.ts';
import { updateTeam } from '#lib/store/teams.ts';

export const handler = authedApi(
  routes.updateTeam,
  { params: TeamPath, body: UpdateTeamBody, responses: { 200: TeamReferenceResponse }, errors: ['conflict.uniqueViolation'] },
  async (req, { params: { id }, body: { data } }) => {
    const ws = principalOf(req).workspaceId;
    const members = data.patch ? await teamMembersChange(ws, data.patch, ['data', 'patch']) : undefined;
    await updateTeam(ws, id, { ...(data.fields ? { fields: data.fields } : {}), ...(members ? { members } : {}) }, req);
    return { status: 200, body: { data: teamReference(config.urls, id) } };
  },
);
