// The authorization code flow ({app_url}/oauth/*, docs/oauth.md): the authorization request, the
// pages' forms, the token and revocation endpoints' forms and answers, and the server metadata.
// Forms and queries are loose: RFC 6749 (3.1, 3.2) has unrecognised parameters ignored, so standard
// clients' extras pass. Their handlers parse them (refusals are pages or RFC 6749 bodies, never the
// error envelope); the declarations document them.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedString, strictObject } from './build.ts';
import { MAX_STATE_LENGTH } from '../authorization-request.ts';
import { OAUTH_ERROR_CODES } from '../oauth-error-codes.ts';
import { SCOPES } from '../scopes.ts';

const text = (max: number) => checkedString(z.minLength(1), z.maxLength(max));

/** GET /oauth/authorize (RFC 6749 4.1.1, RFC 7636 4.3, RFC 8707 2); no id: its properties become the operation's parameters. */
export const AuthorizationQuery = /* @__PURE__ */ (() =>
  z.looseObject({
    response_type: z.literal('code'),
    client_id: text(100),
    redirect_uri: text(2000),
    scope: z.optional(doc(text(1024), "Space-separated scopes; the application's default scopes when omitted")),
    state: z.optional(checkedString(z.maxLength(MAX_STATE_LENGTH))),
    code_challenge: z.optional(doc(checkedString(z.length(43)), 'Required of public clients')),
    code_challenge_method: z.optional(z.literal('S256')),
    resource: z.optional(doc(z.string(), 'RFC 8707: the resource the tokens are for; {base_url} when omitted')),
  }))();

/** POST /oauth/sign-in (the sign-in page's form). */
export const SignInForm = /* @__PURE__ */ (() =>
  doc(
    z.looseObject({
      csrf_token: text(256),
      request: doc(text(8192), 'The authorization request query string, as the page received it'),
      email: text(254),
      password: text(1024),
      workspace: z.optional(doc(text(100), "The member's workspace, asked when the client registered itself (it belongs to no workspace)")),
    }),
    { id: 'SignInForm' },
  ))();

/** POST /oauth/consent (the consent page's form). */
export const ConsentForm = /* @__PURE__ */ (() =>
  doc(z.looseObject({ csrf_token: text(256), request: text(8192), decision: z.enum(['allow', 'deny']) }), { id: 'ConsentForm' }))();

const clientFields = /* @__PURE__ */ (() => ({
  client_id: z.optional(doc(text(512), 'client_secret_post and public clients')),
  client_secret: z.optional(doc(text(512), 'client_secret_post')),
}))();
const narrowing = /* @__PURE__ */ (() => ({
  scope: z.optional(doc(text(1024), 'May narrow the granted scopes, never widen them')),
  resource: z.optional(text(2000)),
}))();

/** grant_type=authorization_code (RFC 6749 4.1.3, RFC 7636 4.5). */
const AuthorizationCodeGrantForm = /* @__PURE__ */ (() =>
  doc(
    z.looseObject({
      grant_type: z.literal('authorization_code'),
      code: text(512),
      redirect_uri: text(2000),
      code_verifier: z.optional(doc(checkedString(z.minLength(43), z.maxLength(128)), 'Required when the authorization request had a code_challenge')),
      ...narrowing,
      ...clientFields,
    }),
    { id: 'AuthorizationCodeGrantForm' },
  ))();

/** grant_type=refresh_token (RFC 6749 6). */
const RefreshTokenGrantForm = /* @__PURE__ */ (() =>
  doc(z.looseObject({ grant_type: z.literal('refresh_token'), refresh_token: text(512), ...narrowing, ...clientFields }), { id: 'RefreshTokenGrantForm' }))();

/** POST /oauth/token. */
export const TokenRequestForm = /* @__PURE__ */ (() =>
  doc(z.discriminatedUnion('grant_type', [AuthorizationCodeGrantForm, RefreshTokenGrantForm]), { id: 'TokenRequestForm' }))();

