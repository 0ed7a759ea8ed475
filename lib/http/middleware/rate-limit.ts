// The request budget (RATE_LIMIT_PER_SECOND) per credential owner — one for a member's API tokens,
// one for all access tokens an application minted —, counted by lib/http/rate-limiter.ts. The
// counters go out on every response of the request, a refusal included.
import type { Principal } from '../../auth/principal.ts';
import { config } from '../../config.ts';
import { counted } from '../../domain/counted.ts';
import { ApiError } from '../errors.ts';
import { admit, type Admission } from '../rate-limiter.ts';
import type { ApiMiddleware, ApiRequest } from '../request.ts';

/** A member's own budget: their API tokens' requests (and their member pages'). */
export const memberBudget = (workspaceId: string, memberId: string): string => `member:${workspaceId}:${memberId}`;

/** Whose budget a request spends. */
const ownerOf = (p: Principal): string =>
  p.credential === 'access' && p.clientId ? `app:${p.workspaceId}:${p.clientId}` : memberBudget(p.workspaceId, p.memberId);

/** A spent budget: 429 rate.limitExceeded with Retry-After (an endpoint with its own error format renders it so). */
export class BudgetSpent extends ApiError {
  constructor(
    who: string,
    limit: number,
    readonly retryAfterS: number,
  ) {
    super('rate.limitExceeded', `More than ${limit} requests per second for ${who}; retry after ${counted(retryAfterS, 'second')}.`, {
      headers: { 'Retry-After': String(retryAfterS) },
    });
  }
}

/** The X-RateLimit-* headers of an admission, and BudgetSpent when it is a refusal. */
function apply(api: ApiRequest, a: Admission, who: string): void {
  api.responseHeaders['X-RateLimit-Limit'] = String(a.limit);
  api.responseHeaders['X-RateLimit-Remaining'] = String(a.remaining);
  api.responseHeaders['X-RateLimit-Reset'] = String(a.resetS);
  if (!a.allowed) throw new BudgetSpent(who, a.limit, a.retryAfterS);
}

/** Spends one request of `owner`'s budget: the X-RateLimit-* headers, or BudgetSpent. */
export async function spendBudget(api: ApiRequest, owner: string, who: string): Promise<void> {
  const limit = config.rateLimitPerSecond;
  if (limit === 0) return;
  apply(api, await admit(owner, limit), who);
}

/** Spends one request of the authenticated caller's budget. */
async function spendPrincipal(api: ApiRequest, principal: Principal): Promise<void> {
  const who = principal.credential === 'access' ? "this application's access tokens" : "this member's API tokens";
  await spendBudget(api, ownerOf(principal), who);
}

/**
 * Spends `count` more requests of the authenticated caller's budget, for work one HTTP request
 * carries several of (an MCP batch's further messages): the X-RateLimit-* headers, or BudgetSpent.
 */
export async function spendMore(api: ApiRequest, count: number): Promise<void> {
  if (!api.principal) return;
  for (let i = 0; i < count; i++) await spendPrincipal(api, api.principal);
}

export function rateLimit(): ApiMiddleware {
  return {
    before: async (request) => {
      const api = request.context.api;
      if (api.principal) await spendPrincipal(api, api.principal);
    },
  };
}
