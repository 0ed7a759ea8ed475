// The hot product, deployed: a simulation with a MOCKED DynamoDB (DynamoDB Local never raises
// TransactionConflict). Writers of notes with one rated link under one product run the real retry
// path (lib/store/tx.ts `transact`: its backoff, its time budget, its 429 as Contention, each attempt
// sent through the store's own client) against a middleware on that client that answers for the
// table and models DynamoDB's rule: a transaction touching an item that another transaction is
// writing is cancelled with TransactionConflict. Time is virtual (@sinonjs/fake-timers: setTimeout
// and Date run on a clock the simulation advances event by event), and Math.random is a seeded
// PRNG, so a minute of traffic runs in seconds and the figures do not depend on this machine's load.
//
// Model (stated in docs/performance.md beside the figures): one product → 2 components → 8
// features, 40 customers; each write links one random feature for one random customer and touches
// its note, link and rating items and the aggregate item of the feature, its component and the
// product — or, with a sharded total of N shards, shard hash(note) mod N of each of those three.
// A transaction takes 10–25 ms (uniform) and holds its items for that long; a cancelled one answers
// after half that; the reads before each attempt (one BatchGetItem, the chain cached) take 3–8 ms.
// `concurrency` closed-loop clients, each request within the request budget (REQUEST_TIMEOUT_MS).
import { TransactionCanceledException, type TransactWriteItemsCommandInput } from '@aws-sdk/client-dynamodb';
import FakeTimers from '@sinonjs/fake-timers';
import { config } from '#lib/config.ts';
import { db } from '#lib/store/client.ts';
import { Contention } from '#lib/store/errors.ts';
import { transact, type TxItem } from '#lib/store/tx.ts';
import { writeSection } from './doc-section.ts';

const SIM_SECONDS = 60;
const CONCURRENCY = [1, 8, 32, 128];
const SHARDS = [1, 4, 16];
const FEATURES = 8;
const COMPONENTS = 2;
const CUSTOMERS = 40;

// ---- virtual time ----------------------------------------------------------------------------

/** A seeded PRNG (mulberry32), so every run simulates the same traffic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Virtual time: setTimeout and Date on a fake clock from `epoch`, advanced event by event (continuations run between events). */
function virtualTime(epoch: number) {
  const clock = FakeTimers.withGlobal(globalThis).install({ now: epoch, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  return {
    /** Milliseconds since the epoch of the simulation. */
    get now() {
      return clock.now - epoch;
    },
    sleep: (ms: number) => new Promise<void>((wake) => setTimeout(wake, Math.max(0, ms))),
    /** Runs every timer due up to `until` (simulation time). */
    run: async (until: number) => {
      while (clock.countTimers() > 0 && clock.now - epoch <= until) await clock.nextAsync();
    },
    uninstall: () => clock.uninstall(),
  };
}
type Clock = ReturnType<typeof virtualTime>;

// ---- the simulated table ------------------------------------------------------------------------

/** An item's key as one string; the middleware may see the input marshalled (`{ S: … }`) or not. */
const itemKey = (item: NonNullable<TransactWriteItemsCommandInput['TransactItems']>[number]) => {
  const k = (item.Put?.Item ?? item.Update?.Key ?? item.ConditionCheck?.Key) as unknown as Record<'pk' | 'sk', string | { S: string }>;
  const text = (v: string | { S: string }) => (typeof v === 'string' ? v : v.S);
  return `${text(k.pk)}|${text(k.sk)}`;
};

const conflict = (index: number, size: number) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled (simulated)',
    $metadata: {},
    CancellationReasons: Array.from({ length: size }, (_, i) => (i === index ? { Code: 'TransactionConflict' } : { Code: 'None' })),
  });

/**
 * DynamoDB's rule, simulated: a transaction touching an item another one holds is cancelled. It
 * answers in place of the table, from the store's client's middleware stack (nothing is sent).
 */
function fakeTable(clock: Clock, random: () => number) {
  const heldUntil = new Map<string, number>();
  const stats = { sent: 0, conflicts: 0 };
  const send = async (input: TransactWriteItemsCommandInput): Promise<object> => {
    const items = input.TransactItems ?? [];
    const latency = 10 + 15 * random();
    stats.sent++;
    const busy = items.findIndex((item) => (heldUntil.get(itemKey(item)) ?? -1) > clock.now);
    if (busy >= 0) {
      stats.conflicts++;
      await clock.sleep(latency / 2);
      throw conflict(busy, items.length);
    }
    for (const item of items) heldUntil.set(itemKey(item), clock.now + latency);
    await clock.sleep(latency);
    return {};
  };
  return { send, stats };
}

// ---- the writers ----------------------------------------------------------------------------------

const key = (sk: string) => ({ pk: 'WS#sim', sk });
const update = (sk: string): TxItem => ({
  Update: { TableName: 'sim', Key: key(sk), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } },
});

