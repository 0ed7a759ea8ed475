// `npm run bench:restore`: what `admin restore` costs at 10 000 and 100 000 notes — its write
// throughput as a ratio to the emulator's BatchWriteItem ceiling measured in the same run, and the
// peak memory of the restoring process — and how close `admin import productboard` comes to its
// source's request budget. On the local stack (bench/local-stack.ts: DynamoDB Local, the gateway).
//
// Per size: a workspace seeded in bulk (116 hierarchy entities and 200 companies through the store's
// create functions; the notes, every sixth anonymous, each linked to one or two entities, written
// raw by the bulk writer restore uses and scored by its one-pass aggregates), exported once, then
// restored by the CLI as the operator runs it, in a child process preloaded with ./max-rss.ts
// (the child's ru_maxrss at exit). Throughput: the items of the restored workspace over the restore's
// own work (its run item's start to its completion: reading the file, the writes, the aggregates,
// the score comparison; the child's start-up is reported apart). The ceiling: the source
// workspace's items (the same kinds and sizes) written again into a fresh partition with plain
// BatchWriteItems of 25, as many at once as restore runs (lib/store/move/load.ts), through the store's
// batch helper, once before and once after the restore (the mean is the floor; the table grows in
// between). Knobs: BENCH_RESTORE_SIZES (default 10000,100000), BENCH_IMPORT_NOTES (default 1000).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeSection } from './doc-section.ts';
import { inParallel } from './parallel.ts';

process.env.LOG_LEVEL = 'silent';
process.env.TABLE_NAME = 'pm-api-bench-restore';
// The deployed default: the budget an import spends of its source (docs/operations.md).
process.env.RATE_LIMIT_PER_SECOND = '50';
// DynamoDB Local holds a workspace of 100 000 notes (about 350 000 items) in one partition and then
// answers a BatchWriteItem of 25 in more than the deployed 5 s: the bench's calls and the restoring
// child's may wait longer for it (lib/config.ts). Nothing else changes.
process.env.AWS_REQUEST_TIMEOUT_MS ||= '60000';

const { issueApiToken } = await import('#lib/auth/api-tokens.ts');
const { IMPORTANCES } = await import('#lib/domain/score.ts');
const { batchWriteAll } = await import('#lib/store/batch.ts');
const { queryPages } = await import('#lib/store/calls.ts');
const { createEntity } = await import('#lib/store/entity-writes.ts');
const keys = await import('#lib/store/keys.ts');
const { addMember } = await import('#lib/store/members.ts');
const { aggregateLoadedWorkspace } = await import('#lib/store/move/aggregates-fresh.ts');
const { BulkWriter, PARALLEL } = await import('#lib/store/move/load.ts');
const { readRun, runKeyOf } = await import('#lib/store/move/runs.ts');
const { tableName } = await import('#lib/store/table.ts');
const { createWorkspace } = await import('#lib/store/workspaces.ts');
const { exportWorkspace } = await import('../local/move/export.ts');
const { importProductboard } = await import('../local/move/import-productboard.ts');
const { PROJECT_ROOT } = await import('../local/paths.ts');
const { startLocalStack } = await import('./local-stack.ts');

const SIZES = (process.env.BENCH_RESTORE_SIZES ?? '10000,100000').split(',').map(Number);
const IMPORT_NOTES = Number(process.env.BENCH_IMPORT_NOTES ?? 1000);
const CUSTOMERS = 200;
/** The goal: restore writes at this fraction of the emulator's BatchWriteItem ceiling or more. */
const GOAL_RATIO = 0.7;
const BUDGET = Number(process.env.RATE_LIMIT_PER_SECOND);
const MiB = 1024;

