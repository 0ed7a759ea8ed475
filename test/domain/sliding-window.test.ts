// The registration budget's arithmetic (lib/domain/client-registration.ts over
// lib/domain/sliding-window.ts): counts include the attempt being judged.
import { describe, expect, it } from 'vitest';
import { REGISTRATIONS, registrationRefusedFor } from '#lib/domain/client-registration.ts';

const HOUR_MS = 3_600_000;
/** A time `fraction` of the way into an hour. */
const at = (fraction: number) => 500_000 * HOUR_MS + fraction * HOUR_MS;

describe('registrations per address: a sliding hour', () => {
  it('windows are hours, and a counter lives to the end of the hour after its own', () => {
    expect(REGISTRATIONS.windowOf(at(0))).toBe(500_000);
    expect(REGISTRATIONS.windowOf(at(0.999))).toBe(500_000);
    expect(REGISTRATIONS.expiry(500_000)).toBe(500_002 * 3600 + 60);
  });

  it('the 20th of an hour goes ahead, the 21st is refused', () => {
    expect(registrationRefusedFor({ current: 20, previous: 0 }, 20, at(0.5))).toBe(0);
    // 21 counted: half an hour left, then 2/21 of the next (342.9 s): 2143 s.
    expect(registrationRefusedFor({ current: 21, previous: 0 }, 20, at(0.5))).toBe(2_143);
  });

  it("the previous hour's registrations count by the share of it the last hour still covers", () => {
    // 20 just before the hour: at 1 s past it, 20 × 3599/3600 rounds up to 20, so the first is refused
    // until 20 × (1 − f) + 1 ≤ 19, f = 1/10 of the hour: 359 s on.
    expect(registrationRefusedFor({ current: 1, previous: 20 }, 20, at(1 / 3600))).toBe(359);
    // A tenth of the way in, 18 of them still count: two more go ahead, the third is refused.
    expect(registrationRefusedFor({ current: 1, previous: 20 }, 20, at(0.1))).toBe(0);
    expect(registrationRefusedFor({ current: 2, previous: 20 }, 20, at(0.1))).toBe(0);
    expect(registrationRefusedFor({ current: 3, previous: 20 }, 20, at(0.1))).toBe(360);
  });
});
