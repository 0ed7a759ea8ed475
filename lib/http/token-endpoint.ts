// The request side shared by the token and revocation endpoints: the form (RFC 6749 §3.2), its
// refusals as OAuth errors, never the envelope, and the budgets they spend (./token-budgets.ts).
import { parseForm } from './form.ts';
import type { ApiRequest } from './request.ts';
import type { TokenEndpointRules } from './token-budgets.ts';
import { OAuthError } from '../auth/oauth-errors.ts';

/** Every OAuth error is a refusal the source address pays for; a spent budget is slow_down (429). */
export const OAUTH_BUDGET_RULES: TokenEndpointRules = {
  isRefusal: (err) => err instanceof OAuthError,
  limited: (spent) => OAuthError.slowDown(spent.detail, spent.retryAfterS),
};

export function oauthForm(req: ApiRequest): Map<string, string> {
  const parsed = parseForm(req.headers.get('content-type'), req.rawBody);
  if (!parsed.ok) throw new OAuthError('invalid_request', parsed.detail);
  return parsed.form;
}

/** The first zod issue of a form, worded for error_description. */
export function formProblem(issue: { path: PropertyKey[]; message: string }): string {
  const field = issue.path.map(String).join('.');
  return field ? `${field}: ${issue.message}.` : `${issue.message}.`;
}
