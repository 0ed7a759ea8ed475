// The error codes of the authorization code flow's token, revocation and registration endpoints,
// zod-free so that every function's error mapping (lib/auth/oauth-errors.ts) can name them without
// bundling the flow's schemas (./schemas/authorization.ts declares its error body with them).

export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'unsupported_token_type',
  // RFC 6749 has no code for "too many requests"; RFC 8628 §3.5 registered this one for token
  // endpoint responses (IANA's OAuth Extensions Error registry): send less often. With 429 and
  // Retry-After when the client's or the source address's request budget is spent.
  'slow_down',
  // RFC 7591 §3.2.2: the client registration endpoint's refusals.
  'invalid_redirect_uri',
  'invalid_client_metadata',
] as const;
