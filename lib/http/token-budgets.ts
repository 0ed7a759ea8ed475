// The request budgets of the three endpoints a client authenticates at — the JWT bearer grant
// (/oauth2/token) and the authorization code flow's token and revocation endpoints (/oauth/token,
// /oauth/revoke) —, one mechanism for all three, counted like every other budget
// (./middleware/rate-limit.ts): a client that authenticated spends its own budget
// (`client:<client id>`), and a refused request spends the budget of its source address, as an
// unknown or unauthenticated client has nothing else to be counted by. Past that, refusals are
// answered 429. A request that authenticates is never charged to its address: client secrets are
// 256 random bits, so the address's budget bounds what refusals cost, not guessing, and a client
// that shares an address (a NAT) with a misbehaving one keeps its own budget. A public client
// (no secret: RFC 6749 §2.1) proves nothing by naming its client id, which anyone can name: its
// every request spends its source address's budget instead, so no one spends another's.
import { BudgetSpent, spendBudget } from './middleware/rate-limit.ts';
import type { ApiRequest } from './request.ts';

interface TokenBudgets {
  /** The client authenticated: one request of its budget (429 when it is spent). */
  spendClient(clientId: string): Promise<void>;
  /** A public client's request: one request of its source address's budget (429 when it is spent). */
  spendAddress(): Promise<void>;
}

export interface TokenEndpointRules {
  /** The endpoint's refusals of a request, which its source address pays for. */
  isRefusal(err: unknown): boolean;
  /** The endpoint's own answer for a spent budget; the envelope's 429 rate.limitExceeded when absent. */
  limited?: (spent: BudgetSpent) => Error;
}

/** Runs a request of a token endpoint within its client's and its source address's budgets. */
export async function underTokenBudgets<T>(req: ApiRequest, rules: TokenEndpointRules, work: (budgets: TokenBudgets) => Promise<T>): Promise<T> {
  const address = `address:${req.event.requestContext?.identity?.sourceIp ?? 'unknown'}`;
  // A budget's own 429 is not a refusal of the request's content: it spends nothing more.
  let limited: unknown;
  const spending = async (spend: () => Promise<void>): Promise<void> => {
    try {
      await spend();
    } catch (err) {
      limited = err;
      if (err instanceof BudgetSpent && rules.limited) {
        // The envelope's 429 is logged by the pipeline; an endpoint's own rendering is not.
        req.log.info('request budget spent', { detail: err.detail });
        limited = rules.limited(err);
      }
      throw limited;
    }
  };
  let addressSpent = false;
  const spendAddress = () => {
    addressSpent = true;
    return spending(() => spendBudget(req, address, 'this address'));
  };
  try {
    return await work({ spendClient: (clientId) => spending(() => spendBudget(req, `client:${clientId}`, 'this client')), spendAddress });
  } catch (err) {
    // A request refused after its address paid for it pays once.
    if (err !== limited && !addressSpent && rules.isRefusal(err)) await spendAddress();
    throw err;
  }
}
