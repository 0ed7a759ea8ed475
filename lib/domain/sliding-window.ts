// A sliding window counter: events are counted in fixed windows, and the events of the last window's
// length are estimated as the current window's count plus the share of the previous window's that
// the sliding window still covers. A burst at a window's end therefore still counts at the start of
// the next, where fixed windows would let a second full burst through at every boundary.

/** Events counted in the current window and in the one before it. */
export interface WindowCounts {
  current: number;
  previous: number;
}

const EPSILON = 1e-9;

/** Sliding-window arithmetic for windows of `seconds`. */
export function slidingWindow(seconds: number) {
  const ms = seconds * 1000;
  const windowOf = (nowMs: number): number => Math.floor(nowMs / ms);
  /** How far `nowMs` is into its window, from 0 to 1 (the remainder in whole milliseconds is exact). */
  const intoWindow = (nowMs: number): number => (nowMs % ms) / ms;
  return {
    windowOf,
    /** When a window's counter may go: it is read until the end of the window after it, plus a margin for clock skew. */
    expiry: (window: number): number => (window + 2) * seconds + 60,
    /**
     * Seconds until the estimate (rounded up) of the last `seconds` falls below `limit` if no more
     * events come; 0 when it is below it now.
     */
    secondsUntilBelow(counts: WindowCounts, limit: number, nowMs: number): number {
      const f = intoWindow(nowMs);
      const estimate = counts.previous * (1 - f) + counts.current;
      if (Math.ceil(estimate - EPSILON) < limit) return 0;
      // Below the limit once the estimate is at most limit - 1. Within this window only the previous
      // window's share shrinks; if that is not enough, the current window's count shrinks in the next.
      const allowed = limit - 1;
      const fraction =
        counts.current <= allowed && counts.previous > 0 ? 1 - (allowed - counts.current) / counts.previous - f : 1 - f + (1 - allowed / counts.current);
      // The epsilon keeps float error (0.2 - 0.1 of 900 s is 90.00000000000001) from adding a second.
      return Math.max(1, Math.ceil(fraction * seconds - EPSILON));
    },
  };
}
