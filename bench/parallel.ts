// Runs f(0) … f(n − 1) with at most `parallel` in flight, results in index order: the benchmarks'
// seeding and bursts (bench/score.ts, bench/load.ts).
export async function inParallel<T>(n: number, parallel: number, f: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await f(i);
      }
    }),
  );
  return out;
}