/** RFC 6749 5.1 */
export const OAuthTokenResponse = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      access_token: z.string(),
      token_type: z.literal('Bearer'),
      expires_in: doc(z.int(), 'Seconds: 3600'),
      refresh_token: doc(z.string(), 'Single use: every refresh returns a new one; 30 days from the grant'),
      scope: z.string(),
    }),
    { id: 'OAuthTokenResponse' },
  ))();

/**
 * POST /oauth/revoke (RFC 7009 2.1). `token_type_hint` only helps a server look: the token is found
 * whatever it says, and a value naming no token type is ignored, as §2.1 has it.
 */
export const RevocationForm = /* @__PURE__ */ (() =>
  doc(
    z.looseObject({
      token: text(4096),
      token_type_hint: z.optional(doc(text(4096), 'access_token or refresh_token; a hint only, ignored when it names no token type (RFC 7009 §2.1)')),
      ...clientFields,
    }),
    { id: 'RevocationForm' },
  ))();

/** The token and revocation endpoints' refusals (RFC 6749 5.2, RFC 7009 2.2.1, RFC 8707 2). */

/** RFC 6749 5.2 */
export const OAuthErrorBody = /* @__PURE__ */ (() =>
  doc(strictObject({ error: z.enum(OAUTH_ERROR_CODES), error_description: z.string() }), { id: 'OAuthErrorBody' }))();

/** The token and revocation endpoints define no query parameter; their handlers refuse any as an OAuth error (lib/http/form.ts queryStringProblem). */
export const OAuthEndpointQuery = /* @__PURE__ */ (() => z.looseObject({}))();

/** RFC 8414 2: what {app_url}/.well-known/oauth-authorization-server answers. */
export const AuthorizationServerMetadata = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      issuer: doc(z.url(), '{app_url}'),
      authorization_endpoint: z.url(),
      token_endpoint: z.url(),
      revocation_endpoint: z.url(),
      registration_endpoint: doc(z.url(), 'Dynamic client registration (RFC 7591), for public clients with PKCE'),
      response_types_supported: z.array(z.string()),
      response_modes_supported: z.array(z.string()),
      grant_types_supported: z.array(z.string()),
      code_challenge_methods_supported: z.array(z.string()),
      token_endpoint_auth_methods_supported: z.array(z.string()),
      revocation_endpoint_auth_methods_supported: z.array(z.string()),
      scopes_supported: z.array(z.enum(SCOPES)),
      authorization_response_iss_parameter_supported: z.boolean(),
    }),
    { id: 'AuthorizationServerMetadata' },
  ))();

/** RFC 7591 §2 client metadata; metadata this server does not use is ignored, as §2 requires. */
export const ClientRegistrationBody = /* @__PURE__ */ (() =>
  doc(
    z.looseObject({
      // Judged by lib/domain/client-registration.ts, whose refusals are RFC 7591's (the envelope's would not be).
      redirect_uris: z.optional(doc(z.unknown(), 'Required: exact-match redirect URIs, https or http on a loopback address')),
      client_name: z.optional(doc(z.unknown(), 'A name shown on the consent page, marked unverified')),
      token_endpoint_auth_method: z.optional(doc(z.unknown(), 'none: public clients only')),
      grant_types: z.optional(doc(z.unknown(), 'authorization_code, and refresh_token')),
      response_types: z.optional(doc(z.unknown(), 'code')),
      scope: z.optional(doc(z.unknown(), 'Space-separated scopes the client may ask for; every scope when omitted')),
    }),
    { id: 'ClientRegistrationBody' },
  ))();

/** RFC 7591 §3.2.1 */
export const ClientRegistrationResponse = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      client_id: z.string(),
      client_id_issued_at: z.int(),
      client_name: z.string(),
      redirect_uris: z.array(z.string()),
      grant_types: z.array(z.string()),
      response_types: z.array(z.string()),
      token_endpoint_auth_method: z.literal('none'),
      scope: z.string(),
    }),
    { id: 'ClientRegistrationResponse' },
  ))();
