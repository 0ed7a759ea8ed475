// GET {app_url}/oauth/authorize — the authorization endpoint (RFC 6749 §4.1.1): the sign-in page, or
// for a signed-in member the consent page; a request that cannot be trusted gets an error page.
import { judgeAuthorizationRequest, sessionMember } from '#lib/auth/authorization-flow.ts';
import { consentResult, refuseRequest, requestCookies, requestString, signInResult } from '#lib/http/authorization-pages.ts';
import { SESSION_COOKIE } from '#lib/http/cookies.ts';
import { api } from '#lib/http/pipeline.ts';

export const handler = api('authorize', async (req) => {
  const params = req.query.entries();
  const judged = await judgeAuthorizationRequest(params);
  if (judged.kind !== 'valid') return refuseRequest(judged);
  const sessionId = requestCookies(req).get(SESSION_COOKIE);
  const member = await sessionMember(sessionId, judged.app.workspaceId);
  if (!member || !sessionId) return signInResult(req, judged.app, requestString(params));
  return consentResult(sessionId, judged, member, requestString(params));
});
