// `npm run bench:load`: the request path under load, on the local stack, in one run.
// It starts its own in-memory DynamoDB Local, the local gateway and, beside them, a floor service
// (plain node:http + one GetItem on the same emulator) and a live-reads service (node:http + the score
// route's one BatchGetItem) — all in this process, so they share one CPU budget with autocannon. Then,
// under one product:
//   1. score latency at concurrency 1, interleaved rounds: the endpoint, the floor service, a bare GetItem,
//      the route's handler invoked in-process (no HTTP) and the bearer check's one read on its own (where the gap goes);
//      then the score route's throughput at concurrency 32 against the floor service's and the
//      live-reads service's, in rounds of interleaved runs (BENCH_THROUGHPUT_ROUNDS, default 6, of
//      BENCH_THROUGHPUT_SECONDS, default 4);
//   2. a read mix (score, retrieve with fields[], list pages) and a write mix (notes with a customer and
//      rated links, re-rates, moves) with autocannon, several members' tokens (each member has two,
//      which share its budget): throughput, p50/p99, non-2xx by status;
//   3. hot-product writes (a note with its customer and one rated link) at concurrency 1 and 8, then
//      at 32 in interleaved windows against the emulator's own ceiling: one such note's TransactWriteItems, captured as sent and
//      replayed as it is (its UpdateExpressions, ConditionExpressions, names and values) on copies of
//      the items it found (customer, rating item, the feature's, component's and product's aggregates),
//      written beforehand under a fresh partition for each replay, so no two replays share an item
//      and every condition holds as it did. At concurrency 32 the two sides alternate in windows of a
//      fixed amount of work, seconds apart (the goal's ratio is the median of the pairs' ratios); the
//      ceiling at 1 is timed on its own; then the note at concurrency 1 against one replay in
//      interleaved rounds (that goal's ratio);
//   4. 50 concurrent re-rates of one link and 200 concurrent note+link writes: 5xx counted;
//   5. `score verify` over the workspace: 0 mismatches required.
// Prints every figure next to its goal with the ratio, and writes its section of docs/performance.md.
// Knobs: BENCH_SECONDS (per autocannon run, default 8; the ceiling at concurrency 1 replays 40× as many
// transactions, about as long on this machine), BENCH_HOT_PAIRS (window pairs at concurrency 32, default 6),
// BENCH_HOT_WINDOW (notes, or replays, per window, default 224: 7 per connection), BENCH_ROUNDS (score
// latency rounds, default 400), BENCH_NOTE_ROUNDS (note against transaction rounds, default 300),
// BENCH_RATE_LIMIT (requests/s per credential owner, default 1000, so the limiter runs but the mixes
// measure the request path, not refusals), BENCH_NO_DOCS=1 (print only).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { inParallel } from './parallel.ts';
import { median } from './stats.ts';

process.env.RATE_LIMIT_PER_SECOND = process.env.BENCH_RATE_LIMIT ?? '1000';
process.env.LOG_LEVEL = 'silent';
process.env.TABLE_NAME = 'pm-api-load';

const { GetCommand, TransactWriteCommand } = await import('@aws-sdk/lib-dynamodb');
const { verifyServiceJwt } = await import('#lib/auth/service-jwt.ts');
const { readBearerRecords } = await import('#lib/store/credentials.ts');
const { readScore } = await import('#lib/store/score.ts');
const routes = await import('#lib/routes.ts');
const { buildEvent, loadHandler } = await import('../local/gateway.ts');
const { issueApiToken } = await import('#lib/auth/api-tokens.ts');
const { IMPORTANCES } = await import('#lib/domain/score.ts');
const { db, tableName } = await import('#lib/store/client.ts');
const keys = await import('#lib/store/keys.ts');
const { addMember } = await import('#lib/store/members.ts');
const { createWorkspace } = await import('#lib/store/workspaces.ts');
const { batchGetAll, batchWriteAll } = await import('#lib/store/batch.ts');
const { verifyScores } = await import('../local/admin/score.ts');
const { writeSection } = await import('./doc-section.ts');
const { closeServer, listen, startLocalStack } = await import('./local-stack.ts');

type TxItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 400);
const NOTE_ROUNDS = Number(process.env.BENCH_NOTE_ROUNDS ?? 300);
const HOT_PAIRS = Number(process.env.BENCH_HOT_PAIRS ?? 6);
const THROUGHPUT_ROUNDS = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 6);
const THROUGHPUT_SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 4);
const HOT_WINDOW = Number(process.env.BENCH_HOT_WINDOW ?? 224);
const MEMBERS = 4;

// ---- small helpers ------------------------------------------------------------------------------

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
/** autocannon's answers by status code. */
const byStatusOf = (r: autocannon.Result): Record<string, number> =>
  Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, st]) => [code, st.count ?? 0]));
/** How many answers were 2xx. */
const succeeded = (byStatus: Record<string, number>): number =>
  Object.entries(byStatus)
    .filter(([code]) => code.startsWith('2'))
    .reduce((n, [, count]) => n + count, 0);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

interface Answer {
  status: number;
  json: { data?: { id?: string; fields?: { score?: number } } } | undefined;
}

async function send(base: string, token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text.startsWith('{') ? (JSON.parse(text) as Answer['json']) : undefined };
}

// ---- the world under test -----------------------------------------------------------------------

interface World {
  base: string;
  ws: string;
  tokens: string[];
  productId: string;
  components: string[];
  features: string[];
  customers: string[];
  notes: Array<{ id: string; entityId: string }>;
}

const noteBody = (w: World, links: number) => ({
  data: {
    type: 'textNote',
    fields: { name: `Load ${randomUUID().slice(0, 8)}` },
    relationships: [
      { type: 'customer', target: { id: pick(w.customers) } },
      // Distinct features: a note links an entity once.
      ...[...w.features]
        .sort(() => Math.random() - 0.5)
        .slice(0, links)
        .map((id) => ({ type: 'link', target: { id }, importance: pick(IMPORTANCES) })),
    ],
  },
});

