// The protected resources this service serves (RFC 8707 resource indicators) and the metadata a
// client discovers them by (RFC 9728): the REST API at {base_url}, and the MCP server at
// {app_url}/mcp. A token's audience is one of them; lib/auth/bearer.ts refuses it at the other.
import { config } from '../config.ts';
import type { Scope } from '../domain/scopes.ts';
import type { Resource } from '../routes.ts';

/** The resource's identifier: what a client sends as `resource` and what its tokens carry as `aud`. */
export const resourceUrl = (resource: Resource = 'api'): string => (resource === 'mcp' ? config.mcpUrl : config.baseUrl);

/** RFC 9728 §3.1: the metadata of a resource with a path lives at the well-known path followed by the resource's path. */
const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
const mcpResourceMetadataUrl = (): string => `${config.appUrl}${PROTECTED_RESOURCE_METADATA_PATH}/mcp`;

/**
 * The scopes the MCP server's tools require, each its REST route's (test/mcp/tools.test.ts ties
 * this list to the tools): what a client asks for when it follows the metadata, and no more.
 */
export const MCP_SCOPES = ['entities:read', 'notes:read', 'notes:write'] as const satisfies readonly Scope[];

/** RFC 9728 §2 metadata of the MCP server. */
export function mcpResourceMetadata() {
  return {
    resource: config.mcpUrl,
    // The issuer of lib/auth/authorization-server-metadata.ts.
    authorization_servers: [config.appUrl],
    bearer_methods_supported: ['header' as const],
    scopes_supported: [...MCP_SCOPES],
    resource_name: 'Product management MCP server',
  };
}

/** RFC 9728 §5.1: a 401 of the resource points at its metadata. */
export const mcpChallenge = (): string => `Bearer resource_metadata="${mcpResourceMetadataUrl()}"`;
