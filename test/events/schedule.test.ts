// The retry schedule (lib/domain/delivery-schedule.ts): exponential windows with full jitter, capped,
// eight attempts, Retry-After honoured within the cap, and the whole of it compressible for tests.
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, MAX_WAIT_MS, nextWaitMs, windowMs } from '#lib/domain/delivery-schedule.ts';

const MIN = 60_000;

describe('delivery retry schedule', () => {
  it('windows grow ×3 from one minute and are capped at 12 hours; attempt 8 is the last', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(windowMs)).toEqual([1, 3, 9, 27, 81, 243, 720].map((m) => m * MIN));
    expect(MAX_ATTEMPTS).toBe(8);
    expect(nextWaitMs(8, { random: () => 0.5 })).toBeUndefined();
  });

  it('the longest possible schedule spans about 18 hours, the average about 9', () => {
    const span = (r: number) => [1, 2, 3, 4, 5, 6, 7].reduce((sum, a) => sum + nextWaitMs(a, { random: () => r })!, 0);
    expect(span(0.999999) / 3_600_000).toBeCloseTo(18.07, 1);
    expect(span(0.5) / 3_600_000).toBeCloseTo(9.03, 1);
  });

  it('full jitter: anywhere from 1 second up to the window', () => {
    expect(nextWaitMs(3, { random: () => 0 })).toBe(1000);
    expect(nextWaitMs(3, { random: () => 0.25 })).toBe(0.25 * 9 * MIN);
    const waits = Array.from({ length: 200 }, () => nextWaitMs(2)!);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(3 * MIN);
    expect(new Set(waits).size).toBeGreaterThan(150);
  });

  it("a receiver's Retry-After lengthens the wait, never beyond the cap; a shorter one changes nothing", () => {
    expect(nextWaitMs(1, { random: () => 0.5, retryAfterSeconds: 600 })).toBe(600_000);
    expect(nextWaitMs(1, { random: () => 0.5, retryAfterSeconds: 5 })).toBe(30_000);
    expect(nextWaitMs(1, { random: () => 0.5, retryAfterSeconds: 10 ** 9 })).toBe(MAX_WAIT_MS);
  });

  it('a scale compresses the same schedule (local runs and tests)', () => {
    expect(nextWaitMs(7, { random: () => 1, scale: 0.001 })).toBe(MAX_WAIT_MS * 0.001);
    expect(nextWaitMs(1, { random: () => 0.5, scale: 0 })).toBe(0);
  });
});
