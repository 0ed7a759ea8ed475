// GET {app_url}/ — the member pages' home: the workspace's products ranked by customer score (and
// the planning entities that stand alone). Signed out: to the sign-in page and back.
import { homePageResult } from '#lib/http/member-pages/home-page.ts';
import { memberPageApi } from '#lib/http/member-pages/shell.ts';
import { toSignIn, viewerOf } from '#lib/http/member-pages/viewer.ts';
import * as routes from '#lib/routes.ts';

export const handler = memberPageApi(
  routes.homePage,
  {
    responses: { 303: null },
    pages: {
      200: "The workspace's products, highest customer score first, each with a bar (303 to the sign-in page without a page session)",
      400: 'A query parameter the page does not take',
      403: "The member's role may not read entities",
    },
  },
  async (req) => {
    const viewer = await viewerOf(req);
    return viewer ? homePageResult(viewer) : toSignIn('/');
  },
);
