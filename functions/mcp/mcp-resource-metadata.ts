// GET {app_url}/.well-known/oauth-protected-resource/mcp — the same metadata at the location RFC 9728
// §3.1 derives from the resource {app_url}/mcp (the one the 401's resource_metadata names).
import { mcpResourceMetadata } from '#lib/auth/protected-resource.ts';
import { ProtectedResourceMetadata } from '#lib/domain/schemas/responses.ts';
import { api } from '#lib/http/pipeline.ts';
import * as routes from '#lib/routes.ts';

export const handler = api(routes.getMcpResourceMetadata, { responses: { 200: ProtectedResourceMetadata } }, () =>
  Promise.resolve({ status: 200, body: mcpResourceMetadata(), headers: { 'Cache-Control': 'public, max-age=300' } }),
);
