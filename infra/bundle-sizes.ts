// Prints each function's bundle size (routes and workers) and module-init time: `npm run bundle-sizes`.
// Bundles with esbuild and the stack's own options (infra/bundling.ts esbuildOptions), so the figures
// are the deployed code's, beside a baseline bundled the same way (infra/baseline-handler.ts: a
// hello-world Middy handler with the same DynamoDB document client, lib/store/client.ts). Module init is the time `import()`
// of the bundle takes in a fresh `node` process, measured in pairs with the baseline's: after one
// warm-up import of each bundle (not counted), baseline and function run back to back, the order
// alternating from pair to pair; a function's ratio is the median of its pairs' ratios, so load that
// changes between pairs weighs on both halves of a pair alike (the ratio of two medians taken over
// the whole series did not: the baseline's own median moves between functions in one run).
// Pairs are measured in rounds, one per function each, so a burst of load reaches a few pairs of
// many functions, not all pairs of one. BUNDLE_INIT_RUNS rounds (default 11); then, for a function
// whose distribution-free ~95 % interval of that median still holds the budget, two more pairs at a
// time up to BUNDLE_INIT_MAX_RUNS (default 15).
// Beside the wall-clock ratio (the goal's: Lambda's Init Duration is wall-clock), the median of the
// same pairs' CPU-time ratios (process.cpuUsage() around the import): time spent waiting for a core
// on a loaded machine is not in it. An A/A check: BUNDLE_ONLY='(baseline A/A),signIn,signIn' measures
// the baseline as if it were a function, and a function named twice twice (docs/performance.md
// "Cold start" has the figures).
// Goal: every function's module init ≤ 1.2× the baseline's; `mcp` has its own stated budget
// (MCP_INIT_BUDGET, docs/performance.md "The MCP server's function"). Bundle size is reported, not a
// goal. Also names the three largest packages in each bundle: where a cold start's bytes come from.
// BUNDLE_ONLY (operation or worker ids, comma-separated) measures only those, beside the baseline,
// while working on a few.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { ROUTES } from '#lib/routes.ts';
import { WORKERS } from '#lib/workers.ts';
import { esbuildOptions, PROJECT_ROOT } from './bundling.ts';
import { importMs, median, type Import } from './module-init.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** node_modules package (or "project") an input file belongs to. */
function packageOf(path: string): string {
  const at = path.lastIndexOf('node_modules/');
  if (at === -1) return '(project)';
  const rest = path.slice(at + 'node_modules/'.length).split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
}

function largestPackages(metafile: Metafile, outfile: string, n: number): string {
  const output = Object.entries(metafile.outputs).find(([name]) => name.endsWith(outfile))?.[1];
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    byPackage.set(packageOf(input), (byPackage.get(packageOf(input)) ?? 0) + bytesInOutput);
  }
  return [...byPackage.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, bytes]) => `${name} ${kb(bytes)}`)
    .join(', ');
}

/** Pairs measured for every function before the stopping rule is looked at (and at least this many in all). */
const RUNS = Number(process.env.BUNDLE_INIT_RUNS ?? 11);
/** Most pairs for one function: more are measured only while the interval still straddles the budget. */
const MAX_RUNS = Math.max(RUNS, Number(process.env.BUNDLE_INIT_MAX_RUNS ?? 15));
const BASELINE = '(baseline)';
/** The baseline measured as if it were a function (an A/A check of the harness): BUNDLE_ONLY='(baseline A/A),…'. */
const SELF_CHECK = '(baseline A/A)';
const INIT_BUDGET = 1.2;
/** The MCP function's own budget: the MCP SDK brings its own dependencies (a JSON Schema validator, zod 3 and its converter). */
const MCP_INIT_BUDGET = 2.0;
const initBudget = (id: string) => (id === 'mcp' ? MCP_INIT_BUDGET : INIT_BUDGET);
const initOver = (r: Row) => r.ratio > initBudget(r.operationId);

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/**
 * Distribution-free interval of at least 95 % for the median of `values`: the order statistics k and
 * n + 1 − k, k the largest with P(Binomial(n, ½) < k) ≤ 2.5 % (the extremes below 6 values).
 */
function medianInterval(values: number[]): [number, number] {
  const s = sorted(values);
  const n = s.length;
  let k = 0;
  let below = 0; // P(Binomial(n, ½) < k)
  let ways = 1; // n choose k
  while (below + ways / 2 ** n <= 0.025) {
    below += ways / 2 ** n;
    ways = (ways * (n - k)) / (k + 1);
    k += 1;
  }
  return [s[Math.max(k, 1) - 1]!, s[n - Math.max(k, 1)]!];
}

