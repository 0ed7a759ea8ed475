// api() for a route that authenticates (a row of lib/routes.ts whose `auth` is not 'none'): the only
// module that brings the bearer check, the request budget and the Idempotency-Key claim into a
// function's bundle, so the functions of the OAuth pages, the token endpoints and the metadata
// routes carry none of them. api() refuses a handler made the other way round (lib/http/pipeline.ts).
import { auth, permit } from './middleware/auth.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import type { Operation } from './operation.ts';
import { api, type ApiHandler, type Authentication, type Core } from './pipeline.ts';
import type { PrefetchRecords } from './prefetch.ts';
import { idempotencyClaim } from './request.ts';
import type { Route } from '../routes.ts';

const AUTHENTICATION: Authentication = { auth, rateLimit, permit, idempotencyClaim };

/** api() with the bearer check, the request budget and the Idempotency-Key claim. */
export function authedApi<const O extends Operation>(route: Route, operation: O, core: Core<O>, options: { prefetch?: PrefetchRecords } = {}): ApiHandler<O> {
  return api(route, operation, core, { ...options, authentication: AUTHENTICATION });
}
