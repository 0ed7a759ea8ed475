// The token endpoint's error table (the service specification's "Authentication" codes, plus the
// RFC 6749 codes the endpoint also answers with), once, as data. These errors render themselves as
// `{error, error_description}` (RFC 6749 §5.2), never as the API's error envelope:
// lib/http/error-map.ts hands them their own rendering.

import type { TokenErrorCode } from '../domain/schemas/token.ts';

const TOKEN_ERRORS = {
  jwt_bearer_missing_assertion: 'JWT Bearer assertion is missing.',
  jwt_bearer_invalid: 'JWT Bearer token is invalid.',
  jwt_bearer_invalid_signature: 'JWT Bearer token has an invalid signature.',
  jwt_bearer_expired: 'JWT Bearer token has expired.',
  jwt_bearer_invalid_issuer: 'JWT Bearer token has an invalid issuer.',
  jwt_bearer_invalid_audience: 'JWT Bearer token has an invalid audience.',
  jwt_bearer_invalid_user: 'JWT Bearer token subject does not match a valid user.',
  // RFC 6749 §5.2 codes beyond the specification's list; invalid_request says which rule per occurrence.
  unsupported_grant_type: 'The grant_type must be urn:ietf:params:oauth:grant-type:jwt-bearer.',
  invalid_request: 'The token request is malformed.',
  invalid_scope: 'None of the requested scopes may be granted to this application and user.',
} as const satisfies Record<TokenErrorCode, string>;

export type { TokenErrorCode } from '../domain/schemas/token.ts';

/** A refused token request as the client sees it: always 400, never cached. */
interface TokenErrorRendering {
  statusCode: 400;
  body: { error: TokenErrorCode; error_description: string };
  headers: Record<string, string>;
}

/**
 * A refused token request. `reason` is for the log only (which check failed); the client sees the
 * table's constant description, so a probe learns no more than the specification's error code.
 */
export class TokenError extends Error {
  static readonly code = 'ERR_TOKEN_REQUEST';
  readonly code = TokenError.code;
  readonly error: TokenErrorCode;
  readonly description: string;

  constructor(
    error: TokenErrorCode,
    readonly reason: string,
    description?: string,
  ) {
    super(`${error}: ${reason}`);
    this.name = 'TokenError';
    this.error = error;
    this.description = description ?? TOKEN_ERRORS[error];
  }

  render(): TokenErrorRendering {
    return {
      statusCode: 400,
      body: { error: this.error, error_description: this.description },
      headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
    };
  }
}