async function seedWorld(base: string): Promise<World> {
  const workspace = await createWorkspace('Load benchmark');
  const tokens: string[] = [];
  for (let m = 0; m < MEMBERS; m++) {
    const member = await addMember(workspace.id, { email: `load${m}@example.com`, role: 'admin', active: true });
    // Two tokens per member: they draw on one budget.
    tokens.push((await issueApiToken(member)).token, (await issueApiToken(member)).token);
  }
  const t = tokens[0]!;
  const entity = async (type: string, parentId?: string) => {
    const res = await send(base, t, 'POST', '/entities', {
      data: { type, fields: { name: `${type} (load)` }, ...(parentId ? { relationships: [{ type: 'parent', target: { id: parentId } }] } : {}) },
    });
    if (res.status !== 201) throw new Error(`creating a ${type}: HTTP ${res.status}`);
    return res.json!.data!.id!;
  };
  const productId = await entity('product');
  const components = [await entity('component', productId), await entity('component', productId)];
  const features = (await inParallel(8, 4, (i) => entity('feature', components[i % 2]))).flat();
  const customers = await inParallel(40, 4, () => entity('user'));
  const w: World = { base, ws: workspace.id, tokens, productId, components, features, customers, notes: [] };
  // Notes through the real write path, each with a customer and two rated links.
  w.notes = await inParallel(100, 4, async () => {
    const body = noteBody(w, 2);
    const res = await send(base, t, 'POST', '/notes', body);
    if (res.status !== 201) throw new Error(`creating a note: HTTP ${res.status} ${JSON.stringify(res.json)}`);
    return { id: res.json!.data!.id!, entityId: (body.data.relationships[1] as { target: { id: string } }).target.id };
  });
  return w;
}

// ---- the floor service --------------------------------------------------------------------------

/**
 * node:http answering every request with the product's score as `score` reads it for the request's
 * Authorization header, as the score route answers: 401 when it names no caller, 500 on a failure.
 */
function scoreServer(w: World, score: (authorization: string | undefined) => Promise<number | undefined>): Server {
  return createServer((req, res) => {
    void score(req.headers.authorization)
      .then((value) => {
        if (value === undefined) {
          res.writeHead(401);
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: { id: w.productId, fields: { score: value } } }));
      })
      .catch(() => {
        res.writeHead(500);
        res.end();
      });
    req.resume();
  });
}

/** node:http and one GetItem of the product's item: what any score endpoint must at least do. */
const floorService = (w: World): Server =>
  scoreServer(w, async () => {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.entity(w.ws, w.productId), ConsistentRead: true }));
    return Number(Item?.total ?? 0);
  });

/**
 * The floor plus what a route that checks a token's liveness on every request must read: node:http and
 * the score route's one BatchGetItem (the token's credential, its member, the entity: `readBearerRecords`),
 * answered like the floor. Each token's signature is verified once, before the runs, as the route's
 * per-instance verdict cache does. Its throughput against the floor's is the most any pipeline over
 * those reads could reach; the route's against it is what the pipeline itself costs.
 */
async function liveReadsService(w: World): Promise<Server> {
  const claims = new Map<string, { jti: string; sub: string }>();
  for (const token of w.tokens) claims.set(`Bearer ${token}`, (await verifyServiceJwt(token))!);
  return scoreServer(w, async (authorization) => {
    const c = claims.get(authorization ?? '');
    if (!c) return undefined;
    const records = await readBearerRecords(c.jti, w.ws, c.sub, undefined, undefined, [{ entity: w.productId }]);
    return readScore(w.ws, w.productId, records.preread);
  });
}

// ---- measurements -------------------------------------------------------------------------------

interface Latency {
  endpoint: number;
  floor: number;
  getItem: number;
  /** The route's handler invoked in this process, no HTTP: what the gateway adds is endpoint − handler. */
  handler: number;
  /** The bearer check's one BatchGetItem (credential, member, and the entity read ahead), called on its own: the route's reads without the pipeline. */
  reads: number;
}

/**
 * The p50 of each contender at concurrency 1, in interleaved rounds on one clock: the order rotates
 * each round, so no contender always goes first, and load moves every side alike.
 */
