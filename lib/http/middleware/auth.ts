import { authenticate } from '../../auth/bearer.ts';
import { canonicalScope } from '../../domain/scopes.ts';
import type { Route } from '../../routes.ts';
import { ApiError } from '../errors.ts';
import type { ApiMiddleware } from '../request.ts';

/** Bearer authentication and the route table's scope (or admin) requirement. */
export function auth(route: Route): ApiMiddleware {
  return {
    before: async (request) => {
      if (route.auth === 'none') return;
      const api = request.context.api;
      const principal = await authenticate(api.headers.get('authorization'));
      api.principal = principal;
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
