// Throttling of failed sign-ins, counted per e-mail within a workspace (guessing one member's
// password) and per source address (trying many members from one place). Only failures count; a
// throttled attempt is refused before the password is checked, whether or not the e-mail belongs to
// a member, so the answer reveals nothing about membership. The failures of the last 15 minutes are
// estimated by a sliding window counter (lib/domain/sliding-window.ts).
import { counted } from './counted.ts';
import { slidingWindow, type WindowCounts } from './sliding-window.ts';

const SIGN_IN = slidingWindow(15 * 60);
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export const signInWindow = SIGN_IN.windowOf;

/** When a window's counter may go. */
export const windowExpiry = SIGN_IN.expiry;

/** The Retry-After of a throttled attempt, in seconds, or 0 when neither the e-mail nor the address is throttled. */
export function throttledFor(failures: { email: WindowCounts; address: WindowCounts }, nowMs: number): number {
  return Math.max(
    SIGN_IN.secondsUntilBelow(failures.email, MAX_FAILURES_PER_EMAIL, nowMs),
    SIGN_IN.secondsUntilBelow(failures.address, MAX_FAILURES_PER_ADDRESS, nowMs),
  );
}

/** What a throttled member is told, on the authorization flow's page and on the member pages' alike. */
export const throttledProblem = (retryAfterS: number): string =>
  `Too many failed sign-in attempts. Wait ${counted(Math.ceil(retryAfterS / 60), 'minute')} and try again.`;
