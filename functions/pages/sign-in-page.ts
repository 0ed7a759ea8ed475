// GET {app_url}/sign-in — the member pages' sign-in page (workspace ID, e-mail, password). A member
// already signed in goes straight on to `next`.
import { safeNext } from '#lib/domain/member-pages.ts';
import { PageSignInQuery } from '#lib/domain/schemas/member-pages.ts';
import { pageUrl } from '#lib/http/member-pages/layout.ts';
import { memberPageApi } from '#lib/http/member-pages/shell.ts';
import { signInPageResult } from '#lib/http/member-pages/sign-in.ts';
import { viewerOf } from '#lib/http/member-pages/viewer.ts';
import * as routes from '#lib/routes.ts';

export const handler = memberPageApi(
  routes.pageSignInPage,
  {
    query: PageSignInQuery,
    responses: { 303: null },
    pages: {
      200: 'The sign-in form (303 to `next` for a member already signed in)',
      400: 'A query parameter the page does not take, or one out of its bounds',
    },
  },
  async (req, { query }) => {
    const next = safeNext(query.next);
    if (await viewerOf(req)) return { status: 303, headers: { Location: pageUrl(next) } };
    return signInPageResult(req, { next, workspace: query.workspace, ...(query.signed_out ? { notice: 'You have signed out.' } : {}) });
  },
);
