// `npm run bench:request-scope`: what the request scope costs the score route (lib/deadline.ts: an
// AsyncLocalStorage that carries each request's deadline and abort signal to every AWS call).
// The score function's handler (functions/entities/get-score.ts, the deployed module) answers
// GET /v2/entities/{id}/score in a fresh child process against one DynamoDB Local, concurrency 1,
// in two variants: as deployed, and with AsyncLocalStorage's run() replaced in that child by a plain
// call (so no store is entered, the promise hook never runs and no call carries a signal; everything
// else is the same code). The children alternate A, B, B, A, … so load that changes during the run
// weighs on both; each prints its p50 and CPU per request; the figure is the median of the rounds'
// ratios, scoped over unscoped. Knobs: SCOPE_ROUNDS (default 8), SCOPE_REQUESTS per child (default
// 400, after 100 warm-up requests), BENCH_NO_DOCS=1 (print only).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, loadavg, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { median } from './stats.ts';

const ROUNDS = Number(process.env.SCOPE_ROUNDS ?? 8);
const REQUESTS = Number(process.env.SCOPE_REQUESTS ?? 400);
const WARM_UP = 100;

interface ChildResult {
  p50: number;
  cpuPerRequest: number;
}

/** The child: one variant's requests through the handler, timed. */
async function child(): Promise<void> {
  const { AsyncLocalStorage } = await import('node:async_hooks');
  if (process.env.SCOPE_VARIANT === 'unscoped') {
    // The variant without the scope: run() calls its function and enters nothing.
    AsyncLocalStorage.prototype.run = function run<R, A extends unknown[]>(_store: unknown, fn: (...args: A) => R, ...args: A): R {
      return fn(...args);
    };
  }
  const routes = await import('#lib/routes.ts');
  const { buildEvent, loadHandler } = await import('../local/gateway.ts');
  const handler = await loadHandler(routes.getCustomerScore);
  const id = process.env.SCOPE_ENTITY!;
  const rawHeaders = ['Authorization', `Bearer ${process.env.SCOPE_TOKEN!}`];
  const once = async (n: number) => {
    const event = buildEvent(
      { method: 'GET', url: `/v2/entities/${id}/score`, rawHeaders, body: Buffer.alloc(0) },
      routes.getCustomerScore,
      { id },
      `scope-${n}`,
    );
    const res = await handler(event, { getRemainingTimeInMillis: () => 30_000 } as Parameters<typeof handler>[1]);
    if (res.statusCode !== 200) throw new Error(`score answered ${res.statusCode}: ${res.body}`);
  };
  for (let i = 0; i < WARM_UP; i++) await once(i);
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    await once(i);
    times.push(performance.now() - t);
  }
  const { user, system } = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  const result: ChildResult = { p50: times[times.length >> 1]!, cpuPerRequest: (user + system) / 1000 / REQUESTS };
  process.stdout.write(JSON.stringify(result));
}

