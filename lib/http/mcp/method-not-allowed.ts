// GET and DELETE {app_url}/mcp: the server is stateless and answers in JSON, so there is no event
// stream to open and no session to end (the Streamable HTTP transport lets a server answer 405).
import { layoutOf, mcp, mcpDelete, mcpGet } from '../../routes.ts';
import { ApiError } from '../errors.ts';

/** The rows of the MCP path: Allow is what the route table gives the edge's 405 there (lib/routes.ts layoutOf). */
const MCP_ROWS = [mcp, mcpGet, mcpDelete];

export const mcpMethodNotAllowed = (): Promise<never> =>
  Promise.reject(
    new ApiError(
      'request.methodNotAllowed',
      'The MCP server takes only POST: it is stateless and answers in JSON, with no event stream to open and no session to end.',
      { headers: { Allow: layoutOf(MCP_ROWS).find((layout) => layout.path === mcp.path)!.allow } },
    ),
  );
