// GET {app_url}/entities/{id} — an entity's page: its ancestors, what is under it ranked by
// customer score, the feedback linked to it newest first, its relations. Signed out: to the
// sign-in page and back.
import { EntityPageQuery, PageRecordPath } from '#lib/domain/schemas/member-pages.ts';
import { entityPageResult } from '#lib/http/member-pages/entity-page.ts';
import { memberPageApi } from '#lib/http/member-pages/shell.ts';
import { pagePath, toSignIn, viewerOf } from '#lib/http/member-pages/viewer.ts';
import * as routes from '#lib/routes.ts';

export const handler = memberPageApi(
  routes.entityPage,
  {
    params: PageRecordPath,
    query: EntityPageQuery,
    responses: { 303: null },
    pages: {
      200: 'The entity, its children by customer score with a bar each (or all of them in creation order), its feedback newest first (303 to the sign-in page without a page session)',
      400: 'A list link that does not belong to this page, or a query parameter the page does not take',
      403: "The member's role may not read entities",
      404: "The same page for another workspace's entity, an unknown id and a deleted entity",
    },
  },
  async (req, { params: { id }, query }) => {
    const viewer = await viewerOf(req);
    return viewer ? entityPageResult(viewer, id, query) : toSignIn(pagePath(`/entities/${encodeURIComponent(id)}`, req));
  },
);
