// The sliding window of failed sign-ins (lib/domain/sign-in-throttle.ts), as pure arithmetic: the
// estimate of the last 15 minutes and the Retry-After it gives, at chosen points of a window.
import { describe, expect, it } from 'vitest';
import { MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_EMAIL, signInWindow, throttledFor } from '#lib/domain/sign-in-throttle.ts';

const WINDOW_MS = 15 * 60_000;
/** A time `fraction` of the way into a window. */
const at = (fraction: number) => 2_000 * WINDOW_MS + fraction * WINDOW_MS;
const none = { current: 0, previous: 0 };

describe('sign-in throttle: a sliding 15-minute window', () => {
  it('the windows are 15 minutes long, and `at` falls inside one', () => {
    expect(signInWindow(at(0))).toBe(2_000);
    expect(signInWindow(at(0.999))).toBe(2_000);
    expect(signInWindow(at(1))).toBe(2_001);
  });

  it('below the limits: not throttled', () => {
    expect(throttledFor({ email: { current: MAX_FAILURES_PER_EMAIL - 1, previous: 0 }, address: none }, at(0.5))).toBe(0);
    expect(throttledFor({ email: none, address: { current: MAX_FAILURES_PER_ADDRESS - 1, previous: 0 } }, at(0.5))).toBe(0);
  });

  it('the limit reached in this window: throttled into the next, until the estimate is one below it', () => {
    // Half a window left, then 1 - 4/5 of the next: 0.7 of 900 s.
    expect(throttledFor({ email: { current: 5, previous: 0 }, address: none }, at(0.5))).toBe(630);
  });

  it("a burst at a window's end still counts at the start of the next (no second burst at the boundary)", () => {
    // 5 failures just before the boundary, one second after it: 5 × 899/900 rounds up to 5.
    expect(throttledFor({ email: { current: 0, previous: 5 }, address: none }, at(1 / 900))).toBe(179);
    // Split across the boundary, the same.
    expect(throttledFor({ email: { current: 2, previous: 3 }, address: none }, at(1 / 900))).toBeGreaterThan(0);
  });

  it("the previous window's share shrinks as this one goes on", () => {
    expect(throttledFor({ email: { current: 0, previous: 5 }, address: none }, at(0.1))).toBe(90);
    expect(throttledFor({ email: { current: 0, previous: 5 }, address: none }, at(0.2))).toBe(0);
    expect(throttledFor({ email: { current: 1, previous: 5 }, address: none }, at(0.2))).toBe(180);
  });

  it('the address and the e-mail each count; the longer wait is the answer', () => {
    expect(throttledFor({ email: none, address: { current: 0, previous: 20 } }, at(0))).toBe(45);
    expect(throttledFor({ email: { current: 5, previous: 0 }, address: { current: 0, previous: 20 } }, at(0))).toBe(1080);
  });
});
