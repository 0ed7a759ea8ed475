// POST {app_url}/oauth2/token — the JWT bearer grant (RFC 7523): a signed assertion for a 300-second access token.
import { issueAccessToken } from '#lib/auth/access-tokens.ts';
import { verifyAssertion } from '#lib/auth/jwt-bearer.ts';
import { TokenError } from '#lib/auth/token-errors.ts';
import { parseTokenRequest } from '#lib/auth/token-request.ts';
import { OAuthError, TokenResponse } from '#lib/domain/schemas/responses.ts';
import { TokenForm, TokenQuery } from '#lib/domain/schemas/token.ts';
import { queryStringProblem } from '#lib/http/form.ts';
import { api } from '#lib/http/pipeline.ts';
import { underTokenBudgets } from '#lib/http/token-budgets.ts';
import * as routes from '#lib/routes.ts';

export const handler = api(
  routes.issueToken,
  // The form is parsed by parseTokenRequest with TokenForm, so that every refusal is an OAuth error.
  { query: TokenQuery, form: TokenForm, responses: { 200: TokenResponse }, refusal: OAuthError },
  async (req) =>
    underTokenBudgets(req, { isRefusal: (err) => err instanceof TokenError }, async (budgets) => {
      try {
        const inQuery = queryStringProblem(req.query.names());
        if (inQuery) throw new TokenError('invalid_request', 'query string', inQuery);
        const { assertion, scope } = parseTokenRequest(req.headers.get('content-type'), req.rawBody);
        const { application, member, scopes } = await verifyAssertion(assertion, scope);
        await budgets.spendClient(application.clientId);
        const { token, expiresIn } = await issueAccessToken(application.clientId, member, scopes);
        req.log.info('access token issued', { clientId: application.clientId, workspaceId: member.workspaceId, memberId: member.id });
        return {
          status: 200,
          body: { access_token: token, token_type: 'Bearer' as const, expires_in: expiresIn, scope: scopes.join(' ') },
          headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
        };
      } catch (err) {
        // Which check failed goes to the log (never the assertion itself); the client gets the specification's code.
        if (err instanceof TokenError) req.log.info('token request refused', { error: err.error, reason: err.reason });
        throw err;
      }
    }),
);
