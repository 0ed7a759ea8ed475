// `npm run bench:delete`: what `DELETE /v2/entities/{product}` costs for a large product — the time
// to the answer (the subtree marked: lib/store/cascade.ts deleteEntity) and the time the sweeper then
// takes to clean it up (lib/store/sweep.ts → finishEntityDelete), on the local stack.
//
// Seeded through the store, not the API: a workspace restored raw (the records of
// lib/store/move/kinds.ts as BatchWriteItem batches, the aggregates computed by
// lib/store/move/aggregates-fresh.ts), its entity items flagged as the create endpoint leaves them
// (hadChildren). The deleted product holds BENCH_DELETE_FEATURES features (default 2 000) under
// components of 100; BENCH_DELETE_NOTES notes (default 5 000), each with a customer, rate two of them
// and one feature of a second product that stays. After the DELETE (204 expected), the sweep runs
// as the scheduled worker does until nothing is handed back; then `score verify` (0 mismatches,
// 0 pending), no item of the table names an id of the subtree, and the remaining product's scores
// are the ones the rule (lib/domain/score.ts) gives for the links left.
//
// Floors, timed in the same run on copies of the same items under a partition of their own (their
// index keys moved with them): the answer's floor is its writes alone — the subtree's entity items
// marked 99 per TransactWriteItems with a tombstone-sized Put, one transaction after another, as
// the marking sends them; the clean-up's floor is its writes alone — one Update per note taking its
// links out of its copy, in transactions of 100 one after another (the emulator commits one
// at a time), then the links, ratings and entity items deleted by BatchWriteItem, 16 in flight. No
// reads in either. Exits 1 when the answer is not 204, a check fails or a bound is missed; rewrites
// its section of docs/performance.md.
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { writeSection } from './doc-section.ts';

process.env.LOG_LEVEL = 'silent';
process.env.TABLE_NAME = 'pm-api-bench-delete';
process.env.RATE_LIMIT_PER_SECOND = '1000';

const { issueApiToken } = await import('#lib/auth/api-tokens.ts');
const { config } = await import('#lib/config.ts');
const { IMPORTANCES, ownScores, subtreeScores } = await import('#lib/domain/score.ts');
const { batchWriteAll } = await import('#lib/store/batch.ts');
const { transactWrite } = await import('#lib/store/calls.ts');
const keys = await import('#lib/store/keys.ts');
const { addMember } = await import('#lib/store/members.ts');
const { aggregateLoadedWorkspace } = await import('#lib/store/move/aggregates-fresh.ts');
const { itemsOf } = await import('#lib/store/move/kinds.ts');
const { queryAll } = await import('#lib/store/query.ts');
const { sweep } = await import('#lib/store/sweep.ts');
const { tableName } = await import('#lib/store/table.ts');
const { TOMBSTONES_PER_CHUNK } = await import('#lib/store/tombstones.ts');
const { MAX_TX_ITEMS } = await import('#lib/store/tx.ts');
const { createWorkspace } = await import('#lib/store/workspaces.ts');
const { verifyScores } = await import('../local/admin/score.ts');
const { startLocalStack } = await import('./local-stack.ts');

type Item = Record<string, unknown>;
type RecordOf = Parameters<typeof itemsOf>[0];

const FEATURES = Number(process.env.BENCH_DELETE_FEATURES ?? 2000);
const NOTES = Number(process.env.BENCH_DELETE_NOTES ?? 5000);
const FEATURES_PER_COMPONENT = 100;
const KEPT_FEATURES = 10;
const CUSTOMERS = 200;
/** BatchWriteItems in flight in the clean-up's floor: what the clean-up runs at once (lib/store/cascade.ts PARALLEL). */
const FLOOR_PARALLEL = 16;

/**
 * The bounds. The answer: within the request budget (REQUEST_TIMEOUT_MS, 10 s by default; past it
 * the route answers 408 and leaves the rest to the sweeper), and within 3× its floor — the marking
 * reads the children index level by level besides its writes. The clean-up: within 60 s of sweep
 * time (three of the sweeper's chunks, SWEEP_CHUNK_MS = 20 s: deployed, the sweeper runs every
 * minute, so such a product is gone from the table within about three minutes), and within 4× its
 * floor — per entity it reads its links, and per group of chunks the entities, the workspace's relations and its ratings, besides its writes, and a note linked
 * to entities of several groups of chunks (ten chunks of 99 a group) is updated once per group,
 * where the floor updates it once.
 */
