import { authenticateWith } from '../../auth/bearer.ts';
import { Unauthenticated } from '../../auth/errors.ts';
import { mcpChallenge, resourceUrl } from '../../auth/protected-resource.ts';
import { canonicalScope } from '../../domain/scopes.ts';
import type { Route } from '../../routes.ts';
import { ApiError } from '../errors.ts';
import { prefetchFor } from '../prefetch.ts';
import { repeatedHeader, type ApiMiddleware } from '../request.ts';

/**
 * Bearer authentication for the route's resource (its audience). What the route permits the caller
 * is checked by permit(), after the request has spent its budget: a refused caller is still an
 * authenticated one, so its 403 counts and carries the counters like any answer it gets.
 * `prefetch`: what the handler will read besides the path's item (lib/http/prefetch.ts).
 */
export function auth(route: Route, prefetch: Parameters<typeof prefetchFor>[2] = {}): ApiMiddleware {
  return {
    before: async (request) => {
      if (route.auth === 'none') return;
      const api = request.context.api;
      const authenticated = async () => {
        const repeated = repeatedHeader(api, 'authorization');
        if (repeated) throw new Unauthenticated(repeated);
        return authenticateWith(api.headers.get('authorization'), prefetchFor(route, api, prefetch), resourceUrl(route.resource));
      };
      const { principal, preread } = await authenticated().catch((err: unknown) => {
        // The MCP server's 401 tells a client where to discover how to get a token (RFC 9728 §5.1).
        if (route.resource === 'mcp' && err instanceof Unauthenticated)
          throw new ApiError('auth.invalid', err.detail, { headers: { 'WWW-Authenticate': mcpChallenge() }, cause: err });
        throw err;
      });
      api.principal = principal;
      api.preread = preread;
      api.log.appendKeys({ workspaceId: principal.workspaceId, tokenId: principal.tokenId });
    },
  };
}

/** The route table's scope (or admin) requirement of the authenticated caller. */
export function permit(route: Route): ApiMiddleware {
  return {
    before: (request) => {
      const principal = request.context.api.principal;
      // Any live token of the resource: the MCP server's tools each check their REST route's scope.
      if (!principal || route.auth === 'bearer') return;
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
