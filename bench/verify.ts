// `npm run bench:verify`: the memory `score verify` needs for one entity with 1 000 and with 100 000
// links (lib/store/verify.ts streams an entity's links against its rating items, checkOwn), and the
// reads its entity pass makes. It starts its own in-memory DynamoDB Local, creates per size a
// workspace with one product, one feature under it and 200 customers (the store's own writes), and
// bulk-loads the notes (every tenth anonymous), their links to the feature and the rating items and
// scores they make (the layout of lib/store/aggregates.ts). Then a check-only verify of the
// workspace, twice: as loaded (no drift), and with one rating entry that has no link, which makes the
// entity pass read every stored entry's link and note by key. Memory: peak heap (sampled every 20 ms
// and at every page, garbage included) and the most the heap retained after a full collection
// (every 250 ms), both above what the process held before. Prints the figures; docs/performance.md
// ("Admin jobs at scale") quotes them. Knob: BENCH_VERIFY_SIZES (links per size, default 1000,100000).
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

process.env.LOG_LEVEL = 'silent';
process.env.TABLE_NAME = 'pm-api-bench-verify';

const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
const { countedWeight, IMPORTANCES, ownScores, WEIGHTS } = await import('#lib/domain/score.ts');
const { linkItem, ratingItem } = await import('#lib/store/aggregates.ts');
const { batchWriteAll } = await import('#lib/store/batch.ts');
const { db, tableName } = await import('#lib/store/client.ts');
const { createEntity } = await import('#lib/store/entity-writes.ts');
const keys = await import('#lib/store/keys.ts');
const { noteItem } = await import('#lib/store/notes.ts');
const { verifyWorkspace } = await import('#lib/store/verify.ts');
const { createWorkspace } = await import('#lib/store/workspaces.ts');
const { ensureTable, startDynamoDbLocal } = await import('../local/dynamodb-local.ts');
const { inParallel } = await import('./parallel.ts');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SIZES = (process.env.BENCH_VERIFY_SIZES ?? '1000,100000').split(',').map(Number);
const CUSTOMERS = 200;
const MB = 2 ** 20;

/** A workspace whose one feature has `links` links; answers the feature and the rating item to tamper with. */
async function seed(links: number) {
  const ws = (await createWorkspace(`Verify benchmark, ${links} links`)).id;
  const make = async (type: 'product' | 'feature' | 'company', parent?: string) =>
    (await createEntity(ws, { type, values: { name: `${type} (bench)` }, parentPath: [], ...(parent ? { parent: { id: parent } } : {}) })).id;
  const product = await make('product');
  const feature = await make('feature', product);
  const customers = await inParallel(CUSTOMERS, 8, () => make('company'));
  const t0 = Date.now() - links - 1000;
  const items: Record<string, unknown>[] = [];
  const raw = [];
  const ratings = new Map<string, Record<string, { w: number; at: number }>>();
  for (let n = 0; n < links; n++) {
    const noteId = crypto.randomUUID();
    const customerId = n % 10 === 0 ? undefined : customers[n % CUSTOMERS]!;
    const importance = IMPORTANCES[n % IMPORTANCES.length]!;
    const setAt = t0 + n;
    items.push(
      noteItem(ws, {
        id: noteId,
        name: `Feedback ${n}`,
        ...(customerId ? { customer: { id: customerId, type: 'company' } } : {}),
        createdAt: new Date(setAt).toISOString(),
      }),
    );
    items.push(linkItem(ws, { noteId, entityId: feature, entityType: 'feature', importance, setAt, rev: 0, ...(customerId ? { customerId } : {}) }));
    raw.push({ noteId, entityId: feature, customerId, importance, setAt });
    if (customerId) ratings.set(customerId, { ...ratings.get(customerId), [noteId]: { w: WEIGHTS[importance], at: setAt } });
  }
  for (const [customerId, entries] of ratings) items.push(ratingItem(ws, { entityId: feature, customerId, entries, weight: countedWeight(entries), ver: 1 }));
  await batchWriteAll(
    items.map((Item) => ({ PutRequest: { Item } })),
    8,
  );
  const own = ownScores(raw).get(feature) ?? 0;
  for (const id of [feature, product]) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.entity(ws, id),
        UpdateExpression: 'SET #o = :o, #t = :t',
        ExpressionAttributeNames: { '#o': 'own', '#t': 'total' },
        ExpressionAttributeValues: { ':o': id === feature ? own : 0, ':t': own },
      }),
    );
  }
  return { ws, feature, tampered: customers[1]! };
}

/** Reads of the entity pass (the phase checkOwn runs in): calls and items returned, by command. */
let phase = '';
const reads = new Map<string, { calls: number; items: number }>();
function countEntityPassReads(): void {
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (phase !== 'entities') return out;
      const o = out.output as { Item?: unknown; Items?: unknown[]; Responses?: Record<string, unknown[]> };
      const items = o.Items?.length ?? (o.Item ? 1 : Object.values(o.Responses ?? {}).flat().length);
      const r = reads.get(context.commandName ?? '?') ?? { calls: 0, items: 0 };
      reads.set(context.commandName ?? '?', { calls: r.calls + 1, items: r.items + items });
      return out;
    },
    { step: 'build', name: 'benchVerifyReads' },
  );
}

async function measure(ws: string) {
  gc();
  const base = process.memoryUsage().heapUsed;
  let [peak, retained, entitiesRetained] = [base, base, base];
  const sample = () => (peak = Math.max(peak, process.memoryUsage().heapUsed));
  const settle = () => {
    gc();
    const h = process.memoryUsage().heapUsed;
    retained = Math.max(retained, h);
    if (phase === 'entities') entitiesRetained = Math.max(entitiesRetained, h);
  };
  reads.clear();
  const timers = [setInterval(sample, 20), setInterval(settle, 250)];
  const t = performance.now();
  try {
    const report = await verifyWorkspace(ws, false, (p) => {
      phase = p.phase;
      sample();
    });
    return {
      report,
      seconds: (performance.now() - t) / 1000,
      peakMb: (peak - base) / MB,
      retainedMb: (retained - base) / MB,
      entitiesRetainedMb: (entitiesRetained - base) / MB,
      reads: Object.fromEntries(reads),
    };
  } finally {
    timers.forEach(clearInterval);
    phase = '';
  }
}

async function main() {
  const ddb = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = ddb.endpoint;
  try {
    await ensureTable(ddb.endpoint, tableName());
    countEntityPassReads();
    for (const links of SIZES) {
      const t = performance.now();
      const { ws, feature, tampered } = await seed(links);
      console.log(`${links} links on one entity: seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const show = (label: string, m: Awaited<ReturnType<typeof measure>>) =>
        console.log(
          `  ${label}: ${JSON.stringify(m.report)} in ${m.seconds.toFixed(1)} s; peak heap +${m.peakMb.toFixed(1)} MB, retained after GC +${m.retainedMb.toFixed(1)} MB ` +
            `(entity pass +${m.entitiesRetainedMb.toFixed(1)} MB); entity pass reads ${JSON.stringify(m.reads)}`,
        );
      show('no drift', await measure(ws));
      // One entry whose note has no link to the feature: the stored entries outnumber the links matched.
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.rating(ws, feature, tampered),
          UpdateExpression: 'SET entries.#x = :e',
          ExpressionAttributeNames: { '#x': crypto.randomUUID() },
          ExpressionAttributeValues: { ':e': { w: 0, at: 1 } },
        }),
      );
      show('one entry without a link', await measure(ws));
    }
  } finally {
    await ddb.stop();
  }
}

await main();
