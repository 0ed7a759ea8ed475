import { authenticateWith } from '../../auth/bearer.ts';
import { Unauthenticated } from '../../auth/errors.ts';
import { mcpChallenge, resourceUrl } from '../../auth/protected-resource.ts';
import { isUuid } from '../../domain/input.ts';
import { canonicalScope } from '../../domain/scopes.ts';
import type { Route } from '../../routes.ts';
import { keys } from '../../store/keys.ts';
import { ApiError } from '../errors.ts';
import type { ApiMiddleware } from '../request.ts';

/** Bearer authentication for the route's resource (its audience), then the route table's scope (or admin) requirement. */
export function auth(route: Route): ApiMiddleware {
  return {
    before: async (request) => {
      if (route.auth === 'none') return;
      const api = request.context.api;
      const id = api.params.id;
      // Only a well-formed id names an item; anything else is the handler's 400 to give.
      const prefetch = route.prefetch && isUuid(id) ? (ws: string) => keys[route.prefetch!](ws, id.toLowerCase()) : undefined;
      const { principal, preread } = await authenticateWith(api.headers.get('authorization'), prefetch, resourceUrl(route.resource)).catch((err: unknown) => {
        // The MCP server's 401 tells a client where to discover how to get a token (RFC 9728 §5.1).
        if (route.resource === 'mcp' && err instanceof Unauthenticated) throw new ApiError('auth.invalid', err.detail, { headers: { 'WWW-Authenticate': mcpChallenge() }, cause: err });
        throw err;
      });
      api.principal = principal;
      api.preread = preread;
      api.log.appendPersistentKeys({ workspaceId: principal.workspaceId, tokenId: principal.tokenId });
      if (route.auth === 'admin') {
        if (principal.role !== 'admin' || principal.credential !== 'api') {
          throw new ApiError('auth.accessDenied', 'This operation needs an API token of an admin member of the workspace.');
        }
        return;
      }
      // Any live token of the resource: the MCP server's tools each check their REST route's scope.
      if (route.auth === 'bearer') return;
      const needed = canonicalScope(route.auth)!;
      if (!principal.scopes.has(needed)) {
        throw new ApiError('auth.accessDenied', `This operation needs the scope '${needed}', which the token does not carry.`);
      }
    },
  };
}
