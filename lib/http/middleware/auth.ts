import { authenticateWith } from '../../auth/bearer.ts';
import { isUuid } from '../../domain/input.ts';
import { canonicalScope } from '../../domain/scopes.ts';
import type { Route } from '../../routes.ts';
import { keys } from '../../store/keys.ts';
import { ApiError } from '../errors.ts';
import type { ApiMiddleware } from '../request.ts';

/** Bearer authentication and the route table's scope (or admin) requirement. */
export function auth(route: Route): ApiMiddleware {
  return {
    before: async (request) => {
      if (route.auth === 'none') return;
      const api = request.context.api;
      const id = api.params.id;
      // Only a well-formed id names an item; anything else is the handler's 400 to give.
      const prefetch = route.prefetch && isUuid(id) ? (ws: string) => keys[route.prefetch!](ws, id.toLowerCase()) : undefined;
      const { principal, preread } = await authenticateWith(api.headers.get('authorization'), prefetch);
      api.principal = principal;
      api.preread = preread;
      api.log.appendPersistentKeys({ workspaceId: principal.workspaceId, tokenId: principal.tokenId });
      if (route.auth === 'admin') {
        if (principal.role !== 'admin' || principal.credential !== 'api') {
          throw new ApiError('auth.accessDenied', 'This operation needs an API token of an admin member of the workspace.');
        }
        return;
      }
      const needed = canonicalScope(route.auth)!;
      if (!principal.scopes.has(needed)) {
        throw new ApiError('auth.accessDenied', `This operation needs the scope '${needed}', which the token does not carry.`);
      }
    },
  };
}