const seconds = (since: number) => (performance.now() - since) / 1000;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** A workspace with an admin, 4 products × 4 components × 6 features, 200 companies, and `notes` notes scored. */
async function seed(notes: number): Promise<{ ws: string; admin: Awaited<ReturnType<typeof addMember>> }> {
  const ws = (await createWorkspace(`Restore benchmark, ${notes} notes`)).id;
  const admin = await addMember(ws, { email: `bench-${notes}@example.com`, name: 'Bench Admin', role: 'admin', active: true });
  const make = async (type: 'product' | 'component' | 'feature' | 'company', name: string, parent?: string) =>
    (await createEntity(ws, { type, values: { name }, parentPath: [], ...(parent ? { parent: { id: parent } } : {}) })).id;
  const targets: Array<{ id: string; type: 'product' | 'component' | 'feature' }> = [];
  for (let p = 0; p < 4; p++) {
    const product = await make('product', `Product ${p}`);
    targets.push({ id: product, type: 'product' });
    for (let c = 0; c < 4; c++) {
      const component = await make('component', `Component ${p}.${c}`, product);
      targets.push({ id: component, type: 'component' });
      const features = await inParallel(6, 3, (f) => make('feature', `Feature ${p}.${c}.${f}`, component));
      targets.push(...features.map((id) => ({ id, type: 'feature' as const })));
    }
  }
  const customers = await inParallel(CUSTOMERS, 4, (i) => make('company', `Company ${i}`));
  const writer = new BulkWriter({ ws, id: (id) => id, quiet: 'bench', sealedSecret: () => '' });
  const t0 = Date.parse('2025-01-01T00:00:00Z');
  for (let i = 0; i < notes; i++) {
    const at = new Date(t0 + i * 60_000).toISOString();
    const linked = [...new Set([targets[i % targets.length]!, targets[(i * 7 + 3) % targets.length]!])].slice(0, 1 + (i % 2));
    await writer.add({
      kind: 'note',
      id: randomUUID(),
      type: 'textNote',
      fields: { name: `Feedback ${i}`, content: `<p>What customer ${i % CUSTOMERS} said, ${i}.</p>` },
      ...(i % 6 === 0 ? {} : { customer: { id: customers[i % CUSTOMERS]!, type: 'company' as const } }),
      createdAt: at,
      updatedAt: at,
      links: linked.map((t, k) => ({ entityId: t.id, entityType: t.type, importance: IMPORTANCES[(i + k) % IMPORTANCES.length]!, ratedAt: at })),
    });
  }
  await writer.flush();
  await aggregateLoadedWorkspace(ws, { quiet: 'bench' });
  return { ws, admin };
}

async function partitionItems(ws: string): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  for await (const page of queryPages({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.partition(ws) } }))
    items.push(...page);
  return items;
}

/** The ceiling: `items` (of workspace `ws`) written into a fresh partition, BatchWriteItems of 25, PARALLEL at once; items per second. */
async function ceiling(ws: string, items: Array<Record<string, unknown>>): Promise<number> {
  const copy = JSON.parse(JSON.stringify(items).replaceAll(ws, randomUUID())) as Array<Record<string, unknown>>;
  const t = performance.now();
  await batchWriteAll(
    copy.map((Item) => ({ PutRequest: { Item } })),
    PARALLEL,
  );
  return copy.length / seconds(t);
}

/** `admin restore` in a child process, as the operator runs it; its result, wall time and peak RSS. */
async function restoreInChild(file: string, name: string) {
  const t = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './bench/max-rss.ts', 'local/admin.ts', 'restore', '--in', file, '--name', name], {
    cwd: PROJECT_ROOT,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wall = seconds(t);
  const maxRss = /^maxRSS (\d+)$/m.exec(stderr);
  if (code !== 0 || !maxRss) throw new Error(`admin restore exited ${code}:\n${stderr.slice(-2000)}`);
  return { result: JSON.parse(stdout) as { id: string; scores: { checked: number; mismatches: number } }, wall, maxRssMiB: Number(maxRss[1]) / MiB };
}

interface Row {
  notes: number;
  items: number;
  fileMiB: number;
  workSeconds: number;
  wallSeconds: number;
  perSecond: number;
  ceilings: [number, number];
  ratio: number;
  maxRssMiB: number;
  scores: { checked: number; mismatches: number };
  seedSeconds: number;
}

