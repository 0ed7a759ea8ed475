// Errors of the authorization code flow's token and revocation endpoints (RFC 6749 §5.2, RFC 7009
// §2.2.1, RFC 8707 §2): `{error, error_description}` with Cache-Control: no-store, never the API
// envelope — like the JWT bearer grant's TokenError (./token-errors.ts), it renders itself and
// lib/http/error-map.ts hands it that rendering. Unlike that grant's fixed table, the description
// says what was wrong with this request.
import { type OAUTH_ERROR_CODES } from '../domain/oauth-error-codes.ts';

type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** A refused request as the client sees it. */
interface OAuthErrorRendering {
  statusCode: 400 | 401 | 429;
  body: { error: OAuthErrorCode; error_description: string };
  headers: Record<string, string>;
}

export class OAuthError extends Error {
  static readonly code = 'ERR_OAUTH_REQUEST';
  readonly code = OAuthError.code;

  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** For the log only: which check failed, when the description does not say. */
    readonly reason?: string,
    /** slow_down: seconds until a retry can pass (Retry-After). */
    readonly retryAfterS?: number,
  ) {
    super(`${error}: ${reason ?? description}`);
    this.name = 'OAuthError';
  }

  /** A spent request budget (lib/http/token-budgets.ts): 429 with Retry-After. */
  static slowDown(description: string, retryAfterS: number): OAuthError {
    return new OAuthError('slow_down', description, undefined, retryAfterS);
  }

  /**
   * RFC 6749 §5.2: a failed client authentication is 401 with the Basic challenge (the scheme this
   * endpoint accepts); a spent budget is 429 (RFC 6585), everything else 400.
   */
  get status(): 400 | 401 | 429 {
    if (this.error === 'invalid_client') return 401;
    return this.error === 'slow_down' ? 429 : 400;
  }

  render(): OAuthErrorRendering {
    const headers: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
    if (this.error === 'invalid_client') headers['WWW-Authenticate'] = 'Basic realm="oauth", charset="UTF-8"';
    if (this.retryAfterS !== undefined) headers['Retry-After'] = String(this.retryAfterS);
    return { statusCode: this.status, body: { error: this.error, error_description: this.description }, headers };
  }
}
