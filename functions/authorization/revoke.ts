// POST {app_url}/oauth/revoke — token revocation (RFC 7009): the client's refresh or access token,
// and with it every token of its grant.
import { OAuthError } from '#lib/auth/oauth-errors.ts';
import { revokeToken } from '#lib/auth/revocation.ts';
import { OAuthEndpointQuery, RevocationForm } from '#lib/domain/schemas/authorization.ts';
import { OAuthErrorBody } from '#lib/domain/schemas/responses.ts';
import { api } from '#lib/http/pipeline.ts';
import { clientRequest, formProblem } from '#lib/http/token-endpoint.ts';
import * as routes from '#lib/routes.ts';

export const handler = api(
  routes.revokeToken,
  // RFC 7009 2.2: 200 whether the token was known or not.
  { query: OAuthEndpointQuery, form: RevocationForm, responses: { 200: null }, refusal: OAuthErrorBody, refusalStatuses: [400, 401, 429] },
  async (req) =>
    clientRequest(req, 'revocation refused', async (form, app) => {
      const parsed = RevocationForm.safeParse(Object.fromEntries(form));
      if (!parsed.success) throw new OAuthError('invalid_request', formProblem(parsed.error.issues[0]!));
      const revoked = await revokeToken(app, parsed.data.token);
      req.log.info('revocation', { clientId: app.clientId, revoked });
      return { status: 200, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } };
    }),
);
