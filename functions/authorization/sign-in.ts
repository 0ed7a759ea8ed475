// POST {app_url}/oauth/sign-in — the sign-in page's form: e-mail and password of a member of the
// application's workspace; on success a session cookie and back to the authorization endpoint.
import { judgeAuthorizationRequest, startSession } from '#lib/auth/authorization-flow.ts';
import { signIn } from '#lib/auth/sign-in.ts';
import { SignInForm } from '#lib/domain/schemas/authorization.ts';
import { throttledProblem } from '#lib/domain/sign-in-throttle.ts';
import { clearedPreSessionCookie, pageForm, refuseRequest, requestCookies, sessionCookie, signInResult, staleForm } from '#lib/http/authorization-pages.ts';
import { PRE_SESSION_COOKIE } from '#lib/http/cookies.ts';
import { csrfTokenMatches } from '#lib/http/csrf.ts';
import { pageApi } from '#lib/http/pages/page-shell.ts';
import * as routes from '#lib/routes.ts';

export const handler = pageApi(
  routes.signIn,
  {
    form: SignInForm,
    responses: { 303: null },
    pages: {
      400: 'The sign-in page again: the form is incomplete; or an error page for a request that cannot be trusted',
      401: 'The sign-in page again: wrong e-mail or password (never saying which)',
      403: 'The form lacks the CSRF token its cookie binds',
      429: 'Too many failed attempts for this e-mail or from this address; Retry-After says how long',
    },
  },
  async (req) => {
    const form = pageForm(req);
    const preSession = requestCookies(req).get(PRE_SESSION_COOKIE);
    if (!preSession || !(await csrfTokenMatches({ preSession }, form.get('csrf_token')))) throw staleForm();
    const request = form.get('request') ?? '';
    const judged = await judgeAuthorizationRequest([...new URLSearchParams(request)]);
    if (judged.kind !== 'valid') return refuseRequest(judged);
    const parsed = SignInForm.safeParse(Object.fromEntries(form));
    const email = form.get('email') ?? '';
    // A self-registered client belongs to no workspace: the member says which is theirs.
    const selfRegistered = judged.app.selfRegistered === true;
    const workspace = selfRegistered ? (form.get('workspace') ?? '').trim() : judged.app.workspaceId;
    const kept = { email, ...(selfRegistered ? { workspace } : {}) };
    if (!parsed.success || workspace === '') {
      return signInResult(req, judged.app, request, {
        status: 400,
        ...kept,
        problem: selfRegistered ? 'Enter your workspace ID, your e-mail address and your password.' : 'Enter your e-mail address and your password.',
      });
    }

    const outcome = await signIn(workspace, { email, password: parsed.data.password, sourceIp: req.event.requestContext?.identity?.sourceIp ?? 'unknown' });
    if (!outcome.ok) {
      req.log.info('sign-in refused', { reason: outcome.reason, clientId: judged.app.clientId });
      if (outcome.reason === 'throttled') {
        return signInResult(req, judged.app, request, {
          status: 429,
          ...kept,
          problem: throttledProblem(outcome.retryAfterS),
          headers: { 'Retry-After': String(outcome.retryAfterS) },
        });
      }
      return signInResult(req, judged.app, request, {
        status: 401,
        ...kept,
        problem: selfRegistered
          ? 'The workspace ID, the e-mail address or the password is not right, or this account cannot sign in here.'
          : 'The e-mail address or the password is not right, or this account cannot sign in here.',
      });
    }
    const sessionId = await startSession(outcome.member);
    req.log.info('member signed in', { workspaceId: outcome.member.workspaceId, memberId: outcome.member.id, clientId: judged.app.clientId });
    // Relative, so the browser stays on the host (and cookies) it used.
    return { status: 303, headers: { Location: `authorize?${request}` }, cookies: [sessionCookie(sessionId), clearedPreSessionCookie()] };
  },
);
