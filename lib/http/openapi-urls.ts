// The deployment's own addresses in the OpenAPI document: the server and the OAuth 2.0 endpoints.
// docs/openapi.json is generated with the local {app_url}; GET {base_url}/openapi.json answers the
// same document with the deployment's. No zod here: the served function's bundle stays small.
import { type SCOPES } from '../domain/scopes.ts';

/** {app_url} of the local stack (README.md): the address docs/openapi.json is written with. */
export const LOCAL_APP_URL = 'http://localhost:3000';

export const SCOPE_MEANINGS: Record<(typeof SCOPES)[number], string> = {
  'entities:read': 'Read entities',
  'write:entities': 'Create and modify entities',
  'entities:delete': 'Delete entities',
  'notes:read': 'Read notes',
  'notes:write': 'Create and modify notes and their relationships',
  'notes:delete': 'Delete notes',
};

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
      OAuth2: {
        type: 'oauth2',
        description: "OAuth 2.0 authorization code flow; an operation's scope is its security requirement",
        flows: {
          authorizationCode: {
            authorizationUrl: `${appUrl}/oauth/authorize`,
            tokenUrl: `${appUrl}/oauth/token`,
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
