// Throttling of failed sign-ins, counted per e-mail within a workspace (guessing one member's
// password) and per source address (trying many members from one place). Only failures count; a
// throttled attempt is refused before the password is checked, whether or not the e-mail belongs to
// a member, so the answer reveals nothing about membership.
//
// The window slides: failures are counted in fixed 15-minute windows, and the failures of the last
// 15 minutes are estimated as the current window's plus the share of the previous window's that the
// last 15 minutes still cover (a sliding window counter). A burst at a window's end therefore still
// counts at the start of the next, where fixed windows would let a second full burst through.
const SIGN_IN_WINDOW_S = 15 * 60;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export const signInWindow = (nowMs: number): number => Math.floor(nowMs / 1000 / SIGN_IN_WINDOW_S);

/** When a window's counter may go: it is read until the end of the window after it, plus a margin for clock skew. */
export const windowExpiry = (window: number): number => (window + 2) * SIGN_IN_WINDOW_S + 60;

/** Failures counted in the current window and in the one before it. */
export interface WindowCounts {
  current: number;
  previous: number;
}

const EPSILON = 1e-9;

/** How far `nowMs` is into its window, from 0 to 1. */
const intoWindow = (nowMs: number): number => nowMs / 1000 / SIGN_IN_WINDOW_S - signInWindow(nowMs);

/**
 * Seconds until the failures of the last 15 minutes, estimated (rounded up), fall below `limit` if
 * no more come; 0 when they are below it now.
 */
function secondsUntilBelow(counts: WindowCounts, limit: number, nowMs: number): number {
  const f = intoWindow(nowMs);
  const estimate = counts.previous * (1 - f) + counts.current;
  if (Math.ceil(estimate - EPSILON) < limit) return 0;
  // Below the limit once the estimate is at most limit - 1. Within this window only the previous
  // window's share shrinks; if that is not enough, the current window's count shrinks in the next.
  const allowed = limit - 1;
  const fraction =
    counts.current <= allowed && counts.previous > 0 ? 1 - (allowed - counts.current) / counts.previous - f : 1 - f + (1 - allowed / counts.current);
  // The epsilon keeps float error (0.2 - 0.1 of 900 s is 90.00000000000001) from adding a second.
  return Math.max(1, Math.ceil(fraction * SIGN_IN_WINDOW_S - EPSILON));
}

/** The Retry-After of a throttled attempt, in seconds, or 0 when neither the e-mail nor the address is throttled. */
export function throttledFor(failures: { email: WindowCounts; address: WindowCounts }, nowMs: number): number {
  return Math.max(secondsUntilBelow(failures.email, MAX_FAILURES_PER_EMAIL, nowMs), secondsUntilBelow(failures.address, MAX_FAILURES_PER_ADDRESS, nowMs));
}
