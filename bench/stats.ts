// Order statistics the benchmarks report. (infra/module-init.ts keeps its own median: infra may not
// import bench, docs/architecture.md "Layers".)

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
