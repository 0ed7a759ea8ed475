// `npm run bench:route-cost`: what the score route costs this process beyond its one DynamoDB call,
// measured apart from the emulator, whose share moves with the machine's load in `bench:load`.
//  - The pipeline: the score function's handler (functions/entities/get-score.ts, the deployed
//    module) at concurrency 32 in this process, its one BatchGetItem answered from memory — the
//    document client's `send` replaced in this process, here only, by a copy of a real answer
//    recorded first — so what is timed is Middy, the Logger, the bearer check, the rate limiter,
//    the request scope, the core and the answer. The replacement's own cost (the copy of the answer
//    and an await) is timed alone and taken off.
//  - The local gateway: autocannon at concurrency 32 against the gateway with a handler that answers
//    at once, and against a bare node:http server answering the same body; the difference is the
//    gateway's (deployed, API Gateway's).
// Their sum is set against what `bench:load`'s throughput goal leaves a route beyond the live reads
// (docs/performance.md, "Throughput at concurrency 32"). No goal of its own. Knobs: ROUTE_COST_ROUNDS
// (default 7), ROUTE_COST_REQUESTS per round (default 20 000), BENCH_NO_DOCS=1 (print only).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { writeSection } from './doc-section.ts';
import { closeServer, listen, startLocalStack } from './local-stack.ts';
import { median } from './stats.ts';

process.env.TABLE_NAME = 'pm-api-route-cost';
process.env.LOG_LEVEL = 'silent';
// No refusal and a lease that lasts: the limiter's per-request work is timed, its table writes are not.
process.env.RATE_LIMIT_PER_SECOND = '100000000';

const ROUNDS = Number(process.env.ROUTE_COST_ROUNDS ?? 7);
const REQUESTS = Number(process.env.ROUTE_COST_REQUESTS ?? 20_000);
const CONCURRENCY = 32;
const GATEWAY_SECONDS = 3;

/** This process's CPU µs per call of `once`, `n` calls at concurrency 32. */
async function cpuPerCall(once: () => Promise<unknown>, n: number): Promise<number> {
  let started = 0;
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (started++ < n) await once();
    }),
  );
  const { user, system } = process.cpuUsage(cpu);
  return (user + system) / n;
}

/** This process's CPU µs per request of an autocannon run against `url`. */
async function cpuPerRequest(url: string): Promise<number> {
  const cpu = process.cpuUsage();
  const r = await autocannon({ url, connections: CONCURRENCY, duration: GATEWAY_SECONDS, headers: { authorization: 'Bearer x' } });
  const { user, system } = process.cpuUsage(cpu);
  if (r.non2xx) throw new Error(`${url}: ${r.non2xx} answers not 2xx`);
  return (user + system) / r.requests.total;
}

const { issueApiToken } = await import('#lib/auth/api-tokens.ts');
const routes = await import('#lib/routes.ts');
const { db } = await import('#lib/store/client.ts');
const { createEntity } = await import('#lib/store/entity-writes.ts');
const { addMember } = await import('#lib/store/members.ts');
const { createWorkspace } = await import('#lib/store/workspaces.ts');
const { buildEvent, createGateway, loadHandler } = await import('../local/gateway.ts');