/** The items of one note-with-link transaction (the shape lib/store/notes.ts createNote writes). */
function noteTransaction(note: number, random: () => number, shards: number): TxItem[] {
  const feature = Math.floor(random() * FEATURES);
  const customer = Math.floor(random() * CUSTOMERS);
  const shard = note % shards;
  return [
    { Put: { TableName: 'sim', Item: { ...key(`NOTE#${note}`) } } },
    { ConditionCheck: { TableName: 'sim', Key: key(`E#customer${customer}`), ConditionExpression: 'attribute_exists(pk)' } },
    { Put: { TableName: 'sim', Item: { ...key(`LINK#${note}#feature${feature}`) } } },
    { Put: { TableName: 'sim', Item: { ...key(`RATE#feature${feature}#customer${customer}`) } } },
    update(`E#feature${feature}#${shard}`),
    update(`E#component${feature % COMPONENTS}#${shard}`),
    update(`E#product#${shard}`),
  ];
}

interface Result {
  shards: number;
  concurrency: number;
  commitsPerS: number;
  refusedShare: number;
  p50: number;
  p99: number;
  attemptsPerCommit: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};

const TABLE = 'simulatedTable';
const realRandom = Math.random;

async function simulate(shards: number, concurrency: number): Promise<Result> {
  const epoch = Date.UTC(2026, 0, 1);
  const clock = virtualTime(epoch);
  const random = prng(shards * 1000 + concurrency);
  Math.random = random;
  const table = fakeTable(clock, random);
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      return { output: { $metadata: {}, ...(await table.send(args.input as TransactWriteItemsCommandInput)) }, response: {} };
    },
    { step: 'initialize', name: TABLE },
  );
  const until = SIM_SECONDS * 1000;
  const latencies: number[] = [];
  let refused = 0;
  let notes = 0;
  const client = async () => {
    while (clock.now < until) {
      const started = clock.now;
      const note = notes++;
      try {
        await transact(
          'createNote',
          async () => {
            await clock.sleep(3 + 5 * random()); // the attempt's reads
            return { items: noteTransaction(note, random, shards), result: undefined };
          },
          epoch + started + config.requestTimeoutMs,
        );
        if (clock.now <= until) latencies.push(clock.now - started);
      } catch (err) {
        if (!(err instanceof Contention)) throw err;
        refused++;
        await clock.sleep(1000 * err.retryAfterS);
      }
    }
  };
  const clients = Array.from({ length: concurrency }, client);
  await clock.run(until + config.requestTimeoutMs * 2);
  void Promise.allSettled(clients);
  db().middlewareStack.remove(TABLE);
  clock.uninstall();
  Math.random = realRandom;
  return {
    shards,
    concurrency,
    commitsPerS: latencies.length / SIM_SECONDS,
    refusedShare: refused / Math.max(1, refused + latencies.length),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    attemptsPerCommit: table.stats.sent / Math.max(1, latencies.length),
  };
}

async function main(): Promise<void> {
  const results: Result[] = [];
  for (const shards of SHARDS) {
    for (const c of CONCURRENCY) {
      const r = await simulate(shards, c);
      results.push(r);
      console.log(
        `shards ${shards}, concurrency ${c}: ${r.commitsPerS.toFixed(1)} writes/s, ${(100 * r.refusedShare).toFixed(1)} % 429, p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, ${r.attemptsPerCommit.toFixed(2)} attempts/write`,
      );
    }
  }
  const rows = results.map(
    (r) =>
      `| ${r.shards} | ${r.concurrency} | ${r.commitsPerS.toFixed(1)} | ${(100 * r.refusedShare).toFixed(1)} % | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.attemptsPerCommit.toFixed(2)} |`,
  );
  await writeSection(
    'bench:conflict',
    `## The hot product, deployed: TransactionConflict simulated (\`npm run bench:conflict\`)

Generated by \`npm run bench:conflict\` (bench/conflict.ts) on ${new Date().toISOString().slice(0, 10)}: a **mocked** DynamoDB in
virtual time (${SIM_SECONDS} s of traffic per row), the real retry path of lib/store/tx.ts. One product → ${COMPONENTS} components → ${FEATURES}
features, ${CUSTOMERS} customers; each write is a note with one rated link (7 items: note, customer check, link, rating, and the
aggregate items of feature, component and product — with N shards, shard hash(note) mod N of each). A transaction takes
10–25 ms and holds its items for as long; one that touches a held item is cancelled (TransactionConflict) after half that;
the reads of each attempt take 3–8 ms; closed-loop clients, a request budget of ${config.requestTimeoutMs / 1000} s, a refused
client waits its Retry-After.

| shards N | concurrency | writes/s | 429 | p50 ms | p99 ms | attempts per write |
|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}`,
  );
  console.log('Wrote docs/performance.md');
}

await main();
process.exit(0);
