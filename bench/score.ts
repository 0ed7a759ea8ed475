// `npm run bench:score`: latency and DynamoDB reads of GET /v2/entities/{id}/score for subtrees
// holding 10, 1 000 and 100 000 contributions, beside a compute-on-read baseline, in one run.
// It starts its own in-memory DynamoDB Local and the local gateway (with the baseline's bench-only
// route, bench/naive-score.ts), writes part of the notes through POST /v2/notes and bulk-loads the
// rest raw (BatchWriteItem, the layout of lib/store/aggregates.ts), lets `score verify --repair` build
// the aggregates, then measures both over HTTP with the same token. Prints the figures and ratios and
// writes docs/performance.md and docs/score-latency.svg. Knobs: BENCH_REQUESTS (per size, default
// 500), BENCH_NAIVE_RUNS (default 30, at least 30 for the doc), BENCH_NO_DOCS=1 (print only).
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { inParallel } from './parallel.ts';

process.env.RATE_LIMIT_PER_SECOND = '0';
// The baseline at 100 000 contributions takes seconds; the request budget must not cut it short.
process.env.REQUEST_TIMEOUT_MS = '120000';
process.env.LOG_LEVEL = 'silent';
process.env.TABLE_NAME = 'pm-api-bench';

const { BatchWriteCommand } = await import('@aws-sdk/lib-dynamodb');
const { issueApiToken } = await import('#lib/auth/api-tokens.ts');
const { IMPORTANCES } = await import('#lib/domain/score.ts');
const { db, tableName } = await import('#lib/store/client.ts');
const { linkItem } = await import('#lib/store/aggregates.ts');
const { noteItem } = await import('#lib/store/notes.ts');
const { addMember } = await import('#lib/store/members.ts');
const { createWorkspace } = await import('#lib/store/workspaces.ts');
const { verifyScores } = await import('../local/admin/score.ts');
const { naiveScoreRoute } = await import('./naive-score.ts');
const { writeSection } = await import('./doc-section.ts');
const { startLocalStack } = await import('./local-stack.ts');

const SIZES = [10, 1_000, 100_000] as const;
type Size = (typeof SIZES)[number];
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const NAIVE_RUNS = Number(process.env.BENCH_NAIVE_RUNS ?? 30);
const WARMUP = 50;

/** Subtree shape per size: components under the product, features per component, links per note. */
const SHAPES: Record<Size, { components: number; featuresPerComponent: number; linksPerNote: number }> = {
  10: { components: 1, featuresPerComponent: 2, linksPerNote: 1 },
  1_000: { components: 2, featuresPerComponent: 5, linksPerNote: 10 },
  100_000: { components: 10, featuresPerComponent: 10, linksPerNote: 10 },
};
const CUSTOMERS = 200;
/** Notes n with n % 200 < 2 (1 %: one anonymous, one with a customer) go through POST /v2/notes. */
const viaApi = (n: number) => n % 200 < 2;

// ---- DynamoDB read counting: a middleware on the document client every handler uses ----------

interface ReadRecord {
  command: string;
  auth: boolean;
  items: number;
  /** Size of what the read returned (JSON of the raw attribute values): the basis of RCUs. */
  bytes: number;
}
let reads: ReadRecord[] = [];
const READS = new Set(['GetItemCommand', 'QueryCommand', 'ScanCommand', 'BatchGetItemCommand', 'TransactGetItemsCommand']);

/**
 * Counts every read call the process makes through the shared document client (the handlers run
 * in-process, so theirs too). DynamoDB Local returns no ConsumedCapacity, so the items and bytes a
 * read returned are recorded instead: RCUs follow from them (4 KB units).
 */
/** The parts of a marshalled read's input and output the counter looks at. */
type MarshalledKey = Record<string, { S?: string }>;
interface ReadInput {
  Key?: MarshalledKey;
  RequestItems?: Record<string, { Keys?: MarshalledKey[] }>;
}
interface ReadOutput {
  Item?: unknown;
  Items?: unknown[];
  Responses?: unknown[] | Record<string, unknown[]>;
}

