// GET {app_url}/mcp — the server opens no event stream (stateless, JSON responses): 405, Allow: POST.
import { mcpMethodNotAllowed } from '#lib/http/mcp/method-not-allowed.ts';
import { api } from '#lib/http/pipeline.ts';
import * as routes from '#lib/routes.ts';

export const handler = api(routes.mcpGet, { responses: {}, errors: ['request.methodNotAllowed'] }, mcpMethodNotAllowed);
