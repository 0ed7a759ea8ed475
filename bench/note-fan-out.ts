// `npm run bench:note-fan-out`: what a note with many links costs to create, to move to another
// customer and to delete through the API when its change needs more than one transaction
// (lib/store/notes.ts: the note first with its pending work, then the links in steps of as many as
// one transaction holds), on the local stack.
//
// Seeded through the API: a product, three components, and features under them round robin, two
// companies. For each size of BENCH_FAN_OUT_LINKS (default 45, 180 and 450 links): POST /v2/notes
// with a customer and a critical link to each feature, PUT its customer to the other company, DELETE
// it — each timed, and the DynamoDB calls it sent counted (a middleware on the store's client, in
// this process only). Checks after each: the status (201, 200, 204), the product's score (3 per
// link, then 0), and `score verify` (0 mismatches, 0 pending). Floor, timed in the same run: the
// request's transactions alone — as many TransactWriteItems as it sent, each of as many Puts of
// fresh small items as it had, one after another, no reads. No pass/fail goal: the figures say what
// a step costs beyond its writes. Exits 1 when a check fails; rewrites its section of docs/performance.md
// (not with BENCH_NO_DOCS=1).
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { apiClient } from './api.ts';
import { writeSection } from './doc-section.ts';

process.env.LOG_LEVEL = 'silent';
process.env.TABLE_NAME = 'pm-api-bench-fan-out';
process.env.RATE_LIMIT_PER_SECOND = '1000';

const { issueApiToken } = await import('#lib/auth/api-tokens.ts');
const { db } = await import('#lib/store/client.ts');
const { transactWrite } = await import('#lib/store/calls.ts');
const { addMember } = await import('#lib/store/members.ts');
const { tableName } = await import('#lib/store/table.ts');
const { createWorkspace } = await import('#lib/store/workspaces.ts');
const { verifyScores } = await import('../local/admin/score.ts');
const { startLocalStack } = await import('./local-stack.ts');

const SIZES = (process.env.BENCH_FAN_OUT_LINKS ?? '45,180,450').split(',').map(Number);

/** The DynamoDB calls this process sends while `work` runs: by operation, and each transaction's item count. */
async function counted<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; calls: Record<string, number>; transactions: number[] }> {
  const calls: Record<string, number> = {};
  const transactions: number[] = [];
  const name = 'benchCount';
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const op = String(context.commandName ?? '').replace(/Command$/, '');
      calls[op] = (calls[op] ?? 0) + 1;
      if (op === 'TransactWriteItems') transactions.push(((args.input as { TransactItems?: unknown[] }).TransactItems ?? []).length);
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    const started = performance.now();
    const result = await work();
    return { result, ms: performance.now() - started, calls, transactions };
  } finally {
    db().middlewareStack.remove(name);
  }
}

/** Transaction sizes with repeats folded: 3, 98 ×14, 53. */
const sizes = (items: readonly number[]) => {
  const runs: Array<[number, number]> = [];
  for (const n of items) {
    const last = runs.at(-1);
    if (last && last[0] === n) last[1]++;
    else runs.push([n, 1]);
  }
  return runs.map(([n, times]) => (times > 1 ? `${n} ×${times}` : String(n))).join(', ');
};
/** The floor of a request: its transactions' writes alone, one after another (fresh small items under a partition of their own). */
async function writesAlone(transactions: readonly number[]): Promise<number> {
  const pk = `BENCH#${randomUUID()}`;
  const started = performance.now();
  for (const size of transactions) {
    await transactWrite({
      TransactItems: Array.from({ length: size }, () => ({ Put: { TableName: tableName(), Item: { pk, sk: randomUUID(), kind: 'bench', n: 1 } } })),
    });
  }
  return performance.now() - started;
}

interface Step {
  what: 'create' | 'customer change' | 'delete';
  links: number;
  ms: number;
  floorMs: number;
  transactions: number[];
  reads: number;
}

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
};

