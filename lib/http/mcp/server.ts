// The MCP server of one request (stateless: every request builds its own, so any function
// instance can answer any request): the tools, each requiring the scope of the REST route it
// mirrors, bound to the caller's principal. What a tool throws becomes an MCP tool error
// (`isError: true`) carrying the error envelope's code and detail; a fault stays a fault.
import type { Logger } from '@aws-lambda-powertools/logger';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { McpTool } from './tool.ts';
import { getEntityTool, searchEntities } from './tools/entities.ts';
import { createNoteTool, getNoteTool, listNotes, rateLink } from './tools/notes.ts';
import { getCustomerDemand, listObjectives, listReleasesOfArea, rankPlanByCustomerScore } from './tools/planning.ts';
import { getCustomerScore, rankByCustomerScore } from './tools/scores.ts';
import type { Principal } from '../../auth/principal.ts';
import { canonicalScope } from '../../domain/scopes.ts';
import type { WriteScope } from '../../store/idempotency.ts';
import { EDGE_DETAILS } from '../envelope.ts';
import { apiErrorOf } from '../error-map.ts';
import { ApiError } from '../errors.ts';

export const TOOLS: readonly McpTool[] = [
  getCustomerScore,
  rankByCustomerScore,
  searchEntities,
  getEntityTool,
  getCustomerDemand,
  rankPlanByCustomerScore,
  listReleasesOfArea,
  listObjectives,
  listNotes,
  getNoteTool,
  createNoteTool,
  rateLink,
];

const SERVER_INFO = { name: 'pm-score-api', title: 'Product management: customer scores, entities and notes', version: '1.0.0' };

/** The scope a tool requires: its REST route's, from lib/routes.ts. */
export function requiredScope(t: McpTool) {
  return canonicalScope(t.mirrors.auth)!;
}

/** A refusal as a tool error: the envelope's code and detail in the structured content and the text. */
export function toolError(err: ApiError): CallToolResult {
  const error = { code: err.code, title: err.title, detail: err.detail, ...(err.source ? { source: err.source } : {}) };
  return { isError: true, content: [{ type: 'text', text: `${err.code}: ${err.detail}` }], structuredContent: { errors: [error] } };
}

/**
 * McpServer's JSON Schema validator checks only a client's answers to an elicitation request, and this
 * server sends none: passing this one keeps the SDK from building its default (ajv with its formats)
 * on every request.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error('This MCP server sends no elicitation request, so it has no answer to check against a schema.');
  },
};

export function mcpServer(principal: Principal, log: Logger, at: WriteScope): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, jsonSchemaValidator: NO_ELICITATION });
  for (const t of TOOLS) {
    const scope = requiredScope(t);
    server.registerTool(
      t.name,
      { title: t.title, description: t.description, inputSchema: t.input, annotations: { readOnlyHint: t.readOnly, openWorldHint: false } },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        if (!principal.scopes.has(scope))
          return toolError(new ApiError('auth.accessDenied', `The tool ${t.name} needs the scope '${scope}', which the token does not carry.`));
        try {
          const { text, data } = await t.run(principal, args, at);
          return { content: [{ type: 'text', text }], structuredContent: data };
        } catch (err) {
          const known = apiErrorOf(err);
          if (known && known.status < 500) {
            log.info('tool refused', { tool: t.name, code: known.code });
            return toolError(known);
          }
          // Ours to fix: the cause goes to the log, never to the client.
          log.error('tool failed', { tool: t.name, error: err });
          return toolError(new ApiError('internal.serverError', EDGE_DETAILS['internal.serverError']));
        }
      },
    );
  }
  return server;
}

/**
 * A tool error the SDK gives itself carries only text (arguments and tool names are checked before
 * it sees them, lib/http/mcp/messages.ts, so this is for any other it may give): it gets the
 * envelope's code and detail like every other tool error, without the SDK's "MCP error -32602: ".
 * `message` is a JSON-RPC response as the transport answered it.
 */
export function withErrorCodes(message: unknown): unknown {
  if (Array.isArray(message)) return message.map(withErrorCodes);
  const result = (message as { result?: CallToolResult } | null)?.result;
  if (result?.isError !== true || result.structuredContent !== undefined) return message;
  const text = result.content.find((c) => c.type === 'text');
  const detail = text?.type === 'text' ? text.text.replace(/^MCP error -?\d+: /, '') : 'The tool call was refused.';
  return { ...(message as object), result: toolError(new ApiError('request.invalid', detail)) };
}