/** A function's imports, each paired with one of the baseline's. */
interface Series {
  id: string;
  file: string;
  own: Import[];
  baseline: Import[];
}

/** One pair of fresh processes, back to back; the order alternates from pair to pair, so neither side always runs first. */
function pair(s: Series, baselineFile: string): void {
  const baselineFirst = s.own.length % 2 === 0;
  if (baselineFirst) s.baseline.push(importMs(baselineFile));
  s.own.push(importMs(s.file));
  if (!baselineFirst) s.baseline.push(importMs(baselineFile));
}

const ratios = (s: Series) => s.own.map((m, i) => m.wall / s.baseline[i]!.wall);

/** Whether the interval of the median ratio still holds the budget, and MAX_RUNS allows more pairs. */
function undecided(s: Series): boolean {
  const [low, high] = medianInterval(ratios(s));
  return s.own.length < MAX_RUNS && low <= initBudget(s.id) && high > initBudget(s.id);
}

/**
 * Module init of every function against the baseline's, in rounds: after one warm-up import of each
 * bundle (not counted), each round measures one pair per function, so a function's pairs are spread
 * over the whole run and a burst of load on the shared machine reaches a few pairs of many
 * functions rather than every pair of one. Then, two pairs at a time, the functions whose interval
 * still holds the budget, up to MAX_RUNS: a verdict is never drawn from fewer pairs, only from more.
 */
function measureInit(series: Series[], baselineFile: string): void {
  importMs(baselineFile);
  for (const s of series) importMs(s.file);
  for (let round = 0; round < RUNS; round++) for (const s of series) pair(s, baselineFile);
  for (let open = series.filter(undecided); open.length > 0; open = series.filter(undecided)) {
    for (const s of open) {
      pair(s, baselineFile);
      pair(s, baselineFile);
    }
  }
}

function initOf(s: Series): Pick<Row, 'init' | 'baselineInit' | 'ratio' | 'interval' | 'cpuRatio' | 'runs'> {
  return {
    init: median(s.own.map((m) => m.wall)),
    baselineInit: median(s.baseline.map((m) => m.wall)),
    ratio: median(ratios(s)),
    interval: medianInterval(ratios(s)),
    cpuRatio: median(s.own.map((m, i) => m.cpu / s.baseline[i]!.cpu)),
    runs: s.own.length,
  };
}

interface Row {
  operationId: string;
  bytes: number;
  gzip: number;
  init: number;
  /** The baseline's init, median of the runs paired with this function's. */
  baselineInit: number;
  /** Median of the pairs' wall-clock ratios (function over baseline): the goal's figure. */
  ratio: number;
  /** About 95 % interval of that median. */
  interval: [number, number];
  /** Median of the pairs' CPU-time ratios. */
  cpuRatio: number;
  /** Pairs measured. */
  runs: number;
  top: string;
}

type Built = Omit<Row, keyof ReturnType<typeof initOf>> & { file: string };

/** The function's bundle, built with the stack's options and written where its imports read it. */
async function bundle(id: string, handler: string): Promise<Built> {
  const outfile = join(PROJECT_ROOT, 'cdk.out', 'bundle-sizes', id, 'index.mjs');
  const result = await build({ entryPoints: [join(PROJECT_ROOT, handler)], outfile, ...esbuildOptions(), write: false, metafile: true });
  const code = result.outputFiles.find((f) => f.path.endsWith('index.mjs'))!;
  mkdirSync(join(outfile, '..'), { recursive: true });
  writeFileSync(outfile, code.contents);
  return {
    operationId: id,
    bytes: code.contents.length,
    gzip: gzipSync(code.contents).length,
    top: largestPackages(result.metafile, 'index.mjs', 3),
    file: outfile,
  };
}

/** The one-minute load average; above the number of cores (the harness itself keeps one busy) the wall-clock figures are noise-bound (docs/performance.md "Cold start"). */
const load = () => loadavg()[0]!;