const BOUNDS = { answerMs: config.requestTimeoutMs, answerRatio: 3, cleanMs: 60_000, cleanRatio: 4 };

const at = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const t = performance.now();
  const result = await fn();
  return { ms: performance.now() - t, result };
}

/** The records of the workspace: the deleted product, the kept one, the customers and the rated notes. */
function records(ws: string) {
  const t0 = Date.parse('2030-01-01T00:00:00.000Z');
  const out: RecordOf[] = [];
  const entity = (type: 'product' | 'component' | 'feature' | 'company', n: number, parent?: { id: string; type: 'product' | 'component' }): string => {
    const id = randomUUID();
    out.push({
      kind: 'entity',
      id,
      type,
      fields: { name: `${type} ${n}` },
      createdAt: at(t0 + out.length),
      updatedAt: at(t0 + out.length),
      ...(parent ? { parent } : {}),
    });
    return id;
  };
  const product = entity('product', 0);
  const subtree = [product];
  const features: string[] = [];
  for (let c = 0; c * FEATURES_PER_COMPONENT < FEATURES; c++) {
    const component = entity('component', c, { id: product, type: 'product' });
    subtree.push(component);
    for (let f = c * FEATURES_PER_COMPONENT; f < Math.min(FEATURES, (c + 1) * FEATURES_PER_COMPONENT); f++)
      features.push(entity('feature', f, { id: component, type: 'component' }));
  }
  subtree.push(...features);
  const kept = entity('product', 1);
  const keptFeatures = Array.from({ length: KEPT_FEATURES }, (_, f) => entity('feature', FEATURES + f, { id: kept, type: 'product' }));
  const customers = Array.from({ length: CUSTOMERS }, (_, c) => entity('company', c));
  const links: Array<{ noteId: string; entityId: string; customerId: string; importance: (typeof IMPORTANCES)[number]; setAt: number }> = [];
  for (let n = 0; n < NOTES; n++) {
    const noteId = randomUUID();
    const customerId = customers[n % CUSTOMERS]!;
    const setAt = t0 + 1_000_000 + n;
    const targets = [...new Set([features[(n * 7) % FEATURES]!, features[(n * 13 + 1) % FEATURES]!, keptFeatures[n % KEPT_FEATURES]!])];
    const noteLinks = targets.map((entityId, k) => ({
      entityId,
      entityType: 'feature' as const,
      importance: IMPORTANCES[(n + k) % IMPORTANCES.length]!,
      ratedAt: at(setAt),
    }));
    links.push(...noteLinks.map((l) => ({ noteId, entityId: l.entityId, customerId, importance: l.importance, setAt })));
    out.push({
      kind: 'note',
      id: noteId,
      type: 'textNote',
      fields: { name: `Feedback ${n}` },
      customer: { id: customerId, type: 'company' },
      createdAt: at(setAt),
      updatedAt: at(setAt),
      links: noteLinks,
    });
  }
  const parents = new Set(out.flatMap((r) => (r.kind === 'entity' && r.parent ? [r.parent.id] : [])));
  const items = out.flatMap((r) =>
    itemsOf(r, { ws, id: (x) => x, quiet: 'bench-delete', sealedSecret: () => '' }).map((it) =>
      // Flagged as the create endpoint leaves them: true once a child joined, false for a leaf.
      it.kind === 'entity' && it.type !== 'company' ? { ...it, hadChildren: parents.has(it.id as string) } : it,
    ),
  );
  return { items, product, subtree, kept, keptFeatures, links };
}

/** Every item of the workspace's partition. */
const partitionItems = (ws: string) =>
  queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.partition(ws) }, ConsistentRead: true }) as Promise<Item[]>;

/** A copy of an item under another partition, its index partitions moved along (so no list of the workspace sees it). */
function copyTo(scratch: string, ws: string, item: Item): Item {
  const out = { ...item };
  for (const k of ['pk', 'gsi1pk', 'gsi2pk', 'gsi3pk']) if (typeof out[k] === 'string') out[k] = out[k].replace(ws, scratch);
  return out;
}

const chunksOf = <T>(xs: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));

