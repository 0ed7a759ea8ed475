// GET {app_url}/.well-known/oauth-authorization-server — authorization server metadata (RFC 8414).
import { authorizationServerMetadata } from '#lib/auth/authorization-server-metadata.ts';
import { config } from '#lib/config.ts';
import { AuthorizationServerMetadata } from '#lib/domain/schemas/responses.ts';
import { api } from '#lib/http/pipeline.ts';

export const handler = api('getAuthorizationServerMetadata', { responses: { 200: AuthorizationServerMetadata } }, () =>
  Promise.resolve({ status: 200, body: authorizationServerMetadata(config.appUrl), headers: { 'Cache-Control': 'public, max-age=300' } }),
);