async function measureSize(notes: number, dir: string): Promise<Row> {
  let t = performance.now();
  const { ws } = await seed(notes);
  const seedSeconds = seconds(t);
  console.log(`${fmt(notes)} notes: seeded in ${seedSeconds.toFixed(0)} s`);
  const file = join(dir, `restore-${notes}.jsonl.gz`);
  t = performance.now();
  const exported = await exportWorkspace(ws, file);
  console.log(`  exported in ${seconds(t).toFixed(0)} s (${(exported.bytes / 2 ** 20).toFixed(1)} MiB)`);
  const sourceItems = await partitionItems(ws);
  const before = await ceiling(ws, sourceItems);
  console.log(`  ceiling before: ${fmt(before)} items/s (${fmt(sourceItems.length)} items)`);
  const name = `Restored ${notes}`;
  const restored = await restoreInChild(file, name);
  const run = (await readRun(runKeyOf('restore', exported.exportId, name)))!;
  const workSeconds = (Date.parse(run.completedAt!) - Date.parse(run.startedAt)) / 1000;
  const items = (await partitionItems(restored.result.id)).length;
  const perSecond = items / workSeconds;
  console.log(
    `  restore: ${fmt(items)} items in ${workSeconds.toFixed(1)} s of work (${restored.wall.toFixed(1)} s with start-up) = ${fmt(perSecond)} items/s; peak RSS ${restored.maxRssMiB.toFixed(0)} MiB; scores ${JSON.stringify(restored.result.scores)}`,
  );
  const after = await ceiling(ws, sourceItems);
  const ratio = perSecond / ((before + after) / 2);
  console.log(
    `  ceiling after: ${fmt(after)} items/s → restore at ${ratio.toFixed(2)}× the ceiling (goal ≥ ${GOAL_RATIO}×: ${ratio >= GOAL_RATIO ? 'met' : 'NOT met'})`,
  );
  await rm(file, { force: true });
  return {
    notes,
    items,
    fileMiB: exported.bytes / 2 ** 20,
    workSeconds,
    wallSeconds: restored.wall,
    perSecond,
    ceilings: [before, after],
    ratio,
    maxRssMiB: restored.maxRssMiB,
    scores: restored.result.scores,
    seedSeconds,
  };
}

/** `admin import productboard` from the local stack's API (the source's budget BUDGET req/s per token). */
async function measureImport(appUrl: string, dir: string) {
  const { admin } = await seed(IMPORT_NOTES);
  const tokenFile = join(dir, 'source-token');
  await writeFile(tokenFile, (await issueApiToken(admin)).token, { mode: 0o600 });
  const t = performance.now();
  const out = await importProductboard({ source: `${appUrl}/v2`, tokenFile, name: 'Imported (bench)' });
  const wall = seconds(t);
  return { notes: out.counts.note ?? 0, wall, ...out.source };
}

type Imported = Awaited<ReturnType<typeof measureImport>>;

