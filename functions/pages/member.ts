// GET {app_url}/members/{id} — a member's page: name, role and what they own. Signed out: to the
// sign-in page and back.
import { MemberPageQuery, PageRecordPath } from '#lib/domain/schemas/member-pages.ts';
import { memberPageResult } from '#lib/http/member-pages/member-page.ts';
import { memberPageApi } from '#lib/http/member-pages/shell.ts';
import { pagePath, toSignIn, viewerOf } from '#lib/http/member-pages/viewer.ts';
import * as routes from '#lib/routes.ts';

export const handler = memberPageApi(
  routes.memberPage,
  {
    params: PageRecordPath,
    query: MemberPageQuery,
    responses: { 303: null },
    pages: {
      200: 'The member (name and e-mail with members:pii:read), their role, and the entities and notes they own (303 to the sign-in page without a page session)',
      400: 'A list link that does not belong to this page, or a query parameter the page does not take',
      403: "The member's role may not read members",
      404: "The same page for another workspace's member and an unknown id",
    },
  },
  async (req, { params: { id }, query }) => {
    const viewer = await viewerOf(req);
    return viewer ? memberPageResult(viewer, id, query) : toSignIn(pagePath(`/members/${encodeURIComponent(id)}`, req));
  },
);
