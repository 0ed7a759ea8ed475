// Throttling of failed sign-ins: fixed windows, counted per e-mail within a workspace (guessing one
// member's password) and per source address (trying many members from one place). Only failures
// count; a throttled attempt is refused before the password is checked, whether or not the e-mail
// belongs to a member, so the answer reveals nothing about membership.
const SIGN_IN_WINDOW_S = 15 * 60;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export const signInWindow = (nowMs: number): number => Math.floor(nowMs / 1000 / SIGN_IN_WINDOW_S);

/** When the window's counters may go: the end of the window, plus a margin for clock skew. */
export const windowExpiry = (window: number): number => (window + 1) * SIGN_IN_WINDOW_S + 60;

/** Seconds until the current window ends: the Retry-After of a throttled attempt. */
export const secondsLeftInWindow = (nowMs: number): number => (signInWindow(nowMs) + 1) * SIGN_IN_WINDOW_S - Math.floor(nowMs / 1000);

export function isThrottled(failures: { email: number; address: number }): boolean {
  return failures.email >= MAX_FAILURES_PER_EMAIL || failures.address >= MAX_FAILURES_PER_ADDRESS;
}
