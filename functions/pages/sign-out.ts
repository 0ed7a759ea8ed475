// POST {app_url}/sign-out — ends the member's page session (the form on every page carries a CSRF
// token bound to it) and goes to the sign-in page.
import { endPageSession } from '#lib/auth/page-sessions.ts';
import { PageSignOutForm } from '#lib/domain/schemas/member-pages.ts';
import { hostCookie, parseCookies, PAGE_SESSION_COOKIE } from '#lib/http/cookies.ts';
import { csrfTokenMatches, CSRF_FIELD } from '#lib/http/csrf.ts';
import { pageFormOf, staleMemberForm } from '#lib/http/member-pages/forms.ts';
import { pageUrl } from '#lib/http/member-pages/layout.ts';
import { memberPageApi } from '#lib/http/member-pages/shell.ts';
import * as routes from '#lib/routes.ts';

export const handler = memberPageApi(
  routes.pageSignOut,
  {
    form: PageSignOutForm,
    responses: { 303: null },
    pages: { 400: 'The form could not be read', 403: 'The form lacks the CSRF token of the session: nothing changed' },
  },
  async (req) => {
    const form = pageFormOf(req);
    const sessionId = parseCookies(req.headers.get('cookie')).get(PAGE_SESSION_COOKIE);
    const signedOut = pageUrl('/sign-in?signed_out=1');
    // No session in this browser: nothing to end.
    if (!sessionId) return { status: 303, headers: { Location: signedOut } };
    if (!(await csrfTokenMatches({ pageSession: sessionId }, form.get(CSRF_FIELD)))) throw staleMemberForm('sign-out');
    await endPageSession(sessionId);
    req.log.info('member signed out of the pages');
    return { status: 303, headers: { Location: signedOut }, cookies: [hostCookie(PAGE_SESSION_COOKIE, '', 0)] };
  },
);
