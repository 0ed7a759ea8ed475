// CORS for browser-based public clients of the authorization code flow (the Fetch standard's CORS
// protocol). Only origins of registered redirect URIs are allowed, each echoed exactly, and no
// credentials mode: the API authenticates with the Authorization header, not cookies. The public
// documents and open registration, which a client reaches before it has registered an origin, take
// any origin (`*`).
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '../domain/idempotency.ts';
import type { Route } from '../routes.ts';

/** What a browser client may send beyond the safelisted headers: its token, JSON, and the API's conditional and idempotent writes. */
const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'If-Match', IDEMPOTENCY_HEADER].join(', ');
/**
 * What a browser client may read beyond the safelisted headers: the request id, the request budget,
 * a note's or entity's version (for If-Match), a replayed create, and the challenge under both of its
 * names (API Gateway passes it on as x-amzn-Remapped-WWW-Authenticate: local/gateway.ts).
 */
const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'ETag',
  REPLAYED_HEADER,
  'WWW-Authenticate',
  'x-amzn-Remapped-WWW-Authenticate',
].join(', ');
/**
 * On the answers the edge gives when no function runs (an unknown route, throttling, the payload
 * limit, a timeout; infra/gateway-responses.ts, and local/gateway.ts as API Gateway does): readable
 * by any page, since they say nothing of any workspace, so a browser client sees a 429 and its
 * Retry-After rather than a failed fetch.
 */
export const EDGE_CORS_HEADERS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS } as const;

/** Browsers cache a preflight this long (Chromium caps it at 7200 s). */
const CORS_MAX_AGE_S = 600;

/** The request's Origin when it is a serialised origin (scheme://host[:port]); `null` and anything else are not. */
export function requestOrigin(header: string | undefined): string | undefined {
  if (!header || header.length > 300 || header === 'null') return undefined;
  try {
    const url = new URL(header);
    return url.origin === header && (url.protocol === 'https:' || url.protocol === 'http:') ? header : undefined;
  } catch {
    return undefined;
  }
}

/** Any origin, on the routes that take every origin (lib/routes.ts `cors: 'public'`); never with credentials. */
export const ANY_ORIGIN = '*';

/** Vary: Origin where the answer names the request's origin; not for any origin. */
const varyOf = (origin: string): Record<string, string> => (origin === ANY_ORIGIN ? {} : { Vary: 'Origin' });

/** Headers of an actual response readable by `origin` (or by any origin). */
export const corsResponseHeaders = (origin: string): Record<string, string> => ({
  'Access-Control-Allow-Origin': origin,
  'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS,
  ...varyOf(origin),
});

/**
 * Headers of a successful preflight for the CORS routes on its path (lib/routes.ts corsRoutesAt):
 * their methods, every CORS route's request headers and their own (`corsHeaders`).
 */
export const corsPreflightHeaders = (origin: string, routes: readonly Route[]): Record<string, string> => ({
  'Access-Control-Allow-Origin': origin,
  'Access-Control-Allow-Methods': routes.map((route) => route.method).join(', '),
  'Access-Control-Allow-Headers': [CORS_ALLOWED_HEADERS, ...new Set(routes.flatMap((route) => route.corsHeaders ?? []))].join(', '),
  'Access-Control-Max-Age': String(CORS_MAX_AGE_S),
  ...varyOf(origin),
});

/** Whether a preflight for these routes takes any origin: all of them do (`cors: 'public'`), so no look-up of registered origins. */
export const takesAnyOrigin = (routes: readonly Route[]): boolean => routes.every((route) => route.cors === 'public');