async function interleaved<K extends string>(runs: Record<K, () => Promise<unknown>>, rounds: number, warmup: number): Promise<Record<K, number>> {
  const names = Object.keys(runs) as K[];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < warmup; i++) for (const n of names) await runs[n]();
  for (let i = 0; i < rounds; i++) {
    const k = i % names.length;
    for (const n of [...names.slice(k), ...names.slice(0, k)]) {
      const t0 = performance.now();
      await runs[n]();
      times[n].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(names.map((n) => [n, quantile(times[n], 0.5)])) as Record<K, number>;
}

async function scoreLatency(w: World, floorUrl: string): Promise<Latency> {
  const token = w.tokens[0]!;
  const handler = await loadHandler(routes.getCustomerScore);
  const claims = (await verifyServiceJwt(token))!;
  const path = `/v2/entities/${w.productId}/score`;
  return interleaved<keyof Latency>(
    {
      endpoint: async () => {
        const r = await send(w.base, token, 'GET', `/entities/${w.productId}/score`);
        if (r.status !== 200) throw new Error(`score: HTTP ${r.status}`);
      },
      // The floor's request and answer handled as the endpoint's are (send: the token's header, the body parsed).
      floor: async () => {
        const r = await send(floorUrl, token, 'GET', '');
        if (r.status !== 200) throw new Error(`floor: HTTP ${r.status}`);
      },
      getItem: () => db().send(new GetCommand({ TableName: tableName(), Key: keys.entity(w.ws, w.productId), ConsistentRead: true })),
      handler: async () => {
        const event = buildEvent(
          { method: 'GET', url: path, rawHeaders: ['Authorization', `Bearer ${token}`], body: Buffer.alloc(0) },
          routes.getCustomerScore,
          { id: w.productId },
          randomUUID(),
        );
        const r = await handler(event, { getRemainingTimeInMillis: () => 30_000 } as Parameters<typeof handler>[1]);
        if (r.statusCode !== 200) throw new Error(`score handler: ${r.statusCode}`);
      },
      reads: () => readBearerRecords(claims.jti, w.ws, claims.sub, undefined, undefined, [{ entity: w.productId }]),
    },
    ROUNDS,
    // Uncounted rounds: until V8 has optimized each variant's path, a round measures the compiler.
    300,
  );
}

/** One side of a throughput pair: requests per second, and this process's CPU per request and share of one core. */
interface ThroughputSide {
  rps: number;
  cpuMsPerRequest: number;
  /** CPU time over wall time: at 1 the process's one thread was never idle. */
  busy: number;
}

type ThroughputSideName = 'score' | 'floor' | 'reads';

interface Throughput {
  /** Each round: the three sides one after another, the order rotating; ratio = score / floor, readsRatio = reads / floor. */
  rounds: Array<{ order: ThroughputSideName[]; score: ThroughputSide; floor: ThroughputSide; reads: ThroughputSide; ratio: number; readsRatio: number }>;
  median: number;
}

/**
 * The score route's throughput at concurrency 32 against the floor service's and the live-reads
 * service's, in `rounds` rounds of interleaved autocannon runs of `seconds` each (the order rotating
 * from round to round); the goal's ratio is the median of the rounds' score / floor ratios. Each side
 * also reports this process's CPU per request and how busy its thread was: when it is busy all the
 * time, throughput is the inverse of the CPU each request costs the process (gateway or service,
 * handler, SDK, and autocannon's client).
 */
async function scoreThroughput(w: World, urls: Record<ThroughputSideName, string>, rounds: number, seconds: number): Promise<Throughput> {
  const measured = async (run: () => Promise<{ rps: number; requests: number }>): Promise<ThroughputSide> => {
    const meter = cpuMeter();
    const start = performance.now();
    const { rps, requests } = await run();
    const { cpuMs } = meter();
    return { rps, cpuMsPerRequest: cpuMs / Math.max(1, requests), busy: cpuMs / (performance.now() - start) };
  };
  // Every side's load is generated alike, a fixed GET per connection with one member's token on it (the
  // floor ignores it), so this process spends the same on the client's side of each: the tokens
  // go round the connections (a member's budget is 1 000 requests/s).
  const run = (url: string) =>
    measured(async () => {
      let conn = 0;
      const r = await autocannon({
        url,
        connections: 32,
        duration: seconds,
        setupClient: (client: { setHeaders: (h: Record<string, string>) => void }) =>
          client.setHeaders({ authorization: `Bearer ${w.tokens[conn++ % w.tokens.length]}` }),
      });
      return { rps: succeeded(byStatusOf(r)) / r.duration, requests: r.requests.total };
    });
  const sides: ThroughputSideName[] = ['score', 'floor', 'reads'];
  // Not counted: each side's first run at this concurrency opens its connections (to the emulator
  // too) and meets code not yet optimized for it.
  for (const side of sides) await run(urls[side]);
  const out: Throughput['rounds'] = [];
  for (let i = 0; i < rounds; i++) {
    const order = [...sides.slice(i % 3), ...sides.slice(0, i % 3)];
    const got = {} as Record<ThroughputSideName, ThroughputSide>;
    for (const side of order) got[side] = await run(urls[side]);
    out.push({ order, ...got, ratio: got.score.rps / got.floor.rps, readsRatio: got.reads.rps / got.floor.rps });
  }
  return {
    rounds: out,
    median: median(out.map((p) => p.ratio)),
  };
}

/** What the throughput rounds' CPU figures say: whether this process's thread set the pace, and the CPU-per-request ratios the throughput then follows. */
function cpuBound(t: Throughput): string {
  const of = (side: ThroughputSideName, k: keyof ThroughputSide) => median(t.rounds.map((p) => p[side][k]));
  const [scoreCpu, floorCpu, readsCpu] = [of('score', 'cpuMsPerRequest'), of('floor', 'cpuMsPerRequest'), of('reads', 'cpuMsPerRequest')];
  const [scoreBusy, floorBusy, readsBusy] = [of('score', 'busy'), of('floor', 'busy'), of('reads', 'busy')];
  const figures = `This process's CPU per request, score, floor and live reads (medians of the rounds): ${ms(scoreCpu)}, ${ms(floorCpu)} and ${ms(readsCpu)} ms, its CPU time over wall time ${scoreBusy.toFixed(2)}, ${floorBusy.toFixed(2)} and ${readsBusy.toFixed(2)} (1 is one core's worth; V8's helper threads add a little)`;
  return Math.min(scoreBusy, floorBusy, readsBusy) >= 0.9
    ? `${figures}: the process's one thread, not the emulator, sets the pace on every side, so the throughput ratios follow the ratios of CPU per request (score ${(floorCpu / scoreCpu).toFixed(2)}×, live reads ${(floorCpu / readsCpu).toFixed(2)}× the floor).`
    : `${figures}: the process's thread was not saturated throughout, so CPU per request alone does not set the throughput ratios.`;
}

interface Mix {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  byStatus: Record<string, number>;
  /** performance.now() of the last answer (autocannon's own duration ends at its next 1 s sample tick). */
  lastAnswerAt: number;
}

type Req = { method: string; path: string; body?: string; headers?: Record<string, string> };

/**
 * One autocannon run of `seconds`, or of `amount` requests (split evenly among the connections):
 * each connection takes one token (round robin), each request is built by `next`.
 */
async function cannon(w: World, name: string, connections: number, next: () => Req, run: { seconds?: number; amount?: number } = {}): Promise<Mix> {
  let conn = 0;
  let lastAnswerAt = 0;
  const result = await autocannon({
    url: w.base.replace(/\/v2$/, ''),
    connections,
    ...(run.amount ? { amount: run.amount } : { duration: run.seconds ?? SECONDS }),
    requests: [
      {
        setupRequest: (req: Record<string, unknown>) => {
          const r = next();
          return {
            ...req,
            method: r.method,
            path: `/v2${r.path}`,
            ...(r.body ? { body: r.body } : {}),
            headers: { ...(req.headers as object), 'content-type': 'application/json', ...r.headers },
          };
        },
        onResponse: () => {
          lastAnswerAt = performance.now();
        },
      },
    ],
    setupClient: (client: { setHeaders: (h: Record<string, string>) => void }) => {
      client.setHeaders({ authorization: `Bearer ${w.tokens[conn++ % w.tokens.length]}`, 'content-type': 'application/json' });
    },
  } as unknown as autocannon.Options);
  const byStatus = byStatusOf(result);
  const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
  return { name, rps: succeeded(byStatus) / result.duration, p50: result.latency.p50, p99: result.latency.p99, total, byStatus, lastAnswerAt };
}

const readMix = (w: World) => {
  let i = 0;
  return (): Req => {
    switch (i++ % 4) {
      case 0:
        return { method: 'GET', path: `/entities/${w.productId}/score` };
      case 1:
        return { method: 'GET', path: `/entities/${pick(w.features)}?fields[]=name&fields[]=status` };
      case 2:
        // A page of 25: a list page answers one Query per note for its relationships (see docs/performance.md).
        return { method: 'GET', path: '/notes?limit=25' };
      default:
        return { method: 'GET', path: `/notes/${pick(w.notes).id}` };
    }
  };
};

const writeMix = (w: World) => {
  let i = 0;
  return (): Req => {
    switch (i++ % 5) {
      case 0:
      case 1:
        return { method: 'POST', path: '/notes', body: JSON.stringify(noteBody(w, 2)) };
      case 2:
      case 3: {
        const n = pick(w.notes);
        return { method: 'PUT', path: `/notes/${n.id}/relationships/link/${n.entityId}`, body: JSON.stringify({ data: { importance: pick(IMPORTANCES) } }) };
      }
      default:
        return {
          method: 'PUT',
          path: `/entities/${pick(w.features)}/relationships/parent`,
          body: JSON.stringify({ data: { target: { id: pick(w.components) } } }),
        };
    }
  };
};

/**
 * One create-note-with-link request's transaction as sent, captured on the document client, and
 * every item it touched as that item stood just before it (the aggregates, the customer, the rating
 * item; the note and the link did not exist yet): the ceiling replays it on copies of these.
 */
interface CapturedTransaction {
  items: TxItem[];
  before: Array<Record<string, unknown>>;
}

const keyOf = (item: TxItem) => (item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key) as { pk: string; sk: string };

/**
 * Captures the transaction that puts a note (requests of the mixes may still be in flight on the
 * gateway); an attempt that fails (a condition lost to a concurrent write) is not kept, its rebuilt
 * attempt is. Taken from a note whose link moves the score, as most of the bench's do (an Update of
 * the feature, its component and the product); one whose customer had already rated the feature
 * with the same weight sends a ConditionCheck of the feature alone, and the next note is taken.
 */
async function captureNoteTransaction(w: World): Promise<CapturedTransaction> {
  for (let i = 0; i < 20; i++) {
    const tx = await captureOne(w);
    if (tx.items.some((item) => item.Update)) return tx;
  }
  throw new Error('capturing a note transaction: 20 notes in a row left the score as it was');
}

async function captureOne(w: World): Promise<CapturedTransaction> {
  let captured: CapturedTransaction | undefined;
  const name = 'benchCaptureTransaction';
  const body = noteBody(w, 1);
  const ours = (items: TxItem[]) => items.some((i) => (i.Put?.Item as { fields?: { name?: string } } | undefined)?.fields?.name === body.data.fields.name);
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const items = (args.input as { TransactItems?: TxItem[] }).TransactItems;
      if (context.commandName !== 'TransactWriteItemsCommand' || captured || !items || !ours(items)) return next(args);
      const before = await batchGetAll(items.map(keyOf), { consistent: true });
      const out = await next(args);
      captured = { items, before };
      return out;
    },
    { step: 'initialize', name },
  );
  try {
    const r = await send(w.base, w.tokens[0]!, 'POST', '/notes', body);
    if (r.status !== 201 || !captured) throw new Error(`capturing a note's transaction: HTTP ${r.status}`);
  } finally {
    db().middlewareStack.remove(name);
  }
  return captured;
}

