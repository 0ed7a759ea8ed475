// GET {app_url}/oauth/authorize — the authorization endpoint (RFC 6749 §4.1.1): the sign-in page, or
// for a signed-in member the consent page; a request that cannot be trusted gets an error page.
import { judgeAuthorizationRequest, sessionMember } from '#lib/auth/authorization-flow.ts';
import { AuthorizationQuery } from '#lib/domain/schemas/authorization.ts';
import { consentResult, refuseRequest, requestCookies, requestString, sessionWorkspace, signInResult } from '#lib/http/authorization-pages.ts';
import { SESSION_COOKIE } from '#lib/http/cookies.ts';
import { pageApi } from '#lib/http/pages/page-shell.ts';
import * as routes from '#lib/routes.ts';

export const handler = pageApi(
  routes.authorize,
  {
    // Judged by judgeAuthorizationRequest: a refusal is a page or a redirect to the client, never the envelope.
    query: AuthorizationQuery,
    queryReadByCore: true,
    responses: { 303: null },
    pages: {
      200: 'The sign-in page, or for a signed-in member the consent page',
      400: 'An unknown client or an unregistered redirect URI: an error page, never a redirect',
    },
  },
  async (req) => {
    const params = req.query.entries();
    const judged = await judgeAuthorizationRequest(params);
    if (judged.kind !== 'valid') return refuseRequest(judged);
    const sessionId = requestCookies(req).get(SESSION_COOKIE);
    const member = await sessionMember(sessionId, sessionWorkspace(judged.app));
    if (!member || !sessionId) return signInResult(req, judged.app, requestString(params));
    return consentResult(sessionId, judged, member, requestString(params));
  },
);
