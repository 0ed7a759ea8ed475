// The score aggregates of a workspace loaded raw (restore, `import productboard`), computed in one
// pass from what was written, by the rule lib/domain/score.ts states (the one verify and the writes
// apply): for each hierarchy entity its links (GSI2, with the customer each link was written with),
// the rating item of each (entity, customer), its own score, and the totals up the hierarchy. Meant
// for a workspace no one can reach yet: it writes whole items in batches, unconditioned.
//
// Memory: one map entry per hierarchy entity (parent, own, total) and one entity's links at a time.
// The links are read through an index, which DynamoDB fills a moment after the write: the pass
// counts the links it saw against those the table holds (to the hierarchy entities, read
// consistently: what was written, whoever counted it) and reads again until they agree.
import { setTimeout as sleep } from 'node:timers/promises';
import { loadedEntities } from './present.ts';
import { isHierarchyType } from '../../domain/hierarchy.ts';
import { ANONYMOUS_WEIGHT, countedWeight, WEIGHTS, type Importance, type RatingEntry } from '../../domain/score.ts';
import { ratingItem } from '../aggregates.ts';
import { batchWriteAll, type WriteRequest } from '../batch.ts';
import { queryPages, updateItem } from '../calls.ts';
import * as keys from '../keys.ts';
import { partitionPages } from '../query.ts';
import { QUIET_WRITE } from '../stream-records.ts';
import { tableName } from '../table.ts';

interface AggregateProgress {
  entities: number;
  of: number;
}

interface Node {
  parentId: string | undefined;
  own: number;
  total: number;
}

const PARALLEL = 8;

/** Runs `fn` over `items`, `parallel` at a time. */
async function each<T>(items: readonly T[], parallel: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** Every hierarchy entity of the workspace: its parent. */
async function hierarchy(ws: string): Promise<Map<string, Node>> {
  const nodes = new Map<string, Node>();
  for (const [id, e] of await loadedEntities(ws)) if (isHierarchyType(e.type)) nodes.set(id, { parentId: e.parentId, own: 0, total: 0 });
  return nodes;
}

/** The link items the table holds to the hierarchy entities `nodes` (an index shows no other). */
async function writtenLinks(ws: string, nodes: Map<string, Node>): Promise<number> {
  let n = 0;
  for await (const page of partitionPages(ws, keys.kindPrefix.link, ['entityId'])) {
    for (const it of page) if (nodes.has(it.entityId as string)) n++;
  }
  return n;
}

/** One entity's own score and rating items, from its links; answers how many links it read. */
async function own(ws: string, entityId: string, node: Node, writes: WriteRequest[]): Promise<number> {
  const ratings = new Map<string, Record<string, RatingEntry>>();
  let anonymous = 0;
  let links = 0;
  for await (const page of queryPages({
    TableName: tableName(),
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': keys.linksTo(ws, entityId) },
    ProjectionExpression: 'noteId, customerId, importance, setAt',
  })) {
    for (const l of page) {
      links++;
      const w = WEIGHTS[l.importance as Importance];
      if (w === undefined) continue;
      if (typeof l.customerId !== 'string') {
        anonymous += ANONYMOUS_WEIGHT;
        continue;
      }
      const entries = ratings.get(l.customerId) ?? {};
      entries[l.noteId as string] = { w, at: Number(l.setAt) };
      ratings.set(l.customerId, entries);
    }
  }
  node.own = anonymous;
  for (const [customerId, entries] of ratings) {
    const weight = countedWeight(entries);
    node.own += weight;
    writes.push({ PutRequest: { Item: ratingItem(ws, { entityId, customerId, entries, weight, ver: 1 }) } });
  }
  return links;
}

/**
 * Computes and writes every aggregate of `ws`: rating items, and `own` and `total` of each
 * hierarchy entity, once the links index shows every link the table holds. `quiet` marks the
 * entity updates so they make no score events.
 */
export async function aggregateLoadedWorkspace(
  ws: string,
  options: { quiet: string; progress?: (p: AggregateProgress) => void },
): Promise<{ entities: number; ratings: number }> {
  const nodes = await hierarchy(ws);
  const ids = [...nodes.keys()];
  const links = await writtenLinks(ws, nodes);
  let ratings = 0;
  for (let attempt = 0; ; attempt++) {
    let seen = 0;
    let done = 0;
    ratings = 0;
    await each(ids, PARALLEL, async (id) => {
      const writes: WriteRequest[] = [];
      const read = await own(ws, id, nodes.get(id)!, writes);
      seen += read;
      ratings += writes.length;
      await batchWriteAll(writes);
      options.progress?.({ entities: ++done, of: ids.length });
    });
    if (seen >= links) break;
    if (attempt === 10) throw new Error(`The links index shows ${seen} of the ${links} links written; run the command again later.`);
    await sleep(500 * (attempt + 1));
  }
  // Totals: each entity's own added to it and every ancestor (the depth is capped, so this is short).
  for (const [, n] of nodes) n.total = 0;
  for (const [, n] of nodes) {
    n.total += n.own;
    for (let p = n.parentId, hops = 0; p !== undefined && hops < 64; hops++) {
      const a = nodes.get(p);
      if (!a) break;
      a.total += n.own;
      p = a.parentId;
    }
  }
  await each(
    ids.filter((id) => nodes.get(id)!.total !== 0),
    PARALLEL * 2,
    async (id) => {
      const n = nodes.get(id)!;
      await updateItem({
        TableName: tableName(),
        Key: keys.entity(ws, id),
        UpdateExpression: 'SET #own = :own, #total = :total, #quiet = :quiet',
        ExpressionAttributeNames: { '#own': 'own', '#total': 'total', '#quiet': QUIET_WRITE },
        // A mark of its own: this write too is the run's, and makes no customer-score event.
        ExpressionAttributeValues: { ':own': n.own, ':total': n.total, ':quiet': `${options.quiet}#aggregates` },
      });
    },
  );
  return { entities: ids.length, ratings };
}
