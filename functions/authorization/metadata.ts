// GET {app_url}/.well-known/oauth-authorization-server — authorization server metadata (RFC 8414).
import { authorizationServerMetadata } from '#lib/auth/authorization-server-metadata.ts';
import { config } from '#lib/config.ts';
import { AuthorizationServerMetadata } from '#lib/domain/schemas/responses.ts';
import { api } from '#lib/http/pipeline.ts';
import * as routes from '#lib/routes.ts';

export const handler = api(routes.getAuthorizationServerMetadata, { responses: { 200: AuthorizationServerMetadata } }, () =>
  Promise.resolve({ status: 200, body: authorizationServerMetadata(config.appUrl), headers: { 'Cache-Control': 'public, max-age=300' } }),
);
