// The request side shared by the token and revocation endpoints: the form (RFC 6749 §3.2) and its
// refusals as OAuth errors, never the envelope.
import { parseForm } from './form.ts';
import type { ApiRequest } from './request.ts';
import { OAuthError } from '../auth/oauth-errors.ts';

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
