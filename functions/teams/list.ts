// GET /v2/teams — the workspace's teams, newest first (as Productboard lists them): `name` and
// `handle` (exact, any case), `query` (part of either); `pageCursor`, `limit`.
import { config } from '#lib/config.ts';
import { TeamList } from '#lib/domain/schemas/responses.ts';
import { ListTeamsQuery } from '#lib/domain/schemas/team.ts';
import { teamView } from '#lib/domain/team-view.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { teamsAfter } from '#lib/store/pages.ts';

export const handler = authedApi(routes.listTeams, { query: ListTeamsQuery, responses: { 200: TeamList } }, async (req, { query }) => {
  const page = await pageOf(req, query);
  const filter = {
    ...(query.name !== undefined ? { names: [query.name] } : {}),
    ...(query.handle !== undefined ? { handles: [query.handle] } : {}),
    ...(query.query !== undefined ? { query: query.query } : {}),
  };
  const slice = await teamsAfter(principalOf(req).workspaceId, filter, stringKey(page.after), page.limit + 1);
  const body = await page.envelope(slice, (records) => records.map((record) => teamView(config.urls, record)));
  return { status: 200, body };
});