const stack = await startLocalStack('route-cost');
try {
  const workspace = await createWorkspace('Route cost benchmark');
  const member = await addMember(workspace.id, { email: 'cost@example.com', role: 'admin', active: true });
  const { token } = await issueApiToken(member);
  const product = await createEntity(workspace.id, { type: 'product', values: { name: 'Costed' }, parentPath: ['data'] });
  const handler = await loadHandler(routes.getCustomerScore);
  const rawHeaders = ['Host', 'localhost', 'Authorization', `Bearer ${token}`, 'User-Agent', 'bench'];
  const score = async () => {
    const event = buildEvent(
      { method: 'GET', url: `/v2/entities/${product.id}/score`, rawHeaders, body: Buffer.alloc(0) },
      routes.getCustomerScore,
      { id: product.id },
      randomUUID(),
    );
    const res = await handler(event, { getRemainingTimeInMillis: () => 30_000 } as Parameters<typeof handler>[1]);
    if (res.statusCode !== 200) throw new Error(`score answered ${res.statusCode}: ${res.body}`);
  };

  // The bearer check's BatchGetItem, answered from memory once a real answer is recorded.
  const client = db() as unknown as { send: (command: object, options?: object) => Promise<unknown> };
  const send = client.send.bind(client);
  let recorded: unknown;
  client.send = async (command, options) => {
    if (command.constructor.name !== 'BatchGetCommand') return send(command, options);
    if (recorded === undefined) recorded = await send(command, options);
    await Promise.resolve();
    return structuredClone(recorded);
  };
  const answerAlone = async () => {
    await Promise.resolve();
    return structuredClone(recorded);
  };
  await score();
  for (let i = 0; i < 3; i++) {
    await cpuPerCall(score, 5_000);
    await cpuPerCall(answerAlone, 5_000);
  }
  const pipeline: number[] = [];
  const loadBefore = loadavg()[0]!;
  for (let r = 0; r < ROUNDS; r++) {
    const whole = await cpuPerCall(score, REQUESTS);
    const alone = await cpuPerCall(answerAlone, REQUESTS);
    pipeline.push(whole - alone);
    console.log(`round ${r + 1}: handler ${whole.toFixed(1)} µs, the answer from memory alone ${alone.toFixed(1)} µs`);
  }

  const body = JSON.stringify({ data: { id: product.id, type: 'customerScore', fields: { score: 0 } } });
  const bare = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(body);
  });
  const gateway = createGateway({
    loadHandler: () => Promise.resolve(() => Promise.resolve({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body })),
  });
  const path = `/v2/entities/${product.id}/score`;
  const urls = { bare: `${await listen(bare)}${path}`, gateway: `${await listen(gateway)}${path}` };
  await cpuPerRequest(urls.bare);
  await cpuPerRequest(urls.gateway);
  const gatewayCost: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? (['gateway', 'bare'] as const) : (['bare', 'gateway'] as const);
    const got = { bare: 0, gateway: 0 };
    for (const side of order) got[side] = await cpuPerRequest(urls[side]);
    gatewayCost.push(got.gateway - got.bare);
    console.log(`round ${r + 1}: gateway ${got.gateway.toFixed(1)} µs, bare node:http ${got.bare.toFixed(1)} µs a request`);
  }
  await closeServer(bare);
  await closeServer(gateway);
  const loadAfter = loadavg()[0]!;

  const p = median(pipeline);
  const g = median(gatewayCost);
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
  const busy = Math.max(loadBefore, loadAfter) > availableParallelism();
  console.log(
    `pipeline ${p.toFixed(0)} µs (rounds ${range(pipeline)}), gateway ${g.toFixed(0)} µs (rounds ${range(gatewayCost)}), sum ${(p + g).toFixed(0)} µs`,
  );
  if (process.env.BENCH_NO_DOCS !== '1') {
    await writeSection(
      'bench:route-cost',
      `## The score route's own work (\`npm run bench:route-cost\`)

Generated by \`npm run bench:route-cost\` (bench/route-cost.ts) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average
${loadBefore.toFixed(1)}–${loadAfter.toFixed(1)} on ${availableParallelism()} cores${busy ? ' (a loaded machine)' : ''}. This process's CPU per request at concurrency ${CONCURRENCY}, median of ${ROUNDS} rounds:

| | µs per request | rounds |
|---|---:|---|
| the score handler beyond its one BatchGetItem (answered from memory; ${REQUESTS} requests a round, the answer's own copy taken off) | ${p.toFixed(0)} | ${range(pipeline)} |
| the local gateway beyond a bare node:http server (a handler that answers at once; ${GATEWAY_SECONDS} s autocannon runs, alternating) | ${g.toFixed(0)} | ${range(gatewayCost)} |
| the route's own work | ${(p + g).toFixed(0)} | |`,
    );
    console.log('Wrote docs/performance.md');
  }
} finally {
  await stack.stop();
}
process.exit(0);
