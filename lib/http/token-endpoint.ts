// The request side shared by the token and revocation endpoints: the form (RFC 6749 §3.2), the
// client's authentication, the budgets they spend (./token-budgets.ts), and their refusals as
// OAuth errors, never the envelope.
import { parseForm, queryStringProblem } from './form.ts';
import type { ApiRequest } from './request.ts';
import { underTokenBudgets, type TokenEndpointRules } from './token-budgets.ts';
import { authenticatedClient } from '../auth/client-authentication.ts';
import { OAuthError } from '../auth/oauth-errors.ts';
import type { Application } from '../store/applications.ts';

/** Every OAuth error is a refusal the source address pays for; a spent budget is slow_down (429). */
const OAUTH_BUDGET_RULES: TokenEndpointRules = {
  isRefusal: (err) => err instanceof OAuthError,
  limited: (spent) => OAuthError.slowDown(spent.detail, spent.retryAfterS),
};

/**
 * A request of the token or revocation endpoint: its form read, its client authenticated and
 * charged one request of its budget (a public client's: its source address's), then `work`. A refusal is logged as `refused` with the check
 * that failed (never a token or secret); the client gets the RFC 6749 §5.2 body.
 */
export function clientRequest<T>(req: ApiRequest, refused: string, work: (form: Map<string, string>, app: Application) => Promise<T>): Promise<T> {
  return underTokenBudgets(req, OAUTH_BUDGET_RULES, async (budgets) => {
    try {
      const form = oauthForm(req);
      const app = await authenticatedClient(req.headers.get('authorization'), form);
      await (app.public ? budgets.spendAddress() : budgets.spendClient(app.clientId));
      return await work(form, app);
    } catch (err) {
      if (err instanceof OAuthError) req.log.info(refused, { error: err.error, reason: err.reason ?? err.description });
      throw err;
    }
  });
}

function oauthForm(req: ApiRequest): Map<string, string> {
  const inQuery = queryStringProblem(req.query.names());
  if (inQuery) throw new OAuthError('invalid_request', inQuery);
  const parsed = parseForm(req.headers.get('content-type'), req.rawBody);
  if (!parsed.ok) throw new OAuthError('invalid_request', parsed.detail);
  return parsed.form;
}

/** The first zod issue of a form, worded for error_description. */
export function formProblem(issue: { path: PropertyKey[]; message: string }): string {
  const field = issue.path.map(String).join('.');
  return field ? `${field}: ${issue.message}.` : `${issue.message}.`;
}