/** The floors (see the top): copies written untimed, then the answer's writes and the clean-up's writes timed. */
async function floors(ws: string, subtree: ReadonlySet<string>) {
  const scratch = randomUUID();
  const items = await partitionItems(ws);
  const entities = items.filter((it) => it.kind === 'entity' && subtree.has(it.id as string));
  const links = items.filter((it) => typeof it.sk === 'string' && it.sk.startsWith(keys.kindPrefix.link) && subtree.has(it.entityId as string));
  // A rating item's sort key is RATE#<entity>#<customer>.
  const ratedEntity = (sk: string) => sk.slice(keys.kindPrefix.rating.length).split('#')[0]!;
  const ratings = items.filter((it) => typeof it.sk === 'string' && it.sk.startsWith(keys.kindPrefix.rating) && subtree.has(ratedEntity(it.sk)));
  const linkedNotes = new Set(links.map((l) => l.noteId as string));
  const notes = items.filter((it) => it.kind === 'note' && linkedNotes.has(it.id as string));
  const copies = [...entities, ...links, ...ratings, ...notes].map((it) => copyTo(scratch, ws, it));
  await batchWriteAll(
    copies.map((Item) => ({ PutRequest: { Item } })),
    8,
  );
  const key = (it: Item) => ({ pk: keys.partition(scratch), sk: it.sk as string });

  const answer = await timed(async () => {
    const markedAt = new Date().toISOString();
    for (const [i, chunk] of chunksOf(entities, TOMBSTONES_PER_CHUNK).entries())
      await transactWrite({
        TransactItems: [
          ...chunk.map((e) => ({
            Update: {
              TableName: tableName(),
              Key: key(e),
              UpdateExpression: 'SET deleting = :at REMOVE gsi1pk, gsi1sk, gsi3pk, gsi3sk',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
              ExpressionAttributeValues: { ':at': markedAt },
            },
          })),
          { Put: { TableName: tableName(), Item: { pk: keys.partition(scratch), sk: `FLOOR#${i}`, ids: chunk.map((e) => e.id) } } },
        ],
      });
  });

  // One Update per note taking all its links to the subtree out of its copy: the fewest writes that can do it.
  const byNote = new Map<string, string[]>();
  for (const l of links) byNote.set(l.noteId as string, [...(byNote.get(l.noteId as string) ?? []), l.entityId as string]);
  // One transaction at a time: DynamoDB Local commits them one by one, so more in flight only queue.
  const uncopy = await timed(async () => {
    for (const tx of chunksOf([...byNote], MAX_TX_ITEMS))
      await transactWrite({
        TransactItems: tx.map(([noteId, entityIds]) => ({
          Update: {
            TableName: tableName(),
            Key: { pk: keys.partition(scratch), sk: keys.note(ws, noteId).sk },
            UpdateExpression: `REMOVE ${entityIds.map((_, i) => `#l${i}`).join(', ')}`,
            ExpressionAttributeNames: Object.fromEntries(entityIds.map((id, i) => [`#l${i}`, `L#${id}`])),
          },
        })),
      });
  });
  const deletes = await timed(() =>
    batchWriteAll(
      [...links, ...ratings, ...entities].map((it) => ({ DeleteRequest: { Key: key(it) } })),
      FLOOR_PARALLEL,
    ),
  );
  return {
    answerMs: answer.ms,
    cleanMs: uncopy.ms + deletes.ms,
    counts: { entities: entities.length, links: links.length, ratings: ratings.length, notes: notes.length },
  };
}

