// This instance's share of each owner's request budget (lib/store/rate-limits.ts). A request takes
// one from the local share; the share is refilled by leasing a chunk (a tenth of the limit) from
// the table, ahead of time when it runs low so requests seldom wait for the write, and a leased
// chunk lapses after one bucket window so unused requests never pile up. docs/performance.md gives
// the accuracy (overshoot per instance and across instances) and the cost per request.
import { detached, forRequest } from '../deadline.ts';
import { available, BUCKET_WINDOW_MS, leaseBudget } from '../store/rate-limits.ts';

export interface Admission {
  allowed: boolean;
  limit: number;
  /** What the owner may still send now, as far as this instance knows. */
  remaining: number;
  /** Seconds until the budget is full again. */
  resetS: number;
  /** On a refusal: seconds until a retry can pass. */
  retryAfterS: number;
}

interface Share {
  left: number;
  lapsesAt: number;
  /** The bucket's state after this instance's last lease. */
  tat: number;
  refill: Promise<void> | undefined;
  /** Requests of this instance waiting for a lease: the next lease asks for all of them. */
  waiting: number;
}

/** Owners tracked per instance; the oldest are forgotten beyond this (they lease again). */
const MAX_OWNERS = 10_000;
const shares = new Map<string, Share>();

const chunkOf = (limit: number) => Math.max(1, Math.floor(limit / 10));

function shareOf(owner: string): Share {
  let share = shares.get(owner);
  if (!share) {
    if (shares.size >= MAX_OWNERS) shares.delete(shares.keys().next().value!);
    share = { left: 0, lapsesAt: 0, tat: 0, refill: undefined, waiting: 0 };
    shares.set(owner, share);
  }
  return share;
}

/** One lease for the instance's share: work of the instance, not of the request that begins it (lib/deadline.ts detached). */
function refill(owner: string, share: Share, limit: number): Promise<void> {
  share.refill ??= detached(() => leaseBudget(owner, Math.max(chunkOf(limit), share.waiting), limit, share.tat))
    .then((lease) => {
      const now = Date.now();
      share.tat = lease.tat;
      if (lease.granted > 0) {
        share.left = (share.lapsesAt > now ? share.left : 0) + lease.granted;
        share.lapsesAt = now + BUCKET_WINDOW_MS;
      }
    })
    .finally(() => {
      share.refill = undefined;
    });
  return share.refill;
}

function answer(share: Share, limit: number, allowed: boolean): Admission {
  const now = Date.now();
  const local = share.lapsesAt > now ? share.left : 0;
  const wait = Math.max(share.tat, now) - now;
  return {
    allowed,
    limit,
    remaining: allowed ? Math.min(limit, local + available(share.tat, now, limit)) : 0,
    resetS: Math.ceil(wait / 1000),
    retryAfterS: Math.max(1, Math.ceil((wait - BUCKET_WINDOW_MS + BUCKET_WINDOW_MS / limit) / 1000)),
  };
}

/** Counts one request of `owner` against `limit` per second; refuses when the budget is spent. */
export async function admit(owner: string, limit: number): Promise<Admission> {
  const share = shareOf(owner);
  // Each lease grants this instance at least one request or shows the bucket empty; the bound only
  // guards against a table that keeps failing leases (lost races with other instances).
  for (let tries = 0; tries < 50; tries++) {
    const now = Date.now();
    if (share.lapsesAt <= now) share.left = 0;
    if (share.left > 0) {
      share.left--;
      // Running low: lease the next chunk now, without waiting for it (a failed lease is retried,
      // and its error thrown, by the request that finds the share empty).
      if (share.left <= chunkOf(limit) / 2) refill(owner, share, limit).catch(() => undefined);
      return answer(share, limit, true);
    }
    // Known empty: refuse without asking the table again.
    if (available(share.tat, now, limit) === 0) return answer(share, limit, false);
    share.waiting++;
    try {
      await forRequest(refill(owner, share, limit));
    } finally {
      share.waiting--;
    }
  }
  return answer(share, limit, false);
}
