// POST {app_url}/oauth/consent — the consent page's form: Allow redirects to the client with a
// code, Deny with error=access_denied (RFC 6749 §4.1.2).
import { issueAuthorizationCode, judgeAuthorizationRequest, sessionMember } from '#lib/auth/authorization-flow.ts';
import { consentScopes } from '#lib/domain/authorization-request.ts';
import { ConsentForm } from '#lib/domain/schemas/authorization.ts';
import {
  clientRedirect,
  deniedRedirect,
  nothingToGrant,
  pageForm,
  refuseRequest,
  requestCookies,
  sessionWorkspace,
  staleForm,
  stateOf,
} from '#lib/http/authorization-pages.ts';
import { SESSION_COOKIE } from '#lib/http/cookies.ts';
import { csrfTokenMatches } from '#lib/http/csrf.ts';
import { PageError } from '#lib/http/pages/page-error.ts';
import { pageApi } from '#lib/http/pages/page-shell.ts';
import * as routes from '#lib/routes.ts';

export const handler = pageApi(
  routes.consent,
  {
    form: ConsentForm,
    responses: { 303: null },
    pages: {
      400: 'The form is incomplete, or the request cannot be trusted: an error page',
      403: 'The form lacks the CSRF token of the session',
    },
  },
  async (req) => {
    const form = pageForm(req);
    const sessionId = requestCookies(req).get(SESSION_COOKIE);
    if (!sessionId || !(await csrfTokenMatches({ session: sessionId }, form.get('csrf_token')))) throw staleForm();
    const parsed = ConsentForm.safeParse(Object.fromEntries(form));
    if (!parsed.success)
      throw new PageError(400, 'The answer could not be read', 'The consent form came back incomplete: it needs the request and a decision, allow or deny.');
    const judged = await judgeAuthorizationRequest([...new URLSearchParams(parsed.data.request)]);
    if (judged.kind !== 'valid') return refuseRequest(judged);
    const { request, app } = judged;
    const member = await sessionMember(sessionId, sessionWorkspace(app));
    // The session ended (or the member was deactivated) while the page was open: sign in again.
    if (!member) return { status: 303, headers: { Location: `authorize?${parsed.data.request}` } };

    if (parsed.data.decision === 'deny') {
      req.log.info('authorization denied', { clientId: app.clientId, memberId: member.id });
      return deniedRedirect(request, 'The member denied the request.');
    }
    const { granted } = consentScopes(request.scopes, member.role);
    if (granted.length === 0) return nothingToGrant(request, member);
    const code = await issueAuthorizationCode(request, app, member, granted);
    req.log.info('authorization granted', { clientId: app.clientId, workspaceId: member.workspaceId, memberId: member.id, scopes: granted.join(' ') });
    return clientRedirect(request.redirectUri, { code, ...stateOf(request) });
  },
);
