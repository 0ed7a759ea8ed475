// Reads started together and judged in a fixed order: each promise's outcome held as a value, so a
// later read's failure waits its turn instead of rejecting the Promise.all that started it.
type Settled<T> = { value: T } | { error: unknown };

export const settle = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** The value, or the failure thrown now (its turn has come). */
export function outcome<T>(s: Settled<T>): T {
  if ('error' in s) throw s.error;
  return s.value;
}
