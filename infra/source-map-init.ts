// What Node's source-map support costs a cold start: `npm run source-map-init`. The stack
// deploys every function with its map beside the bundle but without --enable-source-maps
// (infra/service-function.ts); this measures that choice. The baseline (infra/baseline-handler.ts)
// and two functions are bundled as the stack bundles them, map included (infra/bundling.ts), and
// each is imported in a fresh node process (infra/module-init.ts) with and without
// NODE_OPTIONS=--enable-source-maps, the two alternating within each round so load reaches both
// alike. SOURCE_MAP_ROUNDS sets the rounds (default 15). Prints a table; docs/performance.md
// ("Source maps at init") keeps the last one, like infra/bundle-sizes.ts's figures.
import { statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { createNote, getCustomerScore } from '#lib/routes.ts';
import { stackBundling, esbuildOptions, PROJECT_ROOT } from './bundling.ts';
import { importMs, median } from './module-init.ts';

const ROUNDS = Number(process.env.SOURCE_MAP_ROUNDS ?? 15);
const FLAG = '--enable-source-maps';
const BUNDLES = [
  { name: 'baseline', handler: 'infra/baseline-handler.ts' },
  { name: getCustomerScore.operationId, handler: getCustomerScore.handler },
  { name: createNote.operationId, handler: createNote.handler },
];

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The bundle and its map, as `cdk synth` writes them: the stack's options with its source-map settings. */
async function bundle(name: string, handler: string): Promise<string> {
  const { sourceMap, sourcesContent } = stackBundling();
  const outfile = join(PROJECT_ROOT, 'cdk.out', 'source-maps', name, 'index.mjs');
  await build({ entryPoints: [join(PROJECT_ROOT, handler)], outfile, ...esbuildOptions(), sourcemap: sourceMap, sourcesContent });
  return outfile;
}

const loadBefore = loadavg()[0]!;
const built = await Promise.all(BUNDLES.map(async (b) => ({ ...b, file: await bundle(b.name, b.handler) })));
const times = built.map(() => ({ without: [] as number[], with: [] as number[] }));
for (const b of built) {
  importMs(b.file);
  importMs(b.file, FLAG);
}
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, b] of built.entries()) {
    const flagFirst = round % 2 === 1;
    if (flagFirst) times[i]!.with.push(importMs(b.file, FLAG).wall);
    times[i]!.without.push(importMs(b.file).wall);
    if (!flagFirst) times[i]!.with.push(importMs(b.file, FLAG).wall);
  }
}
const loadAfter = loadavg()[0]!;
const rows = built.map((b, i) => {
  const t = times[i]!;
  const [without, withMaps] = [median(t.without), median(t.with)];
  const ratio = median(t.with.map((w, k) => w / t.without[k]!));
  return { ...b, bytes: statSync(b.file).size, mapBytes: statSync(`${b.file}.map`).size, without, withMaps, ratio };
});
const table = [
  '| bundle | bundle | its map | module init, as deployed (no flag) | with `--enable-source-maps` | added | with / without (median of the rounds) |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${kib(r.bytes)} | ${kib(r.mapBytes)} | ${r.without.toFixed(1)} ms | ${r.withMaps.toFixed(1)} ms | +${(r.withMaps - r.without).toFixed(1)} ms | ${r.ratio.toFixed(2)}× |`,
  ),
].join('\n');
const busy = Math.max(loadBefore, loadAfter) > availableParallelism();
const conditions = `load average ${loadBefore.toFixed(1)} at the start and ${loadAfter.toFixed(1)} at the end on ${availableParallelism()} cores${busy ? ' (a loaded machine: the wall-clock figures say little)' : ''}`;
console.log(table);
console.log(conditions);