function countReads(): void {
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? '?';
      if (!READS.has(command)) return next(args);
      const input = args.input as ReadInput;
      const out = await next(args);
      const output = out.output as ReadOutput;
      const returned: unknown[] = output.Item
        ? [output.Item]
        : (output.Items ?? (Array.isArray(output.Responses) ? output.Responses : Object.values(output.Responses ?? {}).flat()));
      // The bearer check reads the token and member items (one BatchGetItem); everything else is the operation's own.
      const keysRead: MarshalledKey[] = input.Key ? [input.Key] : Object.values(input.RequestItems ?? {}).flatMap((r) => r.Keys ?? []);
      const auth = keysRead.some((k) => String(k.pk?.S ?? '').startsWith('TOKEN#') || String(k.sk?.S ?? '').startsWith('MEMBER#'));
      reads.push({ command, auth, items: returned.length, bytes: JSON.stringify(returned).length });
      return out;
    },
    { step: 'build', name: 'benchReadCounter' },
  );
}

// ---- seeding ------------------------------------------------------------------------------------

async function batchWrite(items: Record<string, unknown>[], parallel = 8): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let pending = batches[next++]!.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** attempt)));
        const res = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        pending = (res.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

interface Api {
  baseUrl: string;
  token: string;
}

/** The parts of the API's answers the benchmark reads. */
interface Answer {
  data?: { id?: string; fields?: { score?: number } };
}

async function request(api: Api, method: string, path: string, body?: unknown): Promise<{ status: number; json: Answer | undefined }> {
  const res = await fetch(api.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${api.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Answer) : undefined };
}

async function createEntity(api: Api, type: string, parentId?: string): Promise<string> {
  const res = await request(api, 'POST', '/entities', {
    data: { type, fields: { name: `${type} (bench)` }, ...(parentId ? { relationships: [{ type: 'parent', target: { id: parentId } }] } : {}) },
  });
  if (res.status !== 201) throw new Error(`creating a ${type}: HTTP ${res.status} ${JSON.stringify(res.json)}`);
  return res.json!.data!.id!;
}

/**
 * A product whose subtree holds `size` links from notes of CUSTOMERS customers (every tenth note
 * anonymous), importances cycling through all five. Hierarchy, customers and 1 % of the notes with
 * their links go through the API (the real write path: transactions, ratings, aggregates); the other
 * notes and links are bulk-loaded raw.
 */
async function seed(api: Api, ws: string, size: Size, customers: string[]): Promise<{ productId: string; entities: number; apiNotes: number }> {
  const shape = SHAPES[size];
  const productId = await createEntity(api, 'product');
  const components = await inParallel(shape.components, 4, () => createEntity(api, 'component', productId));
  const features = (
    await inParallel(shape.components, 4, (c) => inParallel(shape.featuresPerComponent, 4, () => createEntity(api, 'feature', components[c])))
  ).flat();
  const notes = size / shape.linksPerNote;
  const items: Record<string, unknown>[] = [];
  const posted: unknown[] = [];
  const t0 = Date.now() - notes - 1000;
  for (let n = 0; n < notes; n++) {
    const noteId = crypto.randomUUID();
    const customerId = n % 10 === 0 ? undefined : customers[n % customers.length]!;
    const targets = Array.from({ length: shape.linksPerNote }, (_, j) => features[(n * shape.linksPerNote + j) % features.length]!);
    if (viaApi(n)) {
      posted.push({
        data: {
          type: 'textNote',
          fields: { name: `Feedback ${n}` },
          relationships: [
            ...(customerId ? [{ type: 'customer', target: { id: customerId } }] : []),
            ...targets.map((id, j) => ({ type: 'link', target: { id }, importance: IMPORTANCES[(n + j) % IMPORTANCES.length]! })),
          ],
        },
      });
      continue;
    }
    const createdAt = new Date(t0 + n).toISOString();
    items.push(noteItem(ws, { id: noteId, name: `Feedback ${n}`, ...(customerId ? { customer: { type: 'user', id: customerId } } : {}), createdAt }));
    for (const [j, entityId] of targets.entries()) {
      // customerId is the link's cache of its note's customer (lib/store/aggregates.ts); writing it
      // here spares verify --repair a rewrite of every link, and verify still rebuilds every rating
      // and aggregate from the notes' customers.
      items.push(
        linkItem(ws, {
          noteId,
          entityId,
          entityType: 'feature',
          importance: IMPORTANCES[(n + j) % IMPORTANCES.length]!,
          setAt: t0 + n,
          rev: 0,
          ...(customerId ? { customerId } : {}),
        }),
      );
    }
  }
  await batchWrite(items);
  await inParallel(posted.length, 4, async (i) => {
    const res = await request(api, 'POST', '/notes', posted[i]);
    if (res.status !== 201) throw new Error(`creating a note: HTTP ${res.status} ${JSON.stringify(res.json)}`);
  });
  return { productId, entities: 1 + components.length + features.length, apiNotes: posted.length };
}

// ---- measuring ----------------------------------------------------------------------------------

/** verify --repair over the workspace, with the peak heap and RSS it added to the process. */
async function verifyMemory(ws: string) {
  const base = process.memoryUsage();
  let peak = { heap: base.heapUsed, rss: base.rss };
  const sample = () => {
    const m = process.memoryUsage();
    peak = { heap: Math.max(peak.heap, m.heapUsed), rss: Math.max(peak.rss, m.rss) };
  };
  const timer = setInterval(sample, 20);
  const t = performance.now();
  try {
    const report = await verifyScores({ workspace: ws, repair: true, progress: sample });
    return { report, seconds: (performance.now() - t) / 1000, heapMb: (peak.heap - base.heapUsed) / 2 ** 20, rssMb: (peak.rss - base.rss) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const summary = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p95: quantile(s, 0.95), mean: s.reduce((a, b) => a + b, 0) / s.length, n: s.length };
};

interface Row {
  size: Size;
  score: number;
  endpoint: ReturnType<typeof summary>;
  endpointReads: { total: number; own: number; items: number; bytes: number };
  naive: ReturnType<typeof summary>;
  naiveReads: { total: number; items: number; kb: number };
}

async function main() {
  const started = performance.now();
  const { appUrl, stop } = await startLocalStack('bench', naiveScoreRoute);
  try {
    const workspace = await createWorkspace('Score benchmark');
    const admin = await addMember(workspace.id, { email: 'bench@example.com', role: 'admin', active: true });
    const api: Api = { baseUrl: `${appUrl}/v2`, token: (await issueApiToken(admin)).token };
    const ws = workspace.id;

    console.log(`Seeding (${cpus().length} CPUs)...`);
    const customers = await inParallel(CUSTOMERS, 8, () => createEntity(api, 'user'));
    const seeded = new Map<Size, { productId: string; entities: number; apiNotes: number }>();
    const setup: string[] = [];
    const memory: string[] = [];
    let contributions = 0;
    const measureVerify = async (label: string) => {
      const m = await verifyMemory(ws);
      memory.push(`${fmt(contributions)} contributions: peak heap +${m.heapMb.toFixed(1)} MB, peak RSS +${m.rssMb.toFixed(1)} MB`);
      setup.push(`${label}: ${JSON.stringify(m.report)} in ${m.seconds.toFixed(1)} s`);
      console.log(`  ${setup.at(-1)}; ${memory.at(-1)}`);
    };
    for (const size of SIZES) {
      // The streaming verify's memory on the smaller workspace, to compare with the whole one below.
      if (size === SIZES[SIZES.length - 1]) await measureVerify(`verify --repair at ${fmt(contributions)} contributions`);
      contributions += size;
      const t = performance.now();
      seeded.set(size, await seed(api, ws, size, customers));
      const s = seeded.get(size)!;
      setup.push(
        `seeding ${fmt(size)} contributions (${s.entities} entities, ${fmt(s.apiNotes)} notes through POST /v2/notes): ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
      console.log(`  ${setup.at(-1)}`);
    }
    await measureVerify('verify --repair');

    countReads();
    const scoreAt = async (size: Size, route: 'score' | 'naive-score') => {
      const res = await request(api, 'GET', `/entities/${seeded.get(size)!.productId}/${route}`);
      if (res.status !== 200) throw new Error(`${route}: HTTP ${res.status} ${JSON.stringify(res.json)}`);
      return res.json!.data!.fields!.score!;
    };
    const score = (size: Size) => scoreAt(size, 'score');

    // The endpoint must agree with the recomputation before anything is timed (this also proves the
    // repair built the aggregates right, without a second full verify pass).
    const scores = new Map<Size, number>();
    for (const size of SIZES) {
      const [endpoint, naive] = [await score(size), await scoreAt(size, 'naive-score')];
      if (endpoint !== naive) throw new Error(`size ${size}: endpoint says ${endpoint}, recomputation ${naive}`);
      scores.set(size, endpoint);
    }

    console.log(`Measuring the endpoint: ${WARMUP} warm-up, then ${REQUESTS} requests per size, sizes interleaved...`);
    for (let i = 0; i < WARMUP; i++) for (const size of SIZES) await score(size);
    const latency = new Map<Size, number[]>(SIZES.map((s) => [s, []]));
    const readsPer = new Map<Size, ReadRecord[][]>(SIZES.map((s) => [s, []]));
    for (let i = 0; i < REQUESTS; i++) {
      // Rotate the order each round, so no size always goes first (after the previous round's pause).
      for (const size of [...SIZES.slice(i % SIZES.length), ...SIZES.slice(0, i % SIZES.length)]) {
        reads = [];
        const t0 = performance.now();
        await score(size);
        latency.get(size)!.push(performance.now() - t0);
        readsPer.get(size)!.push(reads);
      }
    }

    console.log(`Measuring the compute-on-read baseline over HTTP: ${NAIVE_RUNS} runs per size, sizes interleaved...`);
    const naive = new Map<Size, number[]>(SIZES.map((s) => [s, []]));
    const naiveReads = new Map<Size, ReadRecord[][]>(SIZES.map((s) => [s, []]));
    for (let i = 0; i < NAIVE_RUNS; i++) {
      for (const size of [...SIZES.slice(i % SIZES.length), ...SIZES.slice(0, i % SIZES.length)]) {
        reads = [];
        const t0 = performance.now();
        await scoreAt(size, 'naive-score');
        naive.get(size)!.push(performance.now() - t0);
        naiveReads.get(size)!.push(reads);
      }
    }

    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const rows: Row[] = SIZES.map((size) => ({
      size,
      score: scores.get(size)!,
      endpoint: summary(latency.get(size)!),
      endpointReads: {
        total: avg(readsPer.get(size)!.map((r) => r.length)),
        own: avg(readsPer.get(size)!.map((r) => r.filter((x) => !x.auth).length)),
        items: avg(readsPer.get(size)!.map((r) => r.filter((x) => !x.auth).reduce((s, x) => s + x.items, 0))),
        bytes: avg(readsPer.get(size)!.map((r) => r.filter((x) => !x.auth).reduce((s, x) => s + x.bytes, 0))),
      },
      naive: summary(naive.get(size)!),
      naiveReads: {
        total: avg(naiveReads.get(size)!.map((r) => r.filter((x) => !x.auth).length)),
        items: avg(naiveReads.get(size)!.map((r) => r.filter((x) => !x.auth).reduce((s, x) => s + x.items, 0))),
        kb: avg(naiveReads.get(size)!.map((r) => r.filter((x) => !x.auth).reduce((s, x) => s + x.bytes, 0))) / 1024,
      },
    }));
    const small = rows[0]!;
    const big = rows[rows.length - 1]!;
    const ratios = {
      endpointP50: big.endpoint.p50 / small.endpoint.p50,
      endpointP95: big.endpoint.p95 / small.endpoint.p95,
      naiveOverEndpointAt100k: big.naive.p50 / big.endpoint.p50,
    };
    const elapsed = (performance.now() - started) / 1000;
    const table = renderTable(rows);
    console.log('\n' + table);
    console.log(
      `\nlatency(100 000) / latency(10), endpoint p50: ${ratios.endpointP50.toFixed(2)} (must be ≤ 1.2) ${ratios.endpointP50 <= 1.2 ? 'OK' : 'FAILED'}`,
    );
    console.log(`latency(100 000) / latency(10), endpoint p95: ${ratios.endpointP95.toFixed(2)}`);
    console.log(
      `naive / endpoint at 100 000, p50: ${ratios.naiveOverEndpointAt100k.toFixed(0)}× (must be ≥ 100×) ${ratios.naiveOverEndpointAt100k >= 100 ? 'OK' : 'FAILED'}`,
    );
    console.log(`total ${elapsed.toFixed(0)} s`);
    if (process.env.BENCH_NO_DOCS !== '1') {
      await writeFile(join(import.meta.dirname, '..', 'docs', 'score-latency.svg'), renderSvg(rows));
      await writeSection('bench:score', renderDoc(rows, ratios, elapsed, setup, memory));
      console.log('Wrote docs/performance.md and docs/score-latency.svg');
    }
    process.exitCode = ratios.endpointP50 <= 1.2 && ratios.naiveOverEndpointAt100k >= 100 ? 0 : 1;
  } finally {
    await stop();
  }
}

// ---- output -------------------------------------------------------------------------------------

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const fmt = (n: number) => n.toLocaleString('en').replace(/,/g, ' ');

function renderTable(rows: Row[]): string {
  const head =
    '| contributions | score | endpoint p50 ms | endpoint p95 ms | endpoint reads/request: score (all incl. auth) | items, bytes read by score | naive p50 ms | naive p95 ms | naive reads/request | naive items, KB read | naive / endpoint (p50) |';
  const sep =
    '|' +
    head
      .split('|')
      .slice(1, -1)
      .map(() => '---:')
      .join('|') +
    '|';
  const lines = rows.map(
    (r) =>
      `| ${fmt(r.size)} | ${fmt(r.score)} | ${ms(r.endpoint.p50)} | ${ms(r.endpoint.p95)} | ${r.endpointReads.own.toFixed(1)} (${r.endpointReads.total.toFixed(1)}) | ${r.endpointReads.items.toFixed(1)}, ${r.endpointReads.bytes.toFixed(0)} B | ${ms(r.naive.p50)} | ${ms(r.naive.p95)} | ${fmt(Math.round(r.naiveReads.total))} | ${fmt(Math.round(r.naiveReads.items))}, ${fmt(Math.round(r.naiveReads.kb))} KB | ${(r.naive.p50 / r.endpoint.p50).toFixed(1)}× |`,
  );
  return [head, sep, ...lines].join('\n');
}

/** Grouped bars on a log scale: endpoint and naive p50 per size. */
function renderSvg(rows: Row[]): string {
  const W = 640;
  const H = 360;
  const left = 70;
  const bottom = 300;
  const top = 30;
  const values = rows.flatMap((r) => [r.endpoint.p50, r.naive.p50]);
  const lo = Math.floor(Math.log10(Math.min(...values)));
  const hi = Math.ceil(Math.log10(Math.max(...values)));
  const y = (v: number) => bottom - ((Math.log10(v) - lo) / (hi - lo || 1)) * (bottom - top);
  const group = (W - left - 20) / rows.length;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="18" text-anchor="middle" font-size="14">GET /v2/entities/{id}/score, p50 latency (ms, log scale)</text>`,
  ];
  for (let e = lo; e <= hi; e++) {
    const v = 10 ** e;
    parts.push(
      `<line x1="${left}" x2="${W - 20}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${v >= 1 ? fmt(v) : v}</text>`,
    );
  }
  rows.forEach((r, i) => {
    const x0 = left + i * group + group * 0.15;
    const bw = group * 0.33;
    for (const [k, v, color] of [
      [0, r.endpoint.p50, '#2b6cb0'],
      [1, r.naive.p50, '#c05621'],
    ] as const) {
      const x = x0 + k * bw;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y(v).toFixed(1)}" width="${(bw - 4).toFixed(1)}" height="${(bottom - y(v)).toFixed(1)}" fill="${color}"/>`,
        `<text x="${(x + bw / 2 - 2).toFixed(1)}" y="${(y(v) - 4).toFixed(1)}" text-anchor="middle">${ms(v)}</text>`,
      );
    }
    parts.push(`<text x="${(x0 + bw).toFixed(1)}" y="${bottom + 18}" text-anchor="middle">${fmt(r.size)} contributions</text>`);
  });
  parts.push(
    `<line x1="${left}" x2="${W - 20}" y1="${bottom}" y2="${bottom}" stroke="#333"/>`,
    `<rect x="${left}" y="${H - 28}" width="12" height="12" fill="#2b6cb0"/><text x="${left + 18}" y="${H - 18}">endpoint (precomputed aggregate)</text>`,
    `<rect x="${left + 260}" y="${H - 28}" width="12" height="12" fill="#c05621"/><text x="${left + 278}" y="${H - 18}">naive compute-on-read</text>`,
    '</svg>',
  );
  return parts.join('\n') + '\n';
}

function renderDoc(
  rows: Row[],
  ratios: { endpointP50: number; endpointP95: number; naiveOverEndpointAt100k: number },
  elapsed: number,
  setup: string[],
  memory: string[],
): string {
  const shapes = rows.map((r) => {
    const s = SHAPES[r.size];
    return `- ${fmt(r.size)}: 1 product → ${s.components} component(s) → ${s.components * s.featuresPerComponent} features; ${fmt(r.size / s.linksPerNote)} notes × ${s.linksPerNote} link(s)`;
  });
  return `## The customer score (\`npm run bench:score\`)

Generated by \`npm run bench:score\` (bench/score.ts) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs,
Node ${process.version}, DynamoDB Local (in memory) and the local gateway in one process. Re-run it to refresh this page.

### Method

- Three product subtrees in one workspace. Hierarchy, customers and 1 % of the notes (two in
  every two hundred, at least two per size: one anonymous, one with a customer) with all their links went through the API
  (\`POST /v2/notes\`: the real write path, its transactions, ratings and aggregates); the other
  notes and links were bulk-loaded raw (BatchWriteItem, the item layout documented in
  lib/store/aggregates.ts); then \`score verify --repair\` built every aggregate (the endpoint's value
  was then checked equal to the baseline's recomputation for each product before any timing).
${shapes.join('\n')}
  Notes belong to ${CUSTOMERS} customers (users), every tenth note is anonymous, importances cycle through all five.
- Endpoint: \`GET /v2/entities/{product}/score\` over HTTP with an API token, ${WARMUP} warm-up rounds, then
  ${REQUESTS} requests per size, the sizes interleaved request by request (order rotated each round)
  so drift and noise from other processes hit all sizes alike.
- Reads: a middleware on the DynamoDB document client counts every read call (GetItem, Query,
  BatchGetItem, ...) during a request, with the items and bytes it returned (DynamoDB Local reports
  no ConsumedCapacity; RCUs follow from the bytes, 4 KB per unit). "score" reads are the calls
  besides the bearer check, shown in brackets with it; since the route prefetches its entity, the
  bearer check's one BatchGetItem (credential, member, entity) is the whole read, so "score" shows 0.
- Naive baseline (bench/naive-score.ts): the same score computed on read — walk the subtree through
  the children index, query every entity's links, apply the rule — served as a bench-only route
  (\`GET /v2/entities/{id}/naive-score\`, in no route table, stack or OpenAPI document) through the same
  gateway, pipeline and API token as the endpoint; ${NAIVE_RUNS} runs per size, the sizes interleaved. Its
  reads exclude the bearer check, like the endpoint's. It reads the customer cached on each link instead
  of each note, so it is a lower bound on a real compute-on-read.

### Figures

${renderTable(rows)}

- latency(100 000) / latency(10), endpoint p50: **${ratios.endpointP50.toFixed(2)}** (target ≤ 1.2); p95: ${ratios.endpointP95.toFixed(2)}
- naive / endpoint at 100 000 contributions, p50: **${ratios.naiveOverEndpointAt100k.toFixed(0)}×** (target ≥ 100×)
- whole run: ${elapsed.toFixed(0)} s (${setup.join('; ')})
- \`score verify --repair\` streams the workspace (lib/store/verify.ts); the memory it added to the process
  (peak over samples every 20 ms and at every page): ${memory.join('; ')}.

![p50 latency of the score endpoint and the naive baseline per subtree size](score-latency.svg)

Latencies are end to end through the local gateway (HTTP, authentication, handler, DynamoDB Local),
so absolute numbers are those of an emulator on a small machine; the ratios are the point: the
endpoint's cost does not depend on the subtree, the baseline's grows with it.
`;
}

await main();
