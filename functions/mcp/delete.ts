// DELETE {app_url}/mcp — a stateless server has no session to end: 405, Allow: POST.
import { mcpMethodNotAllowed } from '#lib/http/mcp/method-not-allowed.ts';
import { api } from '#lib/http/pipeline.ts';
import * as routes from '#lib/routes.ts';

export const handler = api(routes.mcpDelete, { responses: {}, errors: ['request.methodNotAllowed'] }, mcpMethodNotAllowed);
