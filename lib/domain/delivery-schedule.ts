// When a failed webhook delivery is tried again, and when it is given up. Exponential backoff with
// full jitter ("Exponential Backoff And Jitter", AWS Architecture Blog): after failed attempt k the
// next one waits a uniformly random time in [1 s, window(k)], window(k) = 1 min × 3^(k−1), capped at
// 12 h (SQS's longest visibility timeout, which carries the wait when deployed):
//
//   after attempt   1     2     3     4      5      6       7
//   window (max)    1 min 3 min 9 min 27 min 81 min 4 h 3 m 12 h      → attempt 8 is the last
//
// so the eight attempts span up to about 18 hours (about 9 on average). A receiver's Retry-After
// (seconds) lengthens the wait, within the same cap. Then the delivery is dead: it goes to the
// dead-letter queue, and a subscription whose deliveries die PAUSE_AFTER_DEAD times in a row (or that
// answers 410 Gone) is paused.

export const MAX_ATTEMPTS = 8;
const FIRST_WINDOW_MS = 60_000;
const GROWTH = 3;
export const MAX_WAIT_MS = 12 * 60 * 60 * 1000;
const MIN_WAIT_MS = 1000;
/** Consecutive dead deliveries that pause a subscription. */
export const PAUSE_AFTER_DEAD = 3;

/** The upper bound of the wait after failed attempt `attempt` (1-based). */
export const windowMs = (attempt: number): number => Math.min(MAX_WAIT_MS, FIRST_WINDOW_MS * GROWTH ** (attempt - 1));

/**
 * The wait before the next attempt after failed attempt `attempt`, or undefined when that was the
 * last. `scale` compresses the whole schedule (local runs and tests; 1 when deployed); `random` is in [0, 1).
 */
export function nextWaitMs(attempt: number, options: { random?: () => number; retryAfterSeconds?: number; scale?: number } = {}): number | undefined {
  if (attempt >= MAX_ATTEMPTS) return undefined;
  const { random = Math.random, retryAfterSeconds, scale = 1 } = options;
  let wait = Math.max(MIN_WAIT_MS, random() * windowMs(attempt));
  if (retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0) {
    wait = Math.min(MAX_WAIT_MS, Math.max(wait, retryAfterSeconds * 1000));
  }
  return Math.max(0, Math.round(wait * scale));
}
