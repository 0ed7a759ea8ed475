// GET and DELETE {app_url}/mcp: the server is stateless and answers in JSON, so there is no event
// stream to open and no session to end (the Streamable HTTP transport lets a server answer 405).
import { ApiError } from '../errors.ts';

export const mcpMethodNotAllowed = (): Promise<never> =>
  Promise.reject(
    new ApiError(
      'request.methodNotAllowed',
      'The MCP server takes only POST: it is stateless and answers in JSON, with no event stream to open and no session to end.',
      {
        headers: { Allow: 'POST, OPTIONS' },
      },
    ),
  );