async function main(): Promise<void> {
  process.env.TABLE_NAME = 'pm-api-request-scope';
  process.env.LOG_LEVEL = 'silent';
  process.env.RATE_LIMIT_PER_SECOND = '0';
  const { generateServiceKeyMaterial } = await import('#lib/auth/service-key-file.ts');
  const { issueApiToken } = await import('#lib/auth/api-tokens.ts');
  const { tableName } = await import('#lib/store/client.ts');
  const { addMember } = await import('#lib/store/members.ts');
  const { createWorkspace } = await import('#lib/store/workspaces.ts');
  const { createEntity } = await import('#lib/store/entity-writes.ts');
  const { ensureTable, startDynamoDbLocal } = await import('../local/dynamodb-local.ts');
  const { writeSection } = await import('./doc-section.ts');

  const dir = await mkdtemp(join(tmpdir(), 'pm-api-scope-'));
  const keyFile = join(dir, 'service-key.json');
  await writeFile(keyFile, JSON.stringify(await generateServiceKeyMaterial()));
  const ddb = await startDynamoDbLocal();
  try {
    process.env.DYNAMODB_ENDPOINT = ddb.endpoint;
    process.env.SERVICE_KEY_FILE = keyFile;
    await ensureTable(ddb.endpoint, tableName());
    const workspace = await createWorkspace('Request scope benchmark');
    const member = await addMember(workspace.id, { email: 'scope@example.com', role: 'admin', active: true });
    const { token } = await issueApiToken(member);
    const product = await createEntity(workspace.id, { type: 'product', values: { name: 'Scoped' }, parentPath: ['data'] });
    const env = { ...process.env, SCOPE_CHILD: '1', SCOPE_TOKEN: token, SCOPE_ENTITY: product.id };
    const run = async (variant: 'scoped' | 'unscoped'): Promise<ChildResult> => {
      const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, import.meta.filename], {
        env: { ...env, SCOPE_VARIANT: variant },
        maxBuffer: 1 << 20,
      });
      return JSON.parse(stdout) as ChildResult;
    };
    const loadBefore = loadavg()[0]!;
    const rounds: Array<{ scoped: ChildResult; unscoped: ChildResult }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const order: Array<'scoped' | 'unscoped'> = r % 2 ? ['unscoped', 'scoped'] : ['scoped', 'unscoped'];
      const got: Partial<Record<'scoped' | 'unscoped', ChildResult>> = {};
      for (const v of order) got[v] = await run(v);
      rounds.push({ scoped: got.scoped!, unscoped: got.unscoped! });
      console.log(
        `round ${r + 1}: p50 scoped ${got.scoped!.p50.toFixed(2)} ms, unscoped ${got.unscoped!.p50.toFixed(2)} ms; CPU/request ${got.scoped!.cpuPerRequest.toFixed(2)} / ${got.unscoped!.cpuPerRequest.toFixed(2)} ms`,
      );
    }
    const loadAfter = loadavg()[0]!;
    const p50Ratio = median(rounds.map((r) => r.scoped.p50 / r.unscoped.p50));
    const cpuRatio = median(rounds.map((r) => r.scoped.cpuPerRequest / r.unscoped.cpuPerRequest));
    const p50s = (v: 'scoped' | 'unscoped') => median(rounds.map((r) => r[v].p50));
    const cpus = (v: 'scoped' | 'unscoped') => median(rounds.map((r) => r[v].cpuPerRequest));
    const busy = Math.max(loadBefore, loadAfter) > availableParallelism();
    const summary = `score route p50 with the request scope / without: ${p50Ratio.toFixed(3)}× (medians ${p50s('scoped').toFixed(2)} / ${p50s('unscoped').toFixed(2)} ms); CPU per request ${cpuRatio.toFixed(3)}× (${cpus('scoped').toFixed(2)} / ${cpus('unscoped').toFixed(2)} ms)`;
    console.log(summary);
    console.log(
      `load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end, on ${availableParallelism()} cores${busy ? ': a loaded machine' : ''}`,
    );
    if (process.env.BENCH_NO_DOCS !== '1') {
      await writeSection(
        'bench:request-scope',
        `## The request scope (\`npm run bench:request-scope\`)

Generated by \`npm run bench:request-scope\` (bench/request-scope.ts) on ${new Date().toISOString().slice(0, 10)}, load average
${loadBefore.toFixed(1)}–${loadAfter.toFixed(1)} on ${availableParallelism()} cores${busy ? ' (a loaded machine: the wall-clock figures say little)' : ''}. What lib/deadline.ts's AsyncLocalStorage costs the score
route: its handler in a fresh process answering ${REQUESTS} requests at concurrency 1 (after ${WARM_UP} warm-up requests)
against DynamoDB Local, as deployed and with AsyncLocalStorage's \`run()\` replaced by a plain call in that process
(no scope, no promise hook, no signal on the calls); ${ROUNDS} rounds, the variants alternating.

| | p50 ms | CPU ms per request |
|---|---:|---:|
| with the scope (deployed) | ${p50s('scoped').toFixed(2)} | ${cpus('scoped').toFixed(2)} |
| without | ${p50s('unscoped').toFixed(2)} | ${cpus('unscoped').toFixed(2)} |
| ratio (median of the rounds') | ${p50Ratio.toFixed(3)}× | ${cpuRatio.toFixed(3)}× |`,
      );
      console.log('Wrote docs/performance.md');
    }
  } finally {
    await ddb.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.env.SCOPE_CHILD) await child();
else await main();
