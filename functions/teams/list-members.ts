// GET /v2/teams/{id}/members — a team's members, newest membership first; their names and e-mails
// only with members:pii:read. `pageCursor`, `limit`.
import { config } from '#lib/config.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { TeamMemberList } from '#lib/domain/schemas/responses.ts';
import { TeamMembersQuery, TeamPath } from '#lib/domain/schemas/team.ts';
import { teamMemberView } from '#lib/domain/team-view.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { teamMembersAfter } from '#lib/store/pages.ts';
import { getTeam } from '#lib/store/teams.ts';

export const handler = authedApi(
  routes.listTeamMembers,
  { params: TeamPath, query: TeamMembersQuery, responses: { 200: TeamMemberList } },
  async (req, { params: { id }, query }) => {
    const principal = principalOf(req);
    if (!(await getTeam(principal.workspaceId, id))) throw new NotFound('team', id);
    const page = await pageOf(req, query);
    const slice = await teamMembersAfter(principal.workspaceId, id, stringKey(page.after), page.limit + 1);
    const pii = principal.scopes.has('members:pii:read');
    const body = await page.envelope(slice, (records) => records.map((record) => teamMemberView(config.urls, record, { pii })));
    return { status: 200, body };
  },
);
