// The record of an Idempotency-Key's first use (lib/domain/idempotency.ts), written in the same
// transaction as the request's effect, so a crash cannot keep one without the other. The pipeline
// sets the claim of a POST that carries a key on its request, which the handler passes to the
// store's writes (their WriteScope); they write through `transactOnce` or `writeOnce`, which read
// the record first: within the window, the same request gets the stored result and nothing is
// written, another request is refused. The first write of the request takes the claim; later writes
// of the same request (the steps of a large note) are plain. The window is checked against the
// record's `firstAt`, never left to the table's TTL (it deletes late): `ttl` only cleans up.
import { setTimeout as sleep } from 'node:timers/promises';
import { getItem } from './calls.ts';
import { Unfinished } from './errors.ts';
import * as keys from './keys.ts';
import { prereadFor, type ReadAhead } from './preread.ts';
import { tableName } from './table.ts';
import { RETRY, transact, type TxItem } from './tx.ts';
import { deadlineOf } from '../deadline.ts';
import { IDEMPOTENCY_WINDOW_MS, keyReused, recordName, withinWindow } from '../domain/idempotency.ts';

/** A request that carries an Idempotency-Key. */
export interface Claim {
  ws: string;
  /** Who sent it and to which operation: a key names a request of one member on one operation. */
  scope: string;
  key: string;
  fingerprint: string;
  /** Of the operation and its path parameters alone: says whether a reused key names another path or another body. */
  target: string;
  /** Set by the write that took the claim. */
  taken?: boolean;
  /** Set when that write answered the first use's result instead of writing. */
  replayed?: boolean;
  /** Items read with the credential, maybe the record: taken by the first read of the record only. */
  preread?: ReadAhead | undefined;
}

/** What a store write needs of the request it serves (an ApiRequest is one): its deadline (lib/deadline.ts) and claim. */
export interface WriteScope {
  deadline?: number | undefined;
  claim?: Claim | undefined;
}

/** The request's claim, unless a write of the request already took it. */
function openClaim(scope: WriteScope | undefined): Claim | undefined {
  const claim = scope?.claim;
  return claim && !claim.taken ? claim : undefined;
}

/**
 * What the record says of this request: the first result to replay, or the time of an expired use
 * to overwrite (`prefetched`: as read with the credential, so maybe older than a duplicate's commit).
 */
async function earlierUse(claim: Claim, now: number): Promise<{ replay: unknown; steps: boolean } | { expiredAt?: number; prefetched?: true }> {
  const key = recordKey(claim);
  // Read with the credential, for the first attempt; a rebuild must see a record written since.
  const prefetched = prereadFor(claim.preread, key);
  claim.preread = undefined;
  const { Item } = prefetched ?? (await getItem({ TableName: tableName(), Key: key, ConsistentRead: true }));
  const seen = prefetched ? { prefetched: true as const } : {};
  if (!Item) return seen;
  const firstAt = Item.firstAt as number;
  if (!withinWindow(firstAt, now)) return { expiredAt: firstAt, ...seen };
  // A record written before targets were kept says only that the request differs: as a body.
  if (Item.fingerprint !== claim.fingerprint) throw keyReused(Item.target !== undefined && Item.target !== claim.target ? 'path' : 'body');
  return { replay: Item.result, steps: Item.steps === true };
}

/** The key of the record of `key` used by `scope` (a Claim's). */
const idempotencyRecordKey = (ws: string, scope: string, key: string) => keys.idempotency(ws, recordName(scope, key));

const recordKey = (claim: Claim) => idempotencyRecordKey(claim.ws, claim.scope, claim.key);

/**
 * The record's Put. Conditioned on the record as read (none, or the expired use), so of two
 * requests in flight with one key only one commits; the other's rebuild finds its result.
 */
function recordPut(claim: Claim, result: unknown, now: number, expiredAt: number | undefined, steps = false): TxItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...recordKey(claim),
        kind: 'idempotency',
        fingerprint: claim.fingerprint,
        target: claim.target,
        firstAt: now,
        result,
        // The effect goes on in steps after this transaction: a replay asks whether they are done.
        ...(steps ? { steps: true } : {}),
        ttl: Math.ceil((now + IDEMPOTENCY_WINDOW_MS) / 1000),
      },
      ...(expiredAt === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'firstAt = :seen', ExpressionAttributeValues: { ':seen': expiredAt } }),
    },
  };
}