/**
 * An item moved under partition `pk`, its index keys too (prefixed with `pk`): the copy still writes
 * its index entries (every index projects all attributes, so an Update of an aggregate rewrites them),
 * but in index partitions of its own, where no list of the workspace, and no `score verify`, finds it.
 */
function copyOf(item: Record<string, unknown>, pk: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...item, pk };
  for (const [name, value] of Object.entries(item)) if (/^gsi\d+pk$/.test(name)) copy[name] = `${pk}#${String(value)}`;
  return copy;
}

/**
 * `count` replays of the captured transaction, each on its own copies: the items it found are copied
 * under a fresh partition (same sort keys, same attributes) and written before the replays are timed,
 * so each replay sends the captured UpdateExpressions, ConditionExpressions, names and values and its
 * conditions hold as they did (the rating item's version, the aggregates' parents, the customer);
 * the note and link Puts land on fresh keys. No two replays share an item.
 */
async function seededReplays(tx: CapturedTransaction, count: number): Promise<TxItem[][]> {
  const seeds: Array<Record<string, unknown>> = [];
  const replays = Array.from({ length: count }, () => {
    const pk = `BENCH#${randomUUID()}`;
    for (const item of tx.before) seeds.push(copyOf(item, pk));
    return tx.items.map((item): TxItem => {
      if (item.Put) return { Put: { ...item.Put, Item: copyOf(item.Put.Item!, pk) } };
      if (item.Update) return { Update: { ...item.Update, Key: { ...item.Update.Key, pk } } };
      if (item.Delete) return { Delete: { ...item.Delete, Key: { ...item.Delete.Key, pk } } };
      return { ConditionCheck: { ...item.ConditionCheck!, Key: { ...item.ConditionCheck!.Key, pk } } };
    });
  });
  await batchWriteAll(
    seeds.map((Item) => ({ PutRequest: { Item } })),
    4,
  );
  return replays;
}

