// CORS headers on the actual responses of the routes browser clients may call (lib/routes.ts
// allowsCors), success or error. With an access token of the authorization code flow: only its own
// application's origins. Without a principal (the token and revocation endpoints, or a request whose
// token was refused): any origin of a registered redirect URI, so the client can read the error.
// An API token is not for browsers: no CORS for it, whatever the origin. The routes that take any
// origin (`cors: 'public'`): `*`.
//
// The routes that refuse foreign origins (the MCP server's: its transport requires a server to answer
// 403 to a request whose Origin is present and not valid, against DNS rebinding) judge the Origin on
// the way in: an Origin that is not a serialised origin, before anything else; then, once the bearer
// check has found a principal, an origin that is not one of its application's. A request without
// credentials does nothing but learn, in its 401, where to get them, whatever its origin: that is how
// a browser-based client that has not registered yet finds the authorization server.
import { allowsCors, type Route } from '../../routes.ts';
import { isRegisteredOrigin } from '../../store/cors-origins.ts';
import { ANY_ORIGIN, corsResponseHeaders, requestOrigin } from '../cors.ts';
import { ApiError } from '../errors.ts';
import type { ApiMiddleware, ApiRequest } from '../request.ts';

async function allowedOrigin(route: Route, api: ApiRequest): Promise<string | undefined> {
  const origin = requestOrigin(api.headers.get('origin'));
  if (!origin) return undefined;
  if (route.cors === 'public') return ANY_ORIGIN;
  if (api.principal) return api.principal.corsOrigins?.includes(origin) ? origin : undefined;
  return (await isRegisteredOrigin(origin)) ? origin : undefined;
}

const foreignOrigin = (sent: string, why: string) =>
  new ApiError('auth.accessDenied', `Origin ${JSON.stringify(sent.slice(0, 100))} ${why}.`, { source: { parameter: 'Origin' } });

/** An Origin that names no origin (`null`, a path, not a URL) is refused where foreign origins are. */
function refuseUnnamed(route: Route): Pick<ApiMiddleware, 'before'> {
  if (!route.refusesForeignOrigins) return {};
  return {
    before: (request) => {
      const sent = request.context.api.headers.get('origin');
      if (sent !== undefined && !requestOrigin(sent))
        throw foreignOrigin(sent, 'is not a serialised origin (scheme://host[:port]), so no application can own it');
    },
  };
}

export function cors(route: Route): ApiMiddleware {
  const enabled = allowsCors(route);
  const answer = async (api: ApiRequest | undefined) => {
    if (!enabled || !api) return;
    const origin = await allowedOrigin(route, api);
    if (origin) Object.assign(api.responseHeaders, corsResponseHeaders(origin));
  };
  return {
    ...refuseUnnamed(route),
    after: (request) => answer(request.context.api),
    onError: (request) => answer(request.context.api),
  };
}

/** On a route that refuses foreign origins, after the bearer check: a browser's Origin must be one of the caller's own application. */
export function callerOrigin(route: Route): ApiMiddleware[] {
  if (!route.refusesForeignOrigins) return [];
  return [
    {
      before: (request) => {
        const { headers, principal } = request.context.api;
        const sent = headers.get('origin');
        if (sent === undefined || !principal || principal.corsOrigins?.includes(sent)) return;
        throw foreignOrigin(
          sent,
          principal.corsOrigins
            ? "is not the origin of a redirect URI of the token's application: its token works in a browser only on those origins"
            : 'comes with an API token, which is not for browsers',
        );
      },
    },
  ];
}