async function main() {
  const loadBefore = load();
  const baselineBuilt = await bundle(BASELINE, 'infra/baseline-handler.ts');
  const only = process.env.BUNDLE_ONLY?.split(',').map((id) => id.trim());
  const all = [
    ...ROUTES.map((r) => ({ id: r.operationId, handler: r.handler })),
    ...WORKERS.map((w) => ({ id: w.id, handler: w.handler })),
    { id: SELF_CHECK, handler: 'infra/baseline-handler.ts' },
  ];
  const unknown = only?.filter((id) => !all.some((f) => f.id === id)) ?? [];
  if (unknown.length) throw new Error(`BUNDLE_ONLY names unknown functions: ${unknown.join(', ')}`);
  // An id named twice is measured twice; the A/A row only when named.
  const functions = only ? only.map((id) => all.find((f) => f.id === id)!) : all.filter(({ id }) => id !== SELF_CHECK);
  const built: Built[] = [];
  for (const { id, handler } of functions) built.push(await bundle(id, handler));
  const series = built.map(({ operationId, file }): Series => ({ id: operationId, file, own: [], baseline: [] }));
  measureInit(series, baselineBuilt.file);
  const rows: Row[] = built.map((b, i) => ({ ...b, ...initOf(series[i]!) }));
  const baselineRuns = series.flatMap((s) => s.baseline.map((m) => m.wall));
  const baseline: Row = {
    ...baselineBuilt,
    init: median(baselineRuns),
    baselineInit: median(baselineRuns),
    ratio: 1,
    interval: [1, 1],
    cpuRatio: 1,
    runs: baselineRuns.length,
  };
  rows.sort((a, b) => b.bytes - a.bytes);
  const width = Math.max(...rows.map((r) => r.operationId.length));
  const delta = (r: Row) => `${r.bytes >= baseline.bytes ? '+' : '−'}${kb(Math.abs(r.bytes - baseline.bytes))}`;
  console.log(
    `${'function'.padEnd(width)}  ${'minified'.padStart(11)}  ${'vs baseline'.padStart(12)}  ${'gzip'.padStart(11)}  ${'init ms'.padStart(8)}  ${'init ×'.padStart(6)}  ${'95% interval'.padStart(12)}  ${'runs'.padStart(4)}  ${'cpu ×'.padStart(5)}  largest packages`,
  );
  for (const r of [baseline, ...rows]) {
    console.log(
      `${r.operationId.padEnd(width)}  ${kb(r.bytes).padStart(11)}  ${delta(r).padStart(12)}  ${kb(r.gzip).padStart(11)}  ${r.init.toFixed(1).padStart(8)}  ${r.ratio.toFixed(2).padStart(6)}  ${r.interval
        .map((x) => x.toFixed(2))
        .join('–')
        .padStart(12)}  ${String(r.runs).padStart(4)}  ${r.cpuRatio.toFixed(2).padStart(5)}  ${r.top}`,
    );
  }
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  console.log(
    `${rows.length} functions, ${kb(total)} in all, largest ${kb(rows[0]!.bytes)}, smallest ${kb(rows[rows.length - 1]!.bytes)} (source maps not counted)`,
  );
  const others = rows.filter((r) => r.operationId !== 'mcp');
  const slow = rows.filter(initOver).map((r) => r.operationId);
  const missed = (ids: string[]) => (ids.length ? `MISSED by ${ids.length} (${ids.join(', ')})` : 'OK');
  const mcp = rows.find((r) => r.operationId === 'mcp');
  if (others.length) {
    const largest = others[0]!;
    const slowest = others.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    const within = others.filter((r) => !initOver(r)).length;
    console.log(`largest function but mcp: ${kb(largest.bytes)} (${largest.operationId}), ${delta(largest)} over the baseline (reported; size is not a goal)`);
    console.log(
      `slowest module init but mcp / baseline (median of paired runs' ratios): ${slowest.ratio.toFixed(2)}× (${slowest.operationId}, medians ${slowest.init.toFixed(1)} / ${slowest.baselineInit.toFixed(1)} ms); ` +
        `median ${median(others.map((r) => r.ratio)).toFixed(2)}×, ${within} of ${others.length} within; goal ≤ ${INIT_BUDGET}×: ${missed(slow.filter((id) => id !== 'mcp'))}`,
    );
  }
  if (mcp) {
    console.log(
      `mcp (its own budget): ${kb(mcp.bytes)}; module init ${mcp.ratio.toFixed(2)}× (CPU ${mcp.cpuRatio.toFixed(2)}×), goal ≤ ${MCP_INIT_BUDGET}×: ${slow.includes('mcp') ? 'MISSED' : 'OK'}`,
    );
  }
  const loadAfter = load();
  // The harness keeps one core busy itself (a load of about 1): only a load beyond the cores means
  // the pairs waited for a core.
  const busy = Math.max(loadBefore, loadAfter) > availableParallelism();
  console.log(
    `load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end, on ${availableParallelism()} cores${busy ? ': a loaded machine, the wall-clock ratios say little about the goal' : ''}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
