// Errors of the authorization code flow's token and revocation endpoints (RFC 6749 §5.2, RFC 7009
// §2.2.1, RFC 8707 §2): `{error, error_description}` with Cache-Control: no-store, rendered through
// the frame middleware's RenderableError hook — never the API envelope. Unlike the JWT bearer
// grant's table (./token-errors.ts), the description says what was wrong with this request.
import type { RenderableError } from '../http/middleware/frame.ts';
import type { ApiResult } from '../http/request.ts';

export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'unsupported_token_type',
] as const;

export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

export class OAuthError extends Error implements RenderableError {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** For the log only: which check failed, when the description does not say. */
    readonly reason?: string,
  ) {
    super(`${error}: ${reason ?? description}`);
    this.name = 'OAuthError';
  }

  /** RFC 6749 §5.2: a failed client authentication is 401 with the Basic challenge (the scheme this endpoint accepts). */
  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }

  toResult(): ApiResult {
    const headers: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
    if (this.error === 'invalid_client') headers['WWW-Authenticate'] = 'Basic realm="oauth", charset="UTF-8"';
    return { status: this.status, body: { error: this.error, error_description: this.description }, headers };
  }
}
