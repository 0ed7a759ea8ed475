// The customer demand behind a plan (lib/domain/demand.ts has the rule), read exactly at a point in
// time. Its cost grows with the number of linked entities, never with their subtrees: every linked
// product hierarchy entity carries its subtree's score (`total`, kept by lib/store/aggregates.ts),
// so the read is
//   1. the planning entity (its `linkRev`: how many times its links changed),
//   2. its links: one consistent Query of its relation items,
//   3. one TransactGetItems of the planning entity, the linked entities and their ancestors (known
//      from the placement cache of lib/store/chains.ts, else learnt from a first snapshot and read
//      again): every item as of one moment, so the scores and the places that decide which
//      entities count are of the same instant.
// The snapshot's `linkRev` equal to step 1's proves the links of step 2 are those of the snapshot
// (every link change on the entity bumps it in its own transaction); otherwise the read starts
// again. A snapshot that lacks an ancestor (an entity moved since the cache learnt its place) is
// read again with it. A transaction in flight on one of the items cancels the TransactGetItems
// (TransactionConflict): retried with backoff within the request's deadline, then Contention.
// Above 100 items — DynamoDB's limit for one TransactGetItems — the items are read by consistent
// BatchGetItem instead: each item is exact as read, but the reads are not one snapshot
// (`pointInTime: false`).
import { setTimeout as sleep } from 'node:timers/promises';
import { batchGetByKey, itemKeyId } from './batch.ts';
import { transactGet } from './calls.ts';
import { cachedAncestors, remember } from './chains.ts';
import { isEntityItem, readEntityItem, toEntity, type EntityItem } from './entities.ts';
import { Contention } from './errors.ts';
import * as keys from './keys.ts';
import type { Prereads } from './preread.ts';
import { partitionItems, type StoredItem } from './query.ts';
import { scoreOfTotal } from './score.ts';
import { tableName } from './table.ts';
import { backoffMs, isRetryable, MAX_TX_ITEMS, RETRY } from './tx.ts';
import { deadlineOf } from '../deadline.ts';
import { demandOf, isDemandType, type Demand, type PlacedEntity } from '../domain/demand.ts';
import { isHierarchyType } from '../domain/hierarchy.ts';

interface DemandRead extends Demand {
  entity: EntityItem;
  /** The live linked entities as the snapshot read them (their totals are their scores). */
  linked: EntityItem[];
  /** True when every item was read in one TransactGetItems (up to 100 items): the sum is of one moment. */
  pointInTime: boolean;
}

/** What a read of the snapshot's ids found: each id's item, or null when it has none. */
type Snapshot = Map<string, EntityItem | null>;

/** The ids of the product hierarchy entities `id` is linked to (consistent). */
async function linkedIds(ws: string, id: string): Promise<string[]> {
  const items = await partitionItems(ws, keys.relationsOfPrefix(id, 'link'), ['targetId', 'targetType']);
  return items.filter((it) => isHierarchyType(it.targetType)).map((it) => String(it.targetId));
}

const entityOf = (item: StoredItem | undefined): EntityItem | null => (isEntityItem(item) ? toEntity(item) : null);

/** One TransactGetItems of the entities `ids` (at most 100): every item as of one moment. */
async function snapshot(ws: string, ids: readonly string[]): Promise<Snapshot> {
  const out = await transactGet({ TransactItems: ids.map((id) => ({ Get: { TableName: tableName(), Key: keys.entity(ws, id) } })) });
  const responses = out.Responses ?? [];
  return new Map(ids.map((id, i) => [id, entityOf(responses[i]?.Item)]));
}

/** Consistent BatchGetItem reads of the entities `ids`: each item exact as read, the reads not one moment. */
async function separateReads(ws: string, ids: readonly string[]): Promise<Snapshot> {
  const found = await batchGetByKey(
    ids.map((id) => keys.entity(ws, id)),
    { consistent: true },
  );
  return new Map(ids.map((id) => [id, entityOf(found.get(itemKeyId(keys.entity(ws, id))))]));
}

const placed = (e: EntityItem): PlacedEntity => ({
  id: e.id,
  type: e.type,
  parentId: e.parentId,
  score: scoreOfTotal(e.total),
  deleting: e.deleting !== undefined,
});

/**
 * The demand of the planning entity `id`, or undefined when it is no live initiative, objective,
 * key result or release. `preread`: the items the request's authentication read with it;
 * `until`: the request's deadline.
 */
export async function readDemand(ws: string, id: string, preread?: Prereads, until?: number): Promise<DemandRead | undefined> {
  const deadline = deadlineOf(Date.now(), until);
  let conflicts = 0;
  let lastConflict: unknown;
  const contended = () => new Contention('readDemand', `the links of entity ${id}`, conflicts, Math.ceil(RETRY.maxDelayMs / 1000), lastConflict);
  for (let round = 0; ; round++) {
    // Links that keep changing under the read: refuse while there is time to answer.
    if (round > 0 && deadline - Date.now() < RETRY.reserveMs) throw contended();
    const plan = await readEntityItem(ws, id, round === 0 ? preread : undefined);
    if (!plan || plan.deleting || !isDemandType(plan.type)) return undefined;
    const linked = await linkedIds(ws, id);
    const ids = new Set([id, ...linked, ...linked.flatMap((l) => cachedAncestors(ws, l))]);
    for (;;) {
      const oneMoment = ids.size <= MAX_TX_ITEMS;
      const started = Date.now();
      let read: Snapshot;
      try {
        read = oneMoment ? await snapshot(ws, [...ids]) : await separateReads(ws, [...ids]);
      } catch (err) {
        if (!isRetryable(err)) throw err;
        // A write transaction in flight on one of the items: wait and read again, while time allows.
        lastConflict = err;
        const delay = backoffMs(++conflicts, Date.now() - started);
        if (deadline - Date.now() - delay < RETRY.reserveMs) throw contended();
        await sleep(delay);
        continue;
      }
      const self = read.get(id);
      if (!self || self.deleting) return undefined;
      // Its links changed since they were listed: list them again.
      if ((self.linkRev ?? 0) !== (plan.linkRev ?? 0)) break;
      const found = demandOf(linked, (x) => {
        const e = read.get(x);
        return e === undefined ? undefined : e && placed(e);
      });
      if ('missing' in found) {
        for (const m of found.missing) ids.add(m);
        continue;
      }
      for (const l of found.counted) remember(ws, chainOf(read, l));
      return { ...found, entity: self, linked: found.live.map((l) => read.get(l)!), pointInTime: oneMoment };
    }
  }
}

/** A counted entity and its ancestors as the snapshot holds them (all present and live). */
function chainOf(read: Snapshot, id: string): EntityItem[] {
  const chain: EntityItem[] = [];
  for (let e = read.get(id); e; e = e.parentId === undefined ? undefined : read.get(e.parentId)) chain.push(e);
  return chain;
}
