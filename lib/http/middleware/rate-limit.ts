// Per-token request limit (RATE_LIMIT_PER_SECOND), counted by lib/store/rate-limits.ts; the
// counters go out on every response of the request.
import { config } from '../../config.ts';
import { countRequest } from '../../store/rate-limits.ts';
import { ApiError } from '../errors.ts';
import type { ApiMiddleware } from '../request.ts';

export function rateLimit(): ApiMiddleware {
  return {
    before: async (request) => {
      const api = request.context.api;
      const limit = config.rateLimitPerSecond;
      if (!api.principal || limit === 0) return;
      const count = await countRequest(api.principal.tokenId);
      api.responseHeaders['X-RateLimit-Limit'] = String(limit);
      api.responseHeaders['X-RateLimit-Remaining'] = String(Math.max(0, limit - count));
      if (count > limit) {
        throw new ApiError('rate.limitExceeded', `More than ${limit} requests in one second with this token; retry after 1 second.`, {
          headers: { 'Retry-After': '1' },
        });
      }
    },
  };
}
