// POST /v2/teams/search — Productboard's team search: `filter.id`, `filter.fields.name` and
// `.handle` (each one value or a list of alternatives), `search.query`; all given must hold. Newest
// first, like the list; `pageCursor`, `limit`, the cursor bound to the body.
import { config } from '#lib/config.ts';
import { TeamList } from '#lib/domain/schemas/responses.ts';
import { SearchTeamsBody, SearchTeamsQuery } from '#lib/domain/schemas/team.ts';
import { teamView } from '#lib/domain/team-view.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { teamsAfter } from '#lib/store/pages.ts';

export const handler = authedApi(
  routes.searchTeams,
  { query: SearchTeamsQuery, body: SearchTeamsBody, responses: { 200: TeamList } },
  async (req, { query, body: { data = {} } }) => {
    const page = await pageOf(req, query, { body: data });
    const fields = data.filter?.fields ?? {};
    const filter = {
      ...(data.filter?.id ? { ids: [...new Set(data.filter.id)] } : {}),
      ...(fields.name ? { names: fields.name } : {}),
      ...(fields.handle ? { handles: fields.handle } : {}),
      ...(data.search?.query !== undefined ? { query: data.search.query } : {}),
    };
    const slice = await teamsAfter(principalOf(req).workspaceId, filter, stringKey(page.after), page.limit + 1);
    const body = await page.envelope(slice, (records) => records.map((record) => teamView(config.urls, record)));
    return { status: 200, body };
  },
);
