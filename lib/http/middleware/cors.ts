// CORS headers on the actual responses of the routes browser clients may call (lib/routes.ts
// allowsCors), success or error. With an access token of the authorization code flow: only its own
// application's origins. Without a principal (the token and revocation endpoints, or a request whose
// token was refused): any origin of a registered redirect URI, so the client can read the error.
// An API token is not for browsers: no CORS for it, whatever the origin.
import { allowsCors, type Route } from '../../routes.ts';
import { isRegisteredOrigin } from '../../store/cors-origins.ts';
import { corsResponseHeaders, requestOrigin } from '../cors.ts';
import type { ApiMiddleware, ApiRequest } from '../request.ts';

async function allowedOrigin(api: ApiRequest): Promise<string | undefined> {
  const origin = requestOrigin(api.headers.get('origin'));
  if (!origin) return undefined;
  if (api.principal) return api.principal.corsOrigins?.includes(origin) ? origin : undefined;
  return (await isRegisteredOrigin(origin)) ? origin : undefined;
}

export function cors(route: Route): ApiMiddleware {
  const enabled = allowsCors(route);
  const answer = async (api: ApiRequest | undefined) => {
    if (!enabled || !api) return;
    const origin = await allowedOrigin(api);
    if (origin) Object.assign(api.responseHeaders, corsResponseHeaders(origin));
  };
  return {
    after: (request) => answer(request.context.api),
    onError: (request) => answer(request.context.api),
  };
}
