// Prints each function's bundle size (routes and workers) and module-init time: `npm run bundle-sizes`.
// Bundles with esbuild and the stack's own options (infra/bundling.ts esbuildOptionsFor), so the figures
// are the deployed code's, beside a baseline bundled the same way (infra/baseline-handler.ts: a
// hello-world Middy handler with the same DynamoDB document client). Module init is the median, over
// BUNDLE_INIT_RUNS (default 11) fresh `node` processes, of the time `import()` of the bundle takes;
// each function's runs alternate with as many of the baseline's, and its ratio is to the baseline's
// median of those, so load on a shared machine weighs on both sides alike. Beside the wall-clock
// ratio (the goal's: Lambda's Init Duration is wall-clock), the CPU-time ratio of the same runs
// (process.cpuUsage() around the import): time spent waiting for a core on a loaded machine is not in it.
// Goals: every function ≤ baseline + 100 KiB minified, init ≤ 1.2× the baseline's; `mcp` has its
// own stated budgets (MCP_BUDGET, docs/performance.md "The MCP server's function"). Also names the
// three largest packages in each bundle: where a cold start's bytes come from. BUNDLE_ONLY (operation
// or worker ids, comma-separated) measures only those, beside the baseline, while working on a few.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { ROUTES } from '#lib/routes.ts';
import { WORKERS } from '#lib/workers.ts';
import { esbuildOptionsFor, PROJECT_ROOT } from './bundling.ts';

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

const RUNS = Number(process.env.BUNDLE_INIT_RUNS ?? 11);
const BASELINE = '(baseline)';
const SIZE_BUDGET = 100 * 1024;
const INIT_BUDGET = 1.2;
/** The MCP function's own budgets: its SDK brings its own dependencies (issue 13 allows it). */
const MCP_BUDGET = { bytes: 1024 * 1024, init: 2.0 };
const sizeOver = (r: Row, baseline: Row) => (r.operationId === 'mcp' ? r.bytes > MCP_BUDGET.bytes : r.bytes - baseline.bytes > SIZE_BUDGET);
const initOver = (r: Row) => ratio(r) > (r.operationId === 'mcp' ? MCP_BUDGET.init : INIT_BUDGET);

interface Import {
  /** Wall-clock ms. */
  wall: number;
  /** CPU ms (user + system, every thread of the process). */
  cpu: number;
}