/** The section of docs/performance.md, rewritten after each size (a run stopped part-way keeps what it measured). */
function render(rows: Row[], imported: Imported, pending: number[]): string {
  const load = loadavg()[0]!;
  return `## Restore (\`npm run bench:restore\`)

### Method

\`admin restore\` on the local stack (DynamoDB Local in memory, ${process.platform}, Node ${process.version}). Per size a
workspace is seeded in bulk — 116 hierarchy entities (4 products × 4 components × 6 features) and
${CUSTOMERS} companies through the store's create functions, then the notes (every sixth anonymous, each
linked to one or two entities, importances cycling) written raw by the bulk writer restore itself
uses and scored by its one-pass aggregates — exported once with \`admin export\`, and restored by the CLI
as an operator runs it, in a child process.

- **Throughput**: the items of the restored workspace (records, index items, rating items) over the
  restore's own work, from its run item's start to its completion (reading and checking the file, the
  batched writes, the aggregates pass, the score comparison); the child's start-up (loading the CLI)
  is in the "with start-up" time only.
- **Floor**: the emulator's BatchWriteItem ceiling in the same run — the source workspace's items
  (the same kinds and sizes) written into a fresh partition with plain BatchWriteItems of 25, ${PARALLEL} at
  once as restore runs them (lib/store/move/load.ts), through the store's batch helper
  (lib/store/batch.ts), once before and once after the restore; the ratio is over their mean.
  Goal: ≥ ${GOAL_RATIO}×.
- **Peak memory**: the restoring process's resident-set high-water mark, \`ru_maxrss\` as
  \`process.resourceUsage().maxRSS\` reports it at the child's exit (bench/max-rss.ts, preloaded with
  \`node --import\`); it includes Node itself and the TypeScript loader.
- **A slow emulator**: with a workspace of 100 000 notes DynamoDB Local answers a BatchWriteItem in
  more than the deployed 5 s, so the bench raises \`AWS_REQUEST_TIMEOUT_MS\` to 60 s for itself and
  the restoring child (docs/operations.md).

### Figures

| notes | items restored | file | restore work | with start-up | items/s | ceiling items/s (before, after) | × ceiling (goal ≥ ${GOAL_RATIO}×) | peak RSS | scores compared |
|---|---|---|---|---|---|---|---|---|---|
${rows
  .map(
    (r) =>
      `| ${fmt(r.notes)} | ${fmt(r.items)} | ${r.fileMiB.toFixed(1)} MiB | ${r.workSeconds.toFixed(1)} s | ${r.wallSeconds.toFixed(1)} s | ${fmt(r.perSecond)} | ${fmt(r.ceilings[0])}, ${fmt(r.ceilings[1])} | **${r.ratio.toFixed(2)}×** ${r.ratio >= GOAL_RATIO ? 'met' : '**not met**'} | ${r.maxRssMiB.toFixed(0)} MiB | ${r.scores.checked}, ${r.scores.mismatches} mismatches |`,
  )
  .concat(pending.map((n) => `| ${fmt(n)} | not measured: the run stopped before this size finished | | | | | | | | |`))
  .join('\n')}

Seeding took ${rows.map((r) => `${r.seedSeconds.toFixed(0)} s (${fmt(r.notes)})`).join(', ')}. Load average ${load.toFixed(1)} at the end of the run on ${availableParallelism()} cores
(above 2, other work shared the machine: the absolute figures are inflated, the ratios less so).

### The API import against its source's budget

\`admin import productboard\` of a workspace of ${fmt(imported.notes)} notes seeded the same way, from the local
stack's own API (the gateway in the benchmark's process, a budget of ${BUDGET} requests per second per
token, as deployed): ${imported.requests} requests in ${imported.seconds.toFixed(1)} s, **${imported.requestsPerSecond} req/s, ${((imported.requestsPerSecond / BUDGET) * 100).toFixed(0)} % of the budget**,
${imported.throttled} answered 429; ${fmt(imported.notes / imported.seconds)} notes/s. ${
    imported.throttled === 0 && imported.requestsPerSecond < BUDGET
      ? "It never met the budget: it reads one list page at a time (notes with their links inline) and writes each before asking for the next, so the source's answer time and its own writes, not the budget, set its pace."
      : "It reached the budget: the source's 429s (waited out as Retry-After says) set its pace."
  }`;
}

async function main() {
  const { appUrl, stop } = await startLocalStack('restore');
  const dir = await mkdtemp(join(tmpdir(), 'pm-api-bench-restore-'));
  try {
    const imported = await measureImport(appUrl, dir);
    console.log(
      `import productboard, ${fmt(imported.notes)} notes: ${imported.requests} requests in ${imported.seconds.toFixed(1)} s = ${imported.requestsPerSecond} req/s of the source's ${BUDGET} req/s budget (${((imported.requestsPerSecond / BUDGET) * 100).toFixed(0)} %), ${imported.throttled} throttled; ${fmt(imported.notes / imported.seconds)} notes/s`,
    );
    const rows: Row[] = [];
    for (const [i, notes] of SIZES.entries()) {
      rows.push(await measureSize(notes, dir));
      await writeSection('bench:restore', render(rows, imported, SIZES.slice(i + 1)));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    await stop();
  }
}

await main();
