// GET {app_url}/.well-known/oauth-protected-resource — the MCP server's protected resource metadata (RFC 9728).
import { mcpResourceMetadata } from '#lib/auth/protected-resource.ts';
import { ProtectedResourceMetadata } from '#lib/domain/schemas/responses.ts';
import { api } from '#lib/http/pipeline.ts';
import * as routes from '#lib/routes.ts';

export const handler = api(routes.getProtectedResourceMetadata, { responses: { 200: ProtectedResourceMetadata } }, () =>
  Promise.resolve({ status: 200, body: mcpResourceMetadata(), headers: { 'Cache-Control': 'public, max-age=300' } }),
);
