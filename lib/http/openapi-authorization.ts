// The authorization code flow's part of the OpenAPI document: its operations, with request and
// response shapes generated from the zod schemas in lib/domain/oauth-schemas.ts (a generator that
// reads zod picks them up the same way).
import { z } from 'zod';
import { OAUTH_PATHS } from '../auth/authorization-server-metadata.ts';
import { AuthorizationQuery, ConsentForm, OAuthErrorBody, OAuthTokenResponse, RevocationForm, SignInForm, TokenRequestForm } from '../domain/oauth-schemas.ts';
import { SCOPE_DESCRIPTIONS } from '../domain/scope-descriptions.ts';
import { SCOPES } from '../domain/scopes.ts';

/** A zod schema as an OpenAPI 3.1 (JSON Schema 2020-12) schema, without the $schema line. */
function schemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return json;
}

const form = (schema: z.ZodType) => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema: schemaOf(schema) } } });
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const seeOther = (description: string) => ({ description, headers: { Location: { schema: { type: 'string', format: 'uri-reference' } } } });
const oauthError = (description: string) => ({ description, content: { 'application/json': { schema: schemaOf(OAuthErrorBody) } } });

const queryParameters = () => {
  const json = schemaOf(AuthorizationQuery) as { properties: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(json.properties).map(([name, schema]) => ({ name, in: 'query', required: json.required?.includes(name) ?? false, schema }));
};

/** The operations by operationId: what each answers (besides the summary the route table gives). */
export function authorizationOperations(): Record<string, Record<string, unknown>> {
  return {
    getAuthorizationServerMetadata: {
      responses: { '200': { description: 'RFC 8414 metadata; issuer is {app_url}', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
    authorize: {
      parameters: queryParameters(),
      responses: {
        '200': html('The sign-in page, or for a signed-in member the consent page'),
        '303': seeOther("A problem the client must hear about: the registered redirect URI with error, error_description, state and iss"),
        '400': html('An unknown client or an unregistered redirect URI: an error page, never a redirect'),
      },
    },
    signIn: {
      requestBody: form(SignInForm),
      responses: {
        '303': seeOther('Signed in: a session cookie, and back to the authorization endpoint'),
        '401': html('The sign-in page again: wrong e-mail or password (never saying which)'),
        '403': html('The form lacks the CSRF token its cookie binds'),
        '429': html('Too many failed attempts for this e-mail or from this address; Retry-After says how long'),
      },
    },
    consent: {
      requestBody: form(ConsentForm),
      responses: {
        '303': seeOther('To the registered redirect URI: code, state and iss after Allow; error=access_denied after Deny'),
        '403': html('The form lacks the CSRF token of the session'),
      },
    },
    oauthToken: {
      security: [{}, { OAuthClientBasic: [] }],
      requestBody: form(TokenRequestForm),
      responses: {
        '200': { description: 'Tokens (RFC 6749 §5.1); Cache-Control: no-store', content: { 'application/json': { schema: schemaOf(OAuthTokenResponse) } } },
        '400': oauthError('RFC 6749 §5.2: invalid_request, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope, invalid_target'),
        '401': oauthError('invalid_client, with WWW-Authenticate: Basic'),
      },
    },
    revokeToken: {
      security: [{}, { OAuthClientBasic: [] }],
      requestBody: form(RevocationForm),
      responses: {
        '200': { description: 'Revoked — or unknown, which RFC 7009 answers the same' },
        '400': oauthError('invalid_request, unauthorized_client (another client\'s token), unsupported_token_type'),
        '401': oauthError('invalid_client, with WWW-Authenticate: Basic'),
      },
    },
  };
}

/** The OAuth2 security scheme: the flow's real endpoints, and each scope in words. */
export const oauth2SecurityScheme = () => ({
  type: 'oauth2',
  description: 'User-authorized access (docs/oauth.md); the discovery document is at /.well-known/oauth-authorization-server.',
  flows: {
    authorizationCode: {
      authorizationUrl: OAUTH_PATHS.authorize,
      tokenUrl: OAUTH_PATHS.token,
      refreshUrl: OAUTH_PATHS.token,
      scopes: Object.fromEntries(SCOPES.map((s) => [s, SCOPE_DESCRIPTIONS[s].summary])),
    },
  },
});