const loadBefore = loadavg()[0]!;
const stack = await startLocalStack('fan-out');
const steps: Step[] = [];
try {
  const base = `${stack.appUrl}/v2`;
  for (const links of SIZES) {
    const workspace = await createWorkspace('Fan-out benchmark');
    const token = (await issueApiToken(await addMember(workspace.id, { email: 'fan-out@example.com', role: 'admin', active: true }))).token;
    const { send, entity } = apiClient(base, token);
    const product = await entity('product');
    const components = [await entity('component', product), await entity('component', product), await entity('component', product)];
    const features: string[] = [];
    for (let i = 0; i < links; i++) features.push(await entity('feature', components[i % 3]));
    const [acme, globex] = [await entity('company'), await entity('company')];
    const score = async () => (await send('GET', `/entities/${product}/score`)).json?.data?.fields?.score;
    const timed = async <R extends { status: number; text: string }>(what: Step['what'], request: () => Promise<R>, status: number, expectedScore: number) => {
      const run = await counted(request);
      check(run.result.status === status, `${links} links, ${what}: ${run.result.status} ${run.result.text.slice(0, 200)}`);
      const floorMs = await writesAlone(run.transactions);
      const reads = (run.calls.GetItem ?? 0) + (run.calls.BatchGetItem ?? 0) + (run.calls.Query ?? 0);
      steps.push({ what, links, ms: run.ms, floorMs, transactions: run.transactions, reads });
      const got = await score();
      check(got === expectedScore, `${links} links, after the ${what}: the product scores ${String(got)}, not ${expectedScore}`);
      const verified = await verifyScores({ workspace: workspace.id, repair: false });
      check(verified.mismatches === 0 && verified.pending === 0, `${links} links, after the ${what}: verify ${JSON.stringify(verified)}`);
      console.log(
        `${String(links).padStart(4)} links  ${what.padEnd(15)} ${run.ms.toFixed(0).padStart(6)} ms  ${run.transactions.length} transactions (${sizes(run.transactions)} items), ${reads} reads; its writes alone ${floorMs.toFixed(0)} ms (${(run.ms / floorMs).toFixed(2)}×)`,
      );
      return run.result;
    };
    const created = await timed(
      'create',
      () =>
        send('POST', '/notes', {
          data: {
            type: 'textNote',
            fields: { name: 'Many links' },
            relationships: [{ type: 'customer', target: { id: acme } }, ...features.map((id) => ({ type: 'link', target: { id }, importance: 'critical' }))],
          },
        }),
      201,
      links * 3,
    );
    const note = created.json!.data!.id!;
    await timed('customer change', () => send('PUT', `/notes/${note}/relationships/customer`, { data: { target: { id: globex } } }), 200, links * 3);
    await timed('delete', () => send('DELETE', `/notes/${note}`), 204, 0);
  }
} finally {
  await stack.stop();
}
const loadAfter = loadavg()[0]!;
const busy = Math.max(loadBefore, loadAfter) > availableParallelism();
console.log(`load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end, on ${availableParallelism()} cores`);
if (failures.length) {
  for (const f of failures) console.error(`FAILED: ${f}`);
  process.exit(1);
}

const rows = steps.map(
  (s) =>
    `| ${s.links} | ${s.what} | ${s.ms.toFixed(0)} | ${(s.ms / s.links).toFixed(1)} | ${s.transactions.length} (${sizes(s.transactions)}) | ${s.reads} | ${s.floorMs.toFixed(0)} | ${(s.ms / s.floorMs).toFixed(2)}× |`,
);
if (process.env.BENCH_NO_DOCS !== '1')
  await writeSection(
    'bench:note-fan-out',
    `## A note with many links (\`npm run bench:note-fan-out\`)

Generated by \`npm run bench:note-fan-out\` (bench/note-fan-out.ts) on ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} CPUs (shared), load average
${loadBefore.toFixed(1)}–${loadAfter.toFixed(1)}${busy ? ' (a loaded machine)' : ''}. A note with a customer and a critical link to each of N features (under three
components of one product), created, moved to another customer and deleted through the API; each change needs more than one
transaction, so it goes in steps (lib/store/notes.ts; docs/architecture.md, "Bounded fan-out"). After each: the product's
score as the rule gives it and \`score verify\` with 0 mismatches and 0 pending work. The first transaction of each change is the
note's own step (with its pending work), each further one a step of as many links as one transaction holds. The floor is the
request's transactions alone: as many TransactWriteItems of as many Puts of fresh items, one after another, no reads.

| links | change | ms | ms per link | transactions (items each) | reads | its writes alone, ms | × its writes |
|---:|---|---:|---:|---|---:|---:|---:|
${rows.join('\n')}`,
  );
