// The token endpoint (POST {app_url}/oauth2/token, the JWT bearer grant of RFC 7523): its form and
// its answers, which are RFC 6749's, never the error envelope.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedString, strictObject } from './build.ts';

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * The form. Loose on purpose: RFC 6749 (3.2) has the token endpoint ignore parameters it does not
 * recognise. lib/auth/token-request.ts parses it and maps each refusal to its OAuth error code.
 */
export const TokenForm = /* @__PURE__ */ (() =>
  doc(
    z.looseObject({
      grant_type: z.literal(JWT_BEARER_GRANT),
      assertion: doc(checkedString(z.minLength(1)), 'The signed JWT (RS256)'),
      scope: z.optional(
        doc(z.string(), "Space-separated scopes (RFC 7523 §2.1), as the assertion's scope claim takes them; the two may not differ when both are given"),
      ),
    }),
    { id: 'JwtBearerGrant' },
  ))();

/** The codes of the token endpoint's refusals (lib/auth/token-errors.ts gives each its description). */
export const TOKEN_ERROR_CODES = [
  'jwt_bearer_missing_assertion',
  'jwt_bearer_invalid',
  'jwt_bearer_invalid_signature',
  'jwt_bearer_expired',
  'jwt_bearer_invalid_issuer',
  'jwt_bearer_invalid_audience',
  'jwt_bearer_invalid_user',
  'unsupported_grant_type',
  'invalid_request',
  'invalid_scope',
] as const;
export type TokenErrorCode = (typeof TOKEN_ERROR_CODES)[number];

export const ACCESS_TOKEN_SECONDS = 300;

export const TokenResponse = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      access_token: z.string(),
      token_type: z.literal('Bearer'),
      expires_in: z.literal(ACCESS_TOKEN_SECONDS),
      scope: doc(z.string(), 'The granted scopes, space-separated'),
    }),
    { id: 'TokenResponse' },
  ))();

export const OAuthError = /* @__PURE__ */ (() =>
  doc(strictObject({ error: z.enum(TOKEN_ERROR_CODES), error_description: z.string() }), { id: 'OAuthError' }))();

/** The token endpoint defines no query parameter; its handler refuses any as an OAuth error (lib/http/form.ts queryStringProblem). */
export const TokenQuery = /* @__PURE__ */ (() => z.looseObject({}))();
