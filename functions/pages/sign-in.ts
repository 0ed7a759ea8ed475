// POST {app_url}/sign-in — the member pages' sign-in form: workspace ID, e-mail and password, checked
// and throttled as on the authorization pages (lib/auth/sign-in.ts); on success a page session in
// its own cookie and on to `next`, a path of these pages (anything else: home).
import { PAGE_SESSION_LIFETIME_S, startPageSession } from '#lib/auth/page-sessions.ts';
import { signIn } from '#lib/auth/sign-in.ts';
import { safeNext } from '#lib/domain/member-pages.ts';
import { PageSignInForm } from '#lib/domain/schemas/member-pages.ts';
import { throttledProblem } from '#lib/domain/sign-in-throttle.ts';
import { hostCookie, parseCookies, PAGE_PRE_SESSION_COOKIE, PAGE_SESSION_COOKIE, PAGE_WORKSPACE_COOKIE } from '#lib/http/cookies.ts';
import { csrfTokenMatches, CSRF_FIELD } from '#lib/http/csrf.ts';
import { pageFormOf, staleMemberForm } from '#lib/http/member-pages/forms.ts';
import { pageUrl } from '#lib/http/member-pages/layout.ts';
import { memberPageApi } from '#lib/http/member-pages/shell.ts';
import { signInPageResult } from '#lib/http/member-pages/sign-in.ts';
import * as routes from '#lib/routes.ts';

/** The workspace ID is filled in on the next visit for this long. */
const WORKSPACE_MEMORY_S = 30 * 24 * 60 * 60;

export const handler = memberPageApi(
  routes.pageSignIn,
  {
    form: PageSignInForm,
    responses: { 303: null },
    pages: {
      400: 'The sign-in page again: the form is incomplete',
      401: 'The sign-in page again: wrong workspace, e-mail or password (never saying which)',
      403: 'The form lacks the CSRF token its cookie binds',
      429: 'Too many failed attempts for this e-mail or from this address; Retry-After says how long',
    },
  },
  async (req) => {
    const form = pageFormOf(req);
    const preSession = parseCookies(req.headers.get('cookie')).get(PAGE_PRE_SESSION_COOKIE);
    if (!preSession || !(await csrfTokenMatches({ pagePreSession: preSession }, form.get(CSRF_FIELD)))) throw staleMemberForm('sign-in');
    const next = safeNext(form.get('next'));
    const workspace = (form.get('workspace') ?? '').trim();
    const email = form.get('email') ?? '';
    const kept = { next, workspace, email };
    const parsed = PageSignInForm.safeParse(Object.fromEntries(form));
    if (!parsed.success || workspace === '') {
      return signInPageResult(req, { status: 400, ...kept, problem: 'Enter your workspace ID, your e-mail address and your password.' });
    }
    const outcome = await signIn(workspace, { email, password: parsed.data.password, sourceIp: req.event.requestContext?.identity?.sourceIp ?? 'unknown' });
    if (!outcome.ok) {
      req.log.info('page sign-in refused', { reason: outcome.reason });
      if (outcome.reason === 'throttled') {
        return signInPageResult(req, {
          status: 429,
          ...kept,
          problem: throttledProblem(outcome.retryAfterS),
          headers: { 'Retry-After': String(outcome.retryAfterS) },
        });
      }
      return signInPageResult(req, {
        status: 401,
        ...kept,
        problem: 'The workspace ID, the e-mail address or the password is not right, or this account cannot sign in here.',
      });
    }
    const sessionId = await startPageSession(outcome.member);
    req.log.info('member signed in to the pages', { workspaceId: outcome.member.workspaceId, memberId: outcome.member.id });
    return {
      status: 303,
      headers: { Location: pageUrl(next) },
      cookies: [
        hostCookie(PAGE_SESSION_COOKIE, sessionId, PAGE_SESSION_LIFETIME_S),
        hostCookie(PAGE_PRE_SESSION_COOKIE, '', 0),
        hostCookie(PAGE_WORKSPACE_COOKIE, outcome.member.workspaceId, WORKSPACE_MEMORY_S),
      ],
    };
  },
);
