// GET {app_url}/teams/{id} — a team's page: its name, handle, description and members. Signed out:
// to the sign-in page and back.
import { PageRecordPath, TeamPageQuery } from '#lib/domain/schemas/member-pages.ts';
import { memberPageApi } from '#lib/http/member-pages/shell.ts';
import { teamPageResult } from '#lib/http/member-pages/team-page.ts';
import { pagePath, toSignIn, viewerOf } from '#lib/http/member-pages/viewer.ts';
import * as routes from '#lib/routes.ts';

export const handler = memberPageApi(
  routes.teamPage,
  {
    params: PageRecordPath,
    query: TeamPageQuery,
    responses: { 303: null },
    pages: {
      200: 'The team (name, handle, description) and its members, names and e-mails with members:pii:read (303 to the sign-in page without a page session)',
      400: 'A list link that does not belong to this page, or a query parameter the page does not take',
      403: "The member's role may not read teams",
      404: "The same page for another workspace's team, an unknown id and a deleted team",
    },
  },
  async (req, { params: { id }, query }) => {
    const viewer = await viewerOf(req);
    return viewer ? teamPageResult(viewer, id, query) : toSignIn(pagePath(`/teams/${encodeURIComponent(id)}`, req));
  },
);