/**
 * create-note-with-link against one replay of its transaction at concurrency 1, timed as the score
 * latency is (interleaved): the two sides share the machine's moment (autocannon's run and the
 * ceiling's came minutes apart) and the note is not read off autocannon's whole-millisecond histogram.
 */
async function noteVsTransaction(w: World, tx: CapturedTransaction): Promise<{ note: number; transaction: number }> {
  const replays = await seededReplays(tx, NOTE_ROUNDS + 20);
  return interleaved(
    {
      note: async () => {
        const r = await send(w.base, w.tokens[0]!, 'POST', '/notes', noteBody(w, 1));
        if (r.status !== 201) throw new Error(`create note: HTTP ${r.status}`);
      },
      transaction: () => db().send(new TransactWriteCommand({ TransactItems: replays.pop()! })),
    },
    NOTE_ROUNDS,
    20,
  );
}

/** Replays `replays` (seeded before, not timed), `concurrency` at a time, popping from one queue. */
async function replayWindow(replays: TxItem[][], concurrency: number): Promise<Window> {
  const count = replays.length;
  const times: number[] = [];
  const cpu = cpuMeter();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let items = replays.pop(); items; items = replays.pop()) {
        const t0 = performance.now();
        await db().send(new TransactWriteCommand({ TransactItems: items }));
        times.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { done: count, seconds, rate: count / seconds, p50: quantile(times, 0.5), byStatus: {}, retries: 0, ...cpu() };
}

/**
 * The emulator's ceiling: `count` replays of the transaction, `concurrency` at a time; throughput is
 * count over the time from the first start to the last commit (the copies are written before).
 */
async function emulatorCeiling(tx: CapturedTransaction, concurrency: number, count: number): Promise<{ tps: number; p50: number }> {
  const w = await replayWindow(await seededReplays(tx, count), concurrency);
  return { tps: w.rate, p50: w.p50 };
}

/**
 * One timed window of a fixed amount of work: `done` answered (2xx, or commits) in `seconds`; the
 * CPU this process (gateway, handlers, autocannon, the SDK) and the emulator's JVM spent meanwhile;
 * the transaction attempts the note path retried (lib/store/tx.ts backs off before each).
 */
interface Window {
  done: number;
  seconds: number;
  rate: number;
  p50: number;
  byStatus: Record<string, number>;
  retries: number;
  cpuMs: number;
  emulatorCpuMs: number | undefined;
}

/** The JVM this process started for DynamoDB Local (Linux /proc; undefined elsewhere). */
async function emulatorPid(): Promise<string | undefined> {
  try {
    for (const pid of await readdir('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
      const [, comm, ppid] = /^\d+ \((.*)\) \S+ (\d+) /.exec(stat) ?? [];
      if (comm === 'java' && Number(ppid) === process.pid) return pid;
    }
  } catch {
    // no /proc: the emulator's CPU is not reported
  }
  return undefined;
}

/** CPU time of the emulator's JVM so far (user + system), from /proc/PID/stat in clock ticks of 10 ms. */
function emulatorCpu(pid: string | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')')[1]!.trim().split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

let jvm: string | undefined;
/** Starts measuring this process's and the emulator's CPU; the function returns both since then, in ms. */
function cpuMeter(): () => { cpuMs: number; emulatorCpuMs: number | undefined } {
  const own = process.cpuUsage();
  const emu = emulatorCpu(jvm);
  return () => {
    const d = process.cpuUsage(own);
    const emuNow = emulatorCpu(jvm);
    return { cpuMs: (d.user + d.system) / 1000, emulatorCpuMs: emu !== undefined && emuNow !== undefined ? emuNow - emu : undefined };
  };
}

/**
 * `amount` hot-product notes (a customer and one rated link, as the hot runs send) at concurrency
 * `connections` through autocannon, one token per connection; timed on this process's clock like
 * the replay windows, so both sides' windows include their own ramp-up and drain.
 */
async function noteWindow(w: World, connections: number, amount: number): Promise<Window> {
  // Counts the retried attempts: each transaction DynamoDB cancelled is rebuilt and sent again by the
  // store (a middleware on its client that observes, changes nothing).
  let retries = 0;
  const name = 'countCancelledTransactions';
  db().middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (err) {
        if (context.commandName === 'TransactWriteItemsCommand' && (err as { name?: string }).name === 'TransactionCanceledException') retries++;
        throw err;
      }
    },
    { step: 'initialize', name },
  );
  try {
    const cpu = cpuMeter();
    const started = performance.now();
    const m = await cannon(w, 'hot window', connections, () => ({ method: 'POST', path: '/notes', body: JSON.stringify(noteBody(w, 1)) }), { amount });
    // Up to the last answer, as a replay window runs up to its last commit: autocannon returns only
    // at its next sample tick (every second), so its own end would add up to 1 s idle to a 3 s window.
    const seconds = (m.lastAnswerAt - started) / 1000;
    const done = succeeded(m.byStatus);
    return { done, seconds, rate: done / seconds, p50: m.p50, byStatus: m.byStatus, retries, ...cpu() };
  } finally {
    db().middlewareStack.remove(name);
  }
}