async function main() {
  const loadStart = loadavg()[0]!;
  const started = performance.now();
  const { appUrl, stop } = await startLocalStack('delete');
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) failures.push(what);
    console.log(`${ok ? 'ok    ' : 'MISSED'} ${what}`);
  };
  try {
    const workspace = await createWorkspace('Delete benchmark');
    const ws = workspace.id;
    const token = (await issueApiToken(await addMember(ws, { email: 'delete@example.com', role: 'admin', active: true }))).token;
    const api = (method: string, path: string) => fetch(`${appUrl}/v2${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    const score = async (id: string) => {
      const res = await api('GET', `/entities/${id}/score`);
      return res.status === 200 ? ((await res.json()) as { data: { fields: { score: number } } }).data.fields.score : `HTTP ${res.status}`;
    };

    const seeded = await timed(async () => {
      const s = records(ws);
      await batchWriteAll(
        s.items.map((Item) => ({ PutRequest: { Item } })),
        8,
      );
      await aggregateLoadedWorkspace(ws, { quiet: 'bench-delete' });
      return s;
    });
    const { product, kept, keptFeatures, links } = seeded.result;
    const subtree = new Set(seeded.result.subtree);
    const keptIds = [kept, ...keptFeatures];
    const parentOf = new Map<string, string | undefined>([[kept, undefined], ...keptFeatures.map((f): [string, string] => [f, kept])]);
    const expectedKept = subtreeScores(parentOf, ownScores(links.filter((l) => !subtree.has(l.entityId))));
    const expectedProduct = [...ownScores(links.filter((l) => subtree.has(l.entityId))).values()].reduce((a, b) => a + b, 0);
    console.log(
      `seeded ${seeded.result.items.length} items (${subtree.size} entities in the subtree, ${NOTES} notes, ${links.length} links) in ${seconds(seeded.ms)}`,
    );
    console.log('checking the seed (score verify) …');
    const before = await verifyScores({ workspace: ws, repair: false });
    if (before.mismatches !== 0 || (await score(product)) !== expectedProduct)
      throw new Error(`The seed is not exact: verify ${JSON.stringify(before)}, product score ${await score(product)} against ${expectedProduct}`);

    console.log('timing the floors …');
    const floor = await floors(ws, subtree);
    console.log(`floors: answer ${seconds(floor.answerMs)}, clean-up ${seconds(floor.cleanMs)} (${JSON.stringify(floor.counts)})`);

    const answer = await timed(() => api('DELETE', `/entities/${product}`));
    const status = answer.result.status;
    check(status === 204, `DELETE /v2/entities/{product} answered ${status}${status === 204 ? '' : ` ${await answer.result.text()}`}`);
    if (status !== 204) throw new Error('The DELETE was not answered 204');
    check((await api('GET', `/entities/${product}`)).status === 404, 'GET of the deleted product: 404');

    console.log(`answered in ${seconds(answer.ms)}; sweeping …`);
    const clean = await timed(async () => {
      const total = { runs: 0, finished: 0, handedBack: 0, failed: 0 };
      for (; total.runs < 100;) {
        const r = await sweep({ workspace: ws, until: Date.now() + config.sweepChunkMs + 5000 });
        total.runs++;
        total.finished += r.finished;
        total.handedBack += r.handedBack;
        total.failed += r.failed;
        if (r.handedBack === 0 && r.failed === 0) break;
      }
      return total;
    });
    const verified = await verifyScores({ workspace: ws, repair: false });
    check(clean.result.finished === 1 && clean.result.failed === 0, `the sweep: ${JSON.stringify(clean.result)} (1 finished, none failed)`);
    check(verified.mismatches === 0 && verified.pending === 0, `score verify after the clean-up: ${JSON.stringify(verified)} (0 mismatches, 0 pending)`);
    const uuids = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
    const left = (await partitionItems(ws)).filter((it) => (JSON.stringify(it).match(uuids) ?? []).some((id) => subtree.has(id)));
    check(
      left.length === 0,
      `items naming an id of the subtree left in the table: ${left.length}${left.length ? ` (first: ${JSON.stringify(left[0]).slice(0, 300)})` : ''}`,
    );
    const scores = await Promise.all(keptIds.map(score));
    const wrong = keptIds.filter((id, i) => scores[i] !== (expectedKept.get(id) ?? 0));
    check(
      wrong.length === 0,
      `the remaining product and its ${KEPT_FEATURES} features score as the rule gives for the links left (product ${scores[0]}, expected ${expectedKept.get(kept)}; ${wrong.length} differ)`,
    );

    const rows = [
      { what: 'answer: DELETE → 204', ms: answer.ms, floor: floor.answerMs, boundMs: BOUNDS.answerMs, boundRatio: BOUNDS.answerRatio },
      { what: 'clean-up: sweep until nothing is handed back', ms: clean.ms, floor: floor.cleanMs, boundMs: BOUNDS.cleanMs, boundRatio: BOUNDS.cleanRatio },
    ].map((r) => ({ ...r, ratio: r.ms / r.floor, ok: r.ms <= r.boundMs && r.ms / r.floor <= r.boundRatio }));
    for (const r of rows) {
      check(
        r.ok,
        `${r.what}: ${seconds(r.ms)} (bound ${seconds(r.boundMs)}), ${r.ratio.toFixed(2)}× its floor of ${seconds(r.floor)} (bound ${r.boundRatio}×)`,
      );
    }
    const loadEnd = loadavg()[0]!;
    const c = floor.counts;
    await writeSection(
      'bench:delete',
      `## Subtree delete (\`npm run bench:delete\`)

Generated by \`npm run bench:delete\` (bench/delete.ts) on ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} CPUs (shared),
Node ${process.version}, load average ${loadStart.toFixed(1)} at the start and ${loadEnd.toFixed(1)} at the end${loadEnd > availableParallelism() ? ' (above the cores: the absolute times are inflated, the ratios less so)' : ''};
DynamoDB Local (in memory) and the local gateway in one process. ${((performance.now() - started) / 1000).toFixed(0)} s in all.

### Method

- Seeded through the store, not the API (${seconds(seeded.ms)}): the records of a restore
  (lib/store/move/kinds.ts) written in BatchWriteItem batches, the aggregates computed from them
  (lib/store/move/aggregates-fresh.ts), the entity items flagged \`hadChildren\` as the create
  endpoint leaves them. The deleted product: ${subtree.size - FEATURES - 1} components of up to ${FEATURES_PER_COMPONENT} features, **${FEATURES.toLocaleString('en-US')} features**;
  **${NOTES.toLocaleString('en-US')} notes**, each with one of ${CUSTOMERS} customers (companies), rate two of those features
  and one of the ${KEPT_FEATURES} features of a second product that stays, importances cycling through all five:
  ${c.links.toLocaleString('en-US')} links and ${c.ratings.toLocaleString('en-US')} rating items in the subtree. Checked exact before the delete (\`score verify\`, the product's score).
- Answer: \`DELETE /v2/entities/{product}\` over HTTP with an API token, timed to its answer (204
  expected: the ${c.entities.toLocaleString('en-US')} entities marked, lib/store/cascade.ts).
- Clean-up: \`sweep()\` (lib/store/sweep.ts) as the scheduled worker runs it, run after run until
  nothing is handed back (each run gives the delete one chunk, \`SWEEP_CHUNK_MS\` = ${config.sweepChunkMs / 1000} s).
- Checks: \`score verify\` 0 mismatches and 0 pending; no item of the table names an id of the
  subtree (entities, links, ratings, relations, the notes' link copies, tombstones, the pending
  work); the remaining product's and features' scores are the rule's for the links left.
- Floors, timed in the same run before the delete on copies of the same items under a partition
  of their own (index keys moved along), writes only: the answer's, the ${c.entities.toLocaleString('en-US')} entity items marked ${TOMBSTONES_PER_CHUNK} per
  TransactWriteItems with a tombstone-sized Put, one after another, as the marking sends them; the
  clean-up's, one Update per note taking its links out of its copy (${c.notes.toLocaleString('en-US')} notes) in transactions
  of ${MAX_TX_ITEMS} one after another (the emulator commits one at a time), then the links, ratings and entity items deleted by BatchWriteItem, ${FLOOR_PARALLEL} calls in flight.
- Bounds: the answer within the request budget (${BOUNDS.answerMs / 1000} s; past it the route answers 408 and the
  sweeper finishes) and ${BOUNDS.answerRatio}× its floor (the marking reads the children index level by level
  besides its writes); the clean-up within ${BOUNDS.cleanMs / 1000} s of sweep time (three of the sweeper's ${config.sweepChunkMs / 1000} s
  chunks; deployed it runs every minute, so the subtree is gone from the table within about three
  minutes) and ${BOUNDS.cleanRatio}× its floor (per entity it reads its links, and per group of chunks the entities, the workspace's relations and its ratings, besides its writes, and
  a note linked to entities of several groups of chunks — ten chunks of 99 entities a group — is updated once
  per group, where the floor updates it once).

### Figures

| | time | floor (same run) | × floor | bound | |
|---|---:|---:|---:|---|---|
${rows.map((r) => `| ${r.what} | ${seconds(r.ms)} | ${seconds(r.floor)} | ${r.ratio.toFixed(2)}× | ≤ ${r.boundMs / 1000} s and ≤ ${r.boundRatio}× | ${r.ok ? 'OK' : 'MISSED'} |`).join('\n')}

- The sweep: ${JSON.stringify(clean.result)}; \`score verify\` after it: ${JSON.stringify(verified)}.
- Items naming the subtree left: ${left.length}; remaining scores ${wrong.length === 0 ? 'exact' : `**${wrong.length} wrong**`} (product ${scores[0]}).`,
    );
  } finally {
    await stop();
  }
  if (failures.length > 0) {
    console.error(`MISSED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

await main().catch((err: unknown) => {
  console.error('MISSED:', err);
  process.exitCode = 1;
});
