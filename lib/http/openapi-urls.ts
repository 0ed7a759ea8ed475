// The deployment's own addresses in the OpenAPI document: the server and the OAuth 2.0 endpoints.
// docs/openapi.json is generated with the local {app_url}; GET {base_url}/openapi.json answers the
// same document with the deployment's. No zod here: the served function's bundle stays small.
import { SCOPE_DESCRIPTIONS } from '../domain/scope-descriptions.ts';
import { SCOPES } from '../domain/scopes.ts';

/** {app_url} of the local stack (README.md): the address docs/openapi.json is written with. */
export const LOCAL_APP_URL = 'http://localhost:3000';

const SCOPE_MEANINGS = Object.fromEntries(SCOPES.map((s) => [s, SCOPE_DESCRIPTIONS[s].summary]));

/** The parts of the document that name {app_url}. */
export function addressed(appUrl: string) {
  return {
    servers: [{ url: appUrl, description: '{app_url}; {base_url} is {app_url}/v2' }],
    securitySchemes: {
      BearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'An API token, or an access token from the token endpoint (POST /oauth2/token) or the authorization code flow',
      },
      OAuthClientBasic: { type: 'http', scheme: 'basic', description: 'client_secret_basic of a confidential authorization-code client (RFC 6749 2.3.1)' },
      OAuth2: {
        type: 'oauth2',
        description:
          "OAuth 2.0 authorization code flow (docs/oauth.md); an operation's scope is its security requirement. Discovery: /.well-known/oauth-authorization-server",
        flows: {
          authorizationCode: {
            authorizationUrl: `${appUrl}/oauth/authorize`,
            tokenUrl: `${appUrl}/oauth/token`,
            refreshUrl: `${appUrl}/oauth/token`,
            scopes: SCOPE_MEANINGS,
          },
        },
      },
    },
  };
}

/** A document (as docs/openapi.json holds it) with the addresses of the deployment at `appUrl`. */
export function atAppUrl<D extends { servers?: unknown; components?: Record<string, unknown> }>(doc: D, appUrl: string): D {
  const { servers, securitySchemes } = addressed(appUrl);
  return { ...doc, servers, components: { ...doc.components, securitySchemes } };
}
