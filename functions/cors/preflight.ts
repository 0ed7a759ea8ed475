// OPTIONS on every path browser clients may call (lib/routes.ts allowsCors) — the CORS preflight
// (a plain OPTIONS, without Origin, gets the path's Allow):
// allowed for the origins of registered redirect URIs, and for any origin on the paths whose routes
// all take any (the public documents and open registration). It carries no token, so the origin is looked
// up in the table; the actual request is then judged again (lib/http/middleware/cors.ts).
import { ANY_ORIGIN, corsPreflightHeaders, requestOrigin, takesAnyOrigin } from '#lib/http/cors.ts';
import { ApiError } from '#lib/http/errors.ts';
import { api } from '#lib/http/pipeline.ts';
import { allowAt, corsPreflight, corsRoutesAt } from '#lib/routes.ts';
import { isRegisteredOrigin } from '#lib/store/cors-origins.ts';

export const handler = api(
  corsPreflight,
  // The query is the one of the request it precedes; not this operation's (nor in the document).
  { queryReadByCore: true, responses: { 204: null } },
  async (req) => {
    const routes = corsRoutesAt(req.event.path);
    const methods: string[] = routes.map((route) => route.method);
    // No Origin and no method asked for: not a CORS preflight but a plain OPTIONS, which asks what the
    // path takes (RFC 9110 §9.3.7): the answer is its Allow.
    if (req.headers.get('origin') === undefined && req.headers.get('access-control-request-method') === undefined) {
      return { status: 204, headers: { Allow: allowAt(req.event.path) ?? [...methods, 'OPTIONS'].join(', ') } };
    }
    const origin = requestOrigin(req.headers.get('origin'));
    if (!origin) {
      throw new ApiError('request.invalid', 'A CORS preflight needs an Origin header naming a scheme, a host and a port.', { source: { parameter: 'Origin' } });
    }
    const method = req.headers.get('access-control-request-method');
    if (!method || !methods.includes(method)) {
      throw new ApiError(
        'request.invalid',
        `Access-Control-Request-Method ${JSON.stringify((method ?? 'none').slice(0, 20))} is not a method of this path (${methods.join(', ')}).`,
        { source: { parameter: 'Access-Control-Request-Method' } },
      );
    }
    const open = takesAnyOrigin(routes);
    if (!open && !(await isRegisteredOrigin(origin))) {
      throw new ApiError('auth.accessDenied', `${origin} is not the origin of a registered redirect URI of any application.`);
    }
    return { status: 204, headers: corsPreflightHeaders(open ? ANY_ORIGIN : origin, routes) };
  },
);
