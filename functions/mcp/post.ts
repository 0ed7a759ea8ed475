// POST {app_url}/mcp — the Model Context Protocol server (Streamable HTTP transport, stateless,
// JSON responses: API Gateway's REST integration buffers answers, so no event stream). The body the
// pipeline parsed goes to the SDK's web-standard transport; its answer becomes the route's.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { config } from '#lib/config.ts';
import { McpRequestBody } from '#lib/domain/schemas/mcp.ts';
import { McpResponseBody } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { ApiError } from '#lib/http/errors.ts';
import { admitBatch } from '#lib/http/mcp/batches.ts';
import { checkAccept, protocolVersion, TRANSPORT_ACCEPT } from '#lib/http/mcp/headers.ts';
import { answerMessages } from '#lib/http/mcp/messages.ts';
import { mcpServer, withErrorCodes } from '#lib/http/mcp/server.ts';
import { principalOf, type ApiRequest } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

/** The request headers the transport reads, but Accept (below). */
const TRANSPORT_HEADERS = ['content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

export const handler = authedApi(routes.mcp, { body: McpRequestBody, responses: { 200: McpResponseBody, 202: null } }, async (req, { body }) => {
  checkAccept(req);
  await admitBatch(req, body, protocolVersion(req, body));
  const answer = await answerMessages(body, (message) => serve(req, message));
  return answer === undefined ? { status: 202 } : { status: 200, body: answer as typeof body };
});

/** The SDK's answer to `message` (one, or a batch): its response(s), or undefined when it carried no request. */
async function serve(req: ApiRequest, message: unknown): Promise<unknown> {
  const server = mcpServer(principalOf(req), req.log, req);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const headers = new Headers();
    for (const name of TRANSPORT_HEADERS) {
      const value = req.headers.get(name);
      if (value !== undefined) headers.set(name, value);
    }
    // checkAccept judged the client's Accept by RFC 9110; the transport's check would refuse a range such as */*.
    headers.set('accept', TRANSPORT_ACCEPT);
    const response = await transport.handleRequest(new Request(config.mcpUrl, { method: 'POST', headers }), { parsedBody: message });
    const text = await response.text();
    if (response.status === 202) return undefined;
    if (response.status === 200) return withErrorCodes(JSON.parse(text));
    // A refusal of the transport's own that the checks above do not foresee (they take what its
    // schemas refuse, `_meta` too): the client's mistake, in the envelope, with its message as the detail.
    const refusal = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? `The MCP transport refused the request (${response.status}).`;
    throw new ApiError('request.invalid', `${refusal.replace(/^[^:]*: /, '')} (the MCP Streamable HTTP transport).`);
  } finally {
    await server.close();
  }
}