/** Time a fresh node process takes to import the bundle at `file` (module init). */
function importMs(file: string): Import {
  const probe = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); const wall = performance.now() - t; const { user, system } = process.cpuUsage(c); process.stdout.write(JSON.stringify({ wall, cpu: (user + system) / 1000 }));`;
  // Configuration a module may read on import; nothing is called.
  const env = { ...process.env, TABLE_NAME: 'bundle-sizes', AWS_REGION: 'eu-west-1', LOG_LEVEL: 'silent' };
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { env, encoding: 'utf8' })) as Import;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Medians of RUNS imports of `file` and, alternating with them, of the baseline's bundle. */
function initMs(file: string, baselineFile: string | undefined): Pick<Row, 'init' | 'baselineInit' | 'cpuRatio'> {
  const own: Import[] = [];
  const baseline: Import[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (baselineFile) baseline.push(importMs(baselineFile));
    own.push(importMs(file));
  }
  const base = baselineFile ? baseline : own;
  return {
    init: median(own.map((m) => m.wall)),
    baselineInit: median(base.map((m) => m.wall)),
    cpuRatio: median(own.map((m) => m.cpu)) / median(base.map((m) => m.cpu)),
  };
}

interface Row {
  operationId: string;
  bytes: number;
  gzip: number;
  init: number;
  /** The baseline's init measured alternately with this function's. */
  baselineInit: number;
  /** CPU time of the import over the baseline's, medians of the same alternating runs. */
  cpuRatio: number;
  top: string;
}

async function measure(id: string, handler: string, baselineFile?: string): Promise<Row> {
  const outfile = join(PROJECT_ROOT, 'cdk.out', 'bundle-sizes', id, 'index.mjs');
  const result = await build({ entryPoints: [join(PROJECT_ROOT, handler)], outfile, ...esbuildOptionsFor(handler), write: false, metafile: true });
  const code = result.outputFiles.find((f) => f.path.endsWith('index.mjs'))!;
  mkdirSync(join(outfile, '..'), { recursive: true });
  writeFileSync(outfile, code.contents);
  return { operationId: id, bytes: code.contents.length, gzip: gzipSync(code.contents).length, ...initMs(outfile, baselineFile), top: largestPackages(result.metafile, 'index.mjs', 3) };
}

const ratio = (r: Row) => r.init / r.baselineInit;

async function main() {
  const baseline = await measure(BASELINE, 'infra/baseline-handler.ts');
  const rows: Row[] = [];
  const only = process.env.BUNDLE_ONLY?.split(',').map((id) => id.trim());
  const functions = [...ROUTES.map((r) => ({ id: r.operationId, handler: r.handler })), ...WORKERS.map((w) => ({ id: w.id, handler: w.handler }))].filter(
    ({ id }) => !only || only.includes(id),
  );
  if (only && functions.length !== only.length) throw new Error(`BUNDLE_ONLY names unknown functions: ${only.filter((id) => !functions.some((f) => f.id === id)).join(', ')}`);
  const baselineFile = join(PROJECT_ROOT, 'cdk.out', 'bundle-sizes', BASELINE, 'index.mjs');
  for (const { id, handler } of functions) rows.push(await measure(id, handler, baselineFile));
  rows.sort((a, b) => b.bytes - a.bytes);
  const width = Math.max(...rows.map((r) => r.operationId.length));
  const delta = (r: Row) => `${r.bytes >= baseline.bytes ? '+' : '−'}${kb(Math.abs(r.bytes - baseline.bytes))}`;
  console.log(`${'function'.padEnd(width)}  ${'minified'.padStart(11)}  ${'vs baseline'.padStart(12)}  ${'gzip'.padStart(11)}  ${'init ms'.padStart(8)}  ${'init ×'.padStart(6)}  ${'cpu ×'.padStart(5)}  largest packages`);
  for (const r of [baseline, ...rows]) {
    console.log(
      `${r.operationId.padEnd(width)}  ${kb(r.bytes).padStart(11)}  ${delta(r).padStart(12)}  ${kb(r.gzip).padStart(11)}  ${r.init.toFixed(1).padStart(8)}  ${ratio(r).toFixed(2).padStart(6)}  ${r.cpuRatio.toFixed(2).padStart(5)}  ${r.top}`,
    );
  }
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  console.log(`${rows.length} functions, ${kb(total)} in all, largest ${kb(rows[0]!.bytes)}, smallest ${kb(rows[rows.length - 1]!.bytes)} (source maps not counted)`);
  const others = rows.filter((r) => r.operationId !== 'mcp');
  const over = rows.filter((r) => sizeOver(r, baseline)).map((r) => r.operationId);
  const slow = rows.filter(initOver).map((r) => r.operationId);
  const missed = (ids: string[]) => (ids.length ? `MISSED by ${ids.length} (${ids.join(', ')})` : 'OK');
  const mcp = rows.find((r) => r.operationId === 'mcp');
  if (others.length) {
    const largest = others[0]!;
    const slowest = others.reduce((a, b) => (ratio(b) > ratio(a) ? b : a));
    const within = others.filter((r) => !initOver(r)).length;
    console.log(`largest function but mcp − baseline: ${delta(largest)} (${largest.operationId}); goal ≤ +100 KiB: ${missed(over.filter((id) => id !== 'mcp'))}`);
    console.log(
      `slowest module init but mcp / baseline (alternating runs): ${slowest.init.toFixed(1)} / ${slowest.baselineInit.toFixed(1)} ms = ${ratio(slowest).toFixed(2)}× (${slowest.operationId}); ` +
        `median ${median(others.map(ratio)).toFixed(2)}×, ${within} of ${others.length} within; goal ≤ ${INIT_BUDGET}×: ${missed(slow.filter((id) => id !== 'mcp'))}`,
    );
  }
  if (mcp) {
    const ok = !over.includes('mcp') && !slow.includes('mcp');
    console.log(`mcp (its own budgets): ${kb(mcp.bytes)}, goal ≤ ${kb(MCP_BUDGET.bytes)}; module init ${ratio(mcp).toFixed(2)}× (CPU ${mcp.cpuRatio.toFixed(2)}×), goal ≤ ${MCP_BUDGET.init}×: ${ok ? 'OK' : 'MISSED'}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