/** One more item than the effect's: what a transaction built for `transactOnce` must leave room for. */
export const RECORD_ITEMS = 1;

/**
 * Whether the effect of a first result is still being completed (the steps of a large note, by its
 * request or by the sweeper after it): what its request's 408 said, or undefined once it is whole.
 */
type UnderWay<T> = (first: T) => Promise<string | undefined>;

/**
 * A duplicate answers the first result only once its effect is whole: it waits for the steps, within
 * its own deadline, and then answers what the first request's 408 said.
 */
async function whole<T>(first: T, underWay: UnderWay<T> | undefined, deadline: number): Promise<T> {
  if (!underWay) return first;
  for (let waitMs = 50; ; waitMs = Math.min(2 * waitMs, 1_000)) {
    const detail = await underWay(first);
    if (detail === undefined) return first;
    if (deadline - Date.now() - waitMs < RETRY.reserveMs) throw new Unfinished(detail);
    await sleep(waitMs);
  }
}

/**
 * transact() (lib/store/tx.ts) for the effect of a request that may carry a key: each attempt reads
 * the record before building, replays a first result, or adds the record to the transaction (also
 * when the effect itself writes nothing). A duplicate in flight that committed first fails this
 * one's condition; the rebuild then replays its result. A build whose effect goes on in steps after
 * its transaction says so (`steps`); `underWay` tells whether a first result's steps are still to come.
 */
export async function transactOnce<T>(
  label: string,
  build: (attempt: number) => Promise<{ items: TxItem[]; result: T; steps?: boolean }>,
  scope?: WriteScope,
  underWay?: UnderWay<T>,
): Promise<T> {
  const claim = openClaim(scope);
  if (!claim) return transact(label, build, scope?.deadline);
  const outcome = await transact(
    label,
    async (attempt): Promise<{ items: TxItem[]; result: { replayed: T; steps: boolean } | { made: T } }> => {
      const now = Date.now();
      const before = await earlierUse(claim, now);
      if ('replay' in before) return { items: [], result: { replayed: before.replay as T, steps: before.steps } };
      let built: { items: TxItem[]; result: T; steps?: boolean };
      try {
        built = await build(attempt);
      } catch (err) {
        // A record read with the credential may predate a duplicate in flight whose effect the build
        // now refuses (its link: 409): the record as it is now decides.
        const after = before.prefetched ? await earlierUse(claim, Date.now()) : undefined;
        if (after && 'replay' in after) return { items: [], result: { replayed: after.replay as T, steps: after.steps } };
        throw err;
      }
      const { items, result, steps } = built;
      return { items: [...items, recordPut(claim, result, now, before.expiredAt, steps)], result: { made: result } };
    },
    scope?.deadline,
  );
  claim.taken = true;
  if ('made' in outcome) return outcome.made;
  claim.replayed = true;
  return outcome.steps ? whole(outcome.replayed, underWay, deadlineOf(Date.now(), scope?.deadline)) : outcome.replayed;
}

/**
 * For a create written by other means than transact() (one TransactWriteItems of its own): `write`
 * receives the record's Put, or undefined without a claim, and must send it in its transaction.
 * When the write fails, a duplicate in flight may have taken the key: its result is the answer.
 */
export async function writeOnce<T>(result: T, write: (record: TxItem | undefined) => Promise<void>, scope?: WriteScope): Promise<T> {
  const claim = openClaim(scope);
  if (!claim) {
    await write(undefined);
    return result;
  }
  claim.taken = true;
  const now = Date.now();
  const before = await earlierUse(claim, now);
  if (!('replay' in before)) {
    try {
      await write(recordPut(claim, result, now, before.expiredAt));
      return result;
    } catch (err) {
      const after = await earlierUse(claim, Date.now());
      if (!('replay' in after)) throw err;
      claim.replayed = true;
      return after.replay as T;
    }
  }
  claim.replayed = true;
  return before.replay as T;
}
