// POST {app_url}/oauth/token — the authorization code flow's token endpoint (RFC 6749 §3.2):
// authorization_code (with PKCE) and refresh_token; errors are RFC 6749 §5.2 bodies.
import { OAuthError } from '#lib/auth/oauth-errors.ts';
import { exchangeAuthorizationCode, refreshTokens } from '#lib/auth/token-grants.ts';
import { OAuthEndpointQuery, TokenRequestForm } from '#lib/domain/schemas/authorization.ts';
import { OAuthErrorBody, OAuthTokenResponse } from '#lib/domain/schemas/responses.ts';
import { api } from '#lib/http/pipeline.ts';
import { clientRequest, formProblem } from '#lib/http/token-endpoint.ts';
import * as routes from '#lib/routes.ts';

const GRANTS = ['authorization_code', 'refresh_token'];

export const handler = api(
  routes.oauthToken,
  // The form is parsed here, so that every refusal is an RFC 6749 body (401: invalid_client).
  { query: OAuthEndpointQuery, form: TokenRequestForm, responses: { 200: OAuthTokenResponse }, refusal: OAuthErrorBody, refusalStatuses: [400, 401, 429] },
  async (req) =>
    clientRequest(req, 'token request refused', async (form, app) => {
      const grantType = form.get('grant_type');
      if (!grantType) throw new OAuthError('invalid_request', 'grant_type is missing.');
      if (!GRANTS.includes(grantType))
        throw new OAuthError(
          'unsupported_grant_type',
          `grant_type ${JSON.stringify(grantType.slice(0, 64))} is not supported here; use authorization_code or refresh_token.`,
        );
      const parsed = TokenRequestForm.safeParse(Object.fromEntries(form));
      if (!parsed.success) throw new OAuthError('invalid_request', formProblem(parsed.error.issues[0]!));
      const f = parsed.data;
      const optional = { ...(f.scope !== undefined ? { scope: f.scope } : {}), ...(f.resource !== undefined ? { resource: f.resource } : {}) };
      const { body, grant } =
        f.grant_type === 'authorization_code'
          ? await exchangeAuthorizationCode(app, {
              code: f.code,
              redirectUri: f.redirect_uri,
              ...(f.code_verifier !== undefined ? { codeVerifier: f.code_verifier } : {}),
              ...optional,
            })
          : await refreshTokens(app, { refreshToken: f.refresh_token, ...optional });
      req.log.info('tokens issued', { grantType, clientId: app.clientId, workspaceId: grant.workspaceId, grantId: grant.grantId });
      return { status: 200, body, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } };
    }),
);
