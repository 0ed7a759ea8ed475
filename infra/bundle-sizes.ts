// Prints each function's bundle size (routes and workers): `npm run bundle-sizes`. Bundles with esbuild and the
// stack's own options (infra/route-functions.ts BUNDLING), so the figures are the deployed code's.
// Also names the three largest packages in each bundle: where a cold start's bytes come from.
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { ROUTES } from '#lib/routes.ts';
import { WORKERS } from '#lib/workers.ts';
import { ESBUILD_OPTIONS, PROJECT_ROOT } from './bundling.ts';

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

async function main() {
  const rows: Array<{ operationId: string; bytes: number; gzip: number; top: string }> = [];
  const functions = [...ROUTES.map((r) => ({ id: r.operationId, handler: r.handler })), ...WORKERS.map((w) => ({ id: w.id, handler: w.handler }))];
  for (const { id, handler } of functions) {
    const result = await build({
      entryPoints: [join(PROJECT_ROOT, handler)],
      outfile: join(PROJECT_ROOT, 'cdk.out', 'bundle-sizes', id, 'index.mjs'),
      ...ESBUILD_OPTIONS,
      write: false,
      metafile: true,
    });
    const code = result.outputFiles.find((f) => f.path.endsWith('index.mjs'))!;
    rows.push({ operationId: id, bytes: code.contents.length, gzip: gzipSync(code.contents).length, top: largestPackages(result.metafile, 'index.mjs', 3) });
  }
  rows.sort((a, b) => b.bytes - a.bytes);
  const width = Math.max(...rows.map((r) => r.operationId.length));
  console.log(`${'function'.padEnd(width)}  ${'minified'.padStart(11)}  ${'gzip'.padStart(11)}  largest packages`);
  for (const r of rows) console.log(`${r.operationId.padEnd(width)}  ${kb(r.bytes).padStart(11)}  ${kb(r.gzip).padStart(11)}  ${r.top}`);
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  console.log(`${rows.length} functions, ${kb(total)} in all, largest ${kb(rows[0]!.bytes)}, smallest ${kb(rows[rows.length - 1]!.bytes)} (source maps not counted)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