interface HotPair {
  first: 'note' | 'ceiling';
  note: Window;
  ceiling: Window;
  ratio: number;
}

interface HotComparison {
  pairs: HotPair[];
  /** The goal's figure: the median of the pairs' note/ceiling ratios. */
  median: number;
  /** Total work over total time, per side. */
  pooled: { note: number; ceiling: number };
  byStatus: Record<string, number>;
}

/**
 * The hot product at concurrency 32 against the emulator's ceiling, in interleaved windows: `pairs`
 * pairs of one window of `amount` notes through the gateway and one of `amount` replays of the
 * captured transaction (copies seeded just before, not timed), the side that goes first alternating
 * from pair to pair. A window each was minutes apart before, and the emulator's commit rate moved
 * more between them than the note path did (docs/performance.md, bench:load); paired windows
 * seconds apart share the machine's moment, and the median of their ratios is robust to one
 * disturbed window.
 */
async function hotVsCeiling(w: World, tx: CapturedTransaction, concurrency: number, pairs: number, amount: number): Promise<HotComparison> {
  jvm = await emulatorPid();
  const out: HotPair[] = [];
  for (let i = 0; i < pairs; i++) {
    const first = i % 2 === 0 ? 'note' : 'ceiling';
    const ceilingRun = async () => replayWindow(await seededReplays(tx, amount), concurrency);
    const noteRun = () => noteWindow(w, concurrency, amount);
    let note: Window, ceiling: Window;
    if (first === 'note') {
      note = await noteRun();
      ceiling = await ceilingRun();
    } else {
      ceiling = await ceilingRun();
      note = await noteRun();
    }
    out.push({ first, note, ceiling, ratio: note.rate / ceiling.rate });
  }
  const total = (side: 'note' | 'ceiling') => out.reduce((a, p) => a + p[side].done, 0) / out.reduce((a, p) => a + p[side].seconds, 0);
  const byStatus: Record<string, number> = {};
  for (const p of out) for (const [c, n] of Object.entries(p.note.byStatus)) byStatus[c] = (byStatus[c] ?? 0) + n;
  return { pairs: out, median: median(out.map((p) => p.ratio)), pooled: { note: total('note'), ceiling: total('ceiling') }, byStatus };
}

async function burst(n: number, f: (i: number) => Promise<Answer>): Promise<Record<string, number>> {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => f(i)));
  const by: Record<string, number> = {};
  for (const a of answers) by[a.status] = (by[a.status] ?? 0) + 1;
  return by;
}

// ---- main ---------------------------------------------------------------------------------------

interface Goal {
  what: string;
  value: string;
  goal: string;
  ratio?: number;
  ok: boolean;
}

