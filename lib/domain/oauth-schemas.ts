// Request and response shapes of the authorization code flow, once, as zod schemas: the handlers
// validate forms with them and the OpenAPI generator documents them. Forms are not strict: RFC 6749
// §3.1 and §3.2 require unrecognised parameters to be ignored, so standard clients' extras pass.
import { z } from 'zod';
import { MAX_STATE_LENGTH } from './authorization-request.ts';

const text = (max: number) => z.string().min(1).max(max);

/** GET /oauth/authorize query (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 8707 §2). */
export const AuthorizationQuery = z.object({
  response_type: z.literal('code'),
  client_id: text(100),
  redirect_uri: text(2000),
  scope: text(1024).optional().describe('Space-separated scopes; the application\'s default scopes when omitted'),
  state: z.string().max(MAX_STATE_LENGTH).optional(),
  code_challenge: z.string().length(43).optional().describe('Required of public clients'),
  code_challenge_method: z.literal('S256').optional(),
  resource: z.string().optional().describe('RFC 8707: the resource the tokens are for; {base_url} when omitted'),
});

/** POST /oauth/sign-in (the sign-in page's form). */
export const SignInForm = z.object({
  csrf_token: text(256),
  request: text(8192).describe('The authorization request query string, as the page received it'),
  email: text(254),
  password: text(1024),
});

/** POST /oauth/consent (the consent page's form). */
export const ConsentForm = z.object({
  csrf_token: text(256),
  request: text(8192),
  decision: z.enum(['allow', 'deny']),
});

const clientFields = {
  client_id: text(512).optional().describe('client_secret_post and public clients'),
  client_secret: text(512).optional().describe('client_secret_post'),
};

/** POST /oauth/token, grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.5). */
export const AuthorizationCodeGrantForm = z.object({
  grant_type: z.literal('authorization_code'),
  code: text(512),
  redirect_uri: text(2000),
  code_verifier: z.string().min(43).max(128).optional().describe('Required when the authorization request had a code_challenge'),
  scope: text(1024).optional().describe('May narrow the granted scopes, never widen them'),
  resource: text(2000).optional(),
  ...clientFields,
});

/** POST /oauth/token, grant_type=refresh_token (RFC 6749 §6). */
export const RefreshTokenGrantForm = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: text(512),
  scope: text(1024).optional().describe('May narrow the granted scopes, never widen them'),
  resource: text(2000).optional(),
  ...clientFields,
});

export const TokenRequestForm = z.discriminatedUnion('grant_type', [AuthorizationCodeGrantForm, RefreshTokenGrantForm]);

/** RFC 6749 §5.1 */
export const OAuthTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().describe('Seconds: 3600'),
  refresh_token: z.string().describe('Single use: every refresh returns a new one; 30 days from the grant'),
  scope: z.string(),
});

/** POST /oauth/revoke (RFC 7009 §2.1). */
export const RevocationForm = z.object({
  token: text(4096),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
  ...clientFields,
});

/** RFC 6749 §5.2 */
export const OAuthErrorBody = z.object({ error: z.string(), error_description: z.string() });