async function main() {
  const started = performance.now();
  const { appUrl, stop } = await startLocalStack('load');
  let floor: Server | undefined;
  let liveReads: Server | undefined;
  try {
    console.log(`Seeding through the API (${cpus().length} CPUs)...`);
    const w = await seedWorld(`${appUrl}/v2`);
    floor = floorService(w);
    const floorUrl = await listen(floor);
    liveReads = await liveReadsService(w);
    const readsUrl = await listen(liveReads);

    console.log(`Score latency, ${ROUNDS} interleaved rounds at concurrency 1...`);
    const lat = await scoreLatency(w, floorUrl);
    console.log(`Score p50: ${(Object.entries(lat) as Array<[string, number]>).map(([k, v]) => `${k} ${ms(v)} ms`).join(', ')}`);
    console.log(`Score throughput at concurrency 32 against the floor and live-reads services, ${THROUGHPUT_ROUNDS} rounds of ${THROUGHPUT_SECONDS} s runs...`);
    const throughput = await scoreThroughput(
      w,
      { score: `${w.base}/entities/${w.productId}/score`, floor: floorUrl, reads: readsUrl },
      THROUGHPUT_ROUNDS,
      THROUGHPUT_SECONDS,
    );
    for (const [i, p] of throughput.rounds.entries())
      console.log(
        `  round ${i + 1} (${p.order.join(', ')}): score ${p.score.rps.toFixed(0)}/s, floor ${p.floor.rps.toFixed(0)}/s, live reads ${p.reads.rps.toFixed(0)}/s: ${p.ratio.toFixed(2)}× and ${p.readsRatio.toFixed(2)}× the floor; CPU ${ms(p.score.cpuMsPerRequest)} / ${ms(p.floor.cpuMsPerRequest)} / ${ms(p.reads.cpuMsPerRequest)} ms per request`,
      );

    // Each request kind alone at concurrency 1, so a slow mix can be traced to its kind.
    const kinds: Array<[string, number]> = [];
    for (const [label, mix, n] of [
      ['read', readMix(w), 4],
      ['write', writeMix(w), 5],
    ] as const) {
      const times: number[][] = Array.from({ length: n }, () => []);
      for (let i = 0; i < 10 * n; i++) {
        const r = mix();
        const t0 = performance.now();
        const a = await send(w.base, w.tokens[0]!, r.method, r.path, r.body ? JSON.parse(r.body) : undefined);
        if (a.status >= 300) throw new Error(`${r.method} ${r.path}: HTTP ${a.status}`);
        times[i % n]!.push(performance.now() - t0);
      }
      times.forEach((t, i) => kinds.push([`${label} ${i}`, quantile(t, 0.5)]));
    }
    console.log(kinds.map(([k, t]) => `${k}: ${ms(t)} ms`).join(', '));
    console.log(`Read mix and write mix, ${SECONDS} s each at 16 connections...`);
    const reads = await cannon(w, 'read mix (score, entity with fields[], page of 25 notes, note)', 16, readMix(w));
    const writes = await cannon(w, 'write mix (notes with a customer and 2 rated links, re-rates, moves)', 16, writeMix(w));

    console.log('Hot-product writes at concurrency 1 and 8...');
    const hot: Mix[] = [];
    for (const c of [1, 8])
      hot.push(
        await cannon(w, `note + customer + 1 rated link, concurrency ${c}`, c, () => ({
          method: 'POST',
          path: '/notes',
          body: JSON.stringify(noteBody(w, 1)),
        })),
      );
    // Captured after the hot runs: its rating item has the entries a note's has at this point.
    const tx = await captureNoteTransaction(w);
    console.log(`Hot-product writes at concurrency 32 against the emulator ceiling, ${HOT_PAIRS} pairs of interleaved windows of ${HOT_WINDOW}...`);
    const hot32 = await hotVsCeiling(w, tx, 32, HOT_PAIRS, HOT_WINDOW);
    for (const [i, p] of hot32.pairs.entries())
      console.log(`  pair ${i + 1} (${p.first} first): note ${p.note.rate.toFixed(1)}/s, ceiling ${p.ceiling.rate.toFixed(1)}/s, ${p.ratio.toFixed(2)}×`);
    const ceiling1 = await emulatorCeiling(tx, 1, 40 * SECONDS);
    console.log(`create-note-with-link and its transaction, ${NOTE_ROUNDS} interleaved rounds at concurrency 1...`);
    const noteLat = await noteVsTransaction(w, tx);

    console.log('Contention: 50 concurrent re-rates of one link, 200 concurrent note+link writes...');
    const target = w.notes[0]!;
    const rerates = await burst(50, (i) =>
      send(w.base, w.tokens[i % w.tokens.length]!, 'PUT', `/notes/${target.id}/relationships/link/${target.entityId}`, {
        data: { importance: IMPORTANCES[i % 5] },
      }),
    );
    const notes200 = await burst(200, (i) => send(w.base, w.tokens[i % w.tokens.length]!, 'POST', '/notes', noteBody(w, 1)));

    console.log('score verify...');
    const verify = await verifyScores({ workspace: w.ws, repair: false });
    const fivexx = (by: Record<string, number>) =>
      Object.entries(by)
        .filter(([c]) => c.startsWith('5'))
        .reduce((a, [, n]) => a + n, 0);
    const all5xx = [reads, writes, ...hot].reduce((a, m) => a + fivexx(m.byStatus), 0) + fivexx(hot32.byStatus);

    const goals: Goal[] = [
      {
        what: 'score p50 / floor service p50',
        value: `${ms(lat.endpoint)} / ${ms(lat.floor)} ms`,
        goal: '≤ 1.25×',
        ratio: lat.endpoint / lat.floor,
        ok: lat.endpoint / lat.floor <= 1.25,
      },
      {
        what: `score-route throughput at concurrency 32 / floor service's: median of ${throughput.rounds.length} rounds' ratios`,
        value: throughput.rounds.map((p) => `${p.score.rps.toFixed(0)}/${p.floor.rps.toFixed(0)}`).join(', ') + ' /s',
        goal: '≥ 0.8×',
        ratio: throughput.median,
        ok: throughput.median >= 0.8,
      },
      {
        what: `hot-product writes at concurrency 32 / emulator ceiling (32): median of ${hot32.pairs.length} paired windows' ratios (pooled /s shown)`,
        value: `${hot32.pooled.note.toFixed(1)} / ${hot32.pooled.ceiling.toFixed(1)} /s`,
        goal: '≥ 0.8×',
        ratio: hot32.median,
        ok: hot32.median >= 0.8,
      },
      {
        what: `create-note-with-link p50 at concurrency 1 / one replay of its TransactWriteItems (${NOTE_ROUNDS} interleaved rounds)`,
        value: `${ms(noteLat.note)} / ${ms(noteLat.transaction)} ms`,
        goal: '≤ 1.5×',
        ratio: noteLat.note / noteLat.transaction,
        ok: noteLat.note / noteLat.transaction <= 1.5,
      },
      { what: '50 concurrent re-rates of one link: 5xx', value: JSON.stringify(rerates), goal: '0 5xx', ok: fivexx(rerates) === 0 },
      { what: '200 concurrent note+link writes: 5xx', value: JSON.stringify(notes200), goal: '0 5xx', ok: fivexx(notes200) === 0 },
      { what: 'mixes, hot-product runs and windows: 5xx', value: String(all5xx), goal: '0', ok: all5xx === 0 },
      { what: 'score verify: mismatches (drift)', value: String(verify.mismatches), goal: '0', ok: verify.mismatches === 0 },
    ];

    const elapsed = (performance.now() - started) / 1000;
    const report = render({ lat, throughput, mixes: [reads, writes, ...hot], hot32, ceiling1, shape: tx.items, goals, verify, elapsed });
    console.log('\n' + report);
    if (process.env.BENCH_NO_DOCS !== '1') {
      await writeSection('bench:load', report);
      console.log('\nWrote docs/performance.md');
    }
    process.exitCode = goals.every((g) => g.ok) ? 0 : 1;
  } finally {
    if (floor) await closeServer(floor);
    if (liveReads) await closeServer(liveReads);
    await stop();
  }
}

function render(r: {
  lat: Latency;
  throughput: Throughput;
  mixes: Mix[];
  hot32: HotComparison;
  ceiling1: { tps: number; p50: number };
  shape: TxItem[];
  goals: Goal[];
  verify: { mismatches: number };
  elapsed: number;
}): string {
  const kinds = r.shape.map((i) => Object.keys(i)[0]).join(', ');
  const mixRows = r.mixes.map(
    (m) =>
      `| ${m.name} | ${m.rps.toFixed(1)} | ${ms(m.p50)} | ${ms(m.p99)} | ${m.total} | ${Object.entries(m.byStatus)
        .map(([c, n]) => `${c}: ${n}`)
        .join(', ')} |`,
  );
  const perOp = (x: Window, k: 'cpuMs' | 'emulatorCpuMs') => (x[k] === undefined ? '–' : ms(x[k] / x.done));
  const pairRows = r.hot32.pairs.map(
    (p, i) =>
      `| ${i + 1} | ${p.first} | ${p.note.rate.toFixed(1)} | ${p.ceiling.rate.toFixed(1)} | ${p.ratio.toFixed(2)}× | ${ms(p.note.p50)} | ${ms(p.ceiling.p50)} | ${perOp(p.note, 'cpuMs')} / ${perOp(p.ceiling, 'cpuMs')} | ${perOp(p.note, 'emulatorCpuMs')} / ${perOp(p.ceiling, 'emulatorCpuMs')} | ${p.note.retries} |`,
  );
  const goalRows = r.goals.map(
    (g) => `| ${g.what} | ${g.value} | ${g.ratio !== undefined ? `${g.ratio.toFixed(2)}×` : ''} | ${g.goal} | ${g.ok ? 'OK' : 'MISSED'} |`,
  );
  return `## The request path under load (\`npm run bench:load\`)

Generated by \`npm run bench:load\` (bench/load.ts) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs (shared), Node ${process.version}:
DynamoDB Local (in memory), the local gateway, the floor and live-reads services and autocannon in one process; one product
(2 components, 8 features), 40 customers, 100 seeded notes with 2 rated links each, all through the API;
${MEMBERS} members with 2 API tokens each (a member's tokens share one budget of ${process.env.RATE_LIMIT_PER_SECOND}/s). ${r.elapsed.toFixed(0)} s in all.

Score latency at concurrency 1 (${ROUNDS} interleaved rounds, p50): endpoint ${ms(r.lat.endpoint)} ms, floor service
(node:http + one GetItem) ${ms(r.lat.floor)} ms, bare GetItem ${ms(r.lat.getItem)} ms; the route's handler invoked in this
process (no HTTP) ${ms(r.lat.handler)} ms, and its one BatchGetItem (credential, member, entity: \`readBearerRecords\`) on its own ${ms(r.lat.reads)} ms.
So HTTP adds ${ms(r.lat.floor - r.lat.getItem)} ms to the floor's call and ${ms(r.lat.endpoint - r.lat.handler)} ms to the handler (node:http and the local gateway); the
handler's own work beyond its reads (Middy, the bearer check, the request scope, the answer) is ${ms(r.lat.handler - r.lat.reads)} ms;
the route's reads cost ${ms(r.lat.reads - r.lat.getItem)} ms more than the floor's one GetItem. With a pipeline that cost nothing, the
route would be ${((r.lat.reads + r.lat.endpoint - r.lat.handler) / r.lat.floor).toFixed(2)}× the floor.

Score throughput at concurrency 32, ${THROUGHPUT_SECONDS} s runs in rounds of three (the order rotating from round to round):
the route, the floor service, and the **live-reads service** — node:http and the route's one BatchGetItem (credential,
member, entity), each token's signature verified once beforehand, answered like the floor: what any route that reads a
token's liveness on every request must at least do. Per round, requests/s of the route, the floor and the live reads:
${r.throughput.rounds.map((p, i) => `${i + 1}: ${p.score.rps.toFixed(0)}, ${p.floor.rps.toFixed(0)}, ${p.reads.rps.toFixed(0)} (${p.ratio.toFixed(2)}× and ${p.readsRatio.toFixed(2)}×)`).join('; ')}.
Medians: route / floor **${r.throughput.median.toFixed(2)}×**, live reads / floor ${median(r.throughput.rounds.map((p) => p.readsRatio)).toFixed(2)}×, route / live reads ${median(r.throughput.rounds.map((p) => p.score.rps / p.reads.rps)).toFixed(2)}×.
${cpuBound(r.throughput)}

| run | 2xx/s | p50 ms | p99 ms | requests | by status |
|---|---:|---:|---:|---:|---|
${mixRows.join('\n')}
| emulator ceiling: the note's TransactWriteItems (${r.shape.length} items: ${kinds}) replayed, each replay on its own copies of the items it touches, concurrency 1 | ${r.ceiling1.tps.toFixed(1)} | ${ms(r.ceiling1.p50)} | | | |

Hot product at concurrency 32 against the emulator's ceiling, in ${r.hot32.pairs.length} pairs of interleaved windows of ${HOT_WINDOW}
each: notes (a customer and one rated link) through the gateway, and replays of the same captured
transaction on fresh copies seeded just before the window (not timed); the side that goes first
alternates. The goal's ratio is the median of the pairs' ratios; pooled = all work over all time, per side.

| pair | first | notes 2xx/s | ceiling /s | notes / ceiling | note p50 ms | replay p50 ms | this process CPU ms per note / replay | emulator CPU ms per note / replay | retried attempts |
|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|
${pairRows.join('\n')}
| pooled | | ${r.hot32.pooled.note.toFixed(1)} | ${r.hot32.pooled.ceiling.toFixed(1)} | ${(r.hot32.pooled.note / r.hot32.pooled.ceiling).toFixed(2)}× | | | | | |
| median of pairs | | | | **${r.hot32.median.toFixed(2)}×** | | | | | |

Notes' answers in the windows: ${Object.entries(r.hot32.byStatus)
    .map(([c, n]) => `${c}: ${n}`)
    .join(', ')}.

| goal | measured | ratio | goal | |
|---|---|---:|---|---|
${goalRows.join('\n')}
`;
}

await main();
