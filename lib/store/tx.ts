// TransactWriteItems with retry. A transaction is built from fresh reads on every attempt, so a
// failed condition (the hierarchy or a rating moved underneath) or a conflict with a concurrent
// transaction is handled by re-reading and rebuilding; the rebuild also re-validates (a NotFound or
// Conflict found on a later attempt is thrown as such). Retries are bounded by time, not by count:
// exponential backoff with full jitter ("Exponential Backoff And Jitter", AWS Architecture Blog)
// for as long as the request's deadline (lib/deadline.ts: the caller's `until`, else the request
// scope's) leaves room for one more attempt; then the caller gets Contention naming the contended
// item: nothing was written. Each attempt is one call of ./calls.ts, so the request's abort signal
// also cuts off an attempt in flight at the deadline.
import { transactWrite, txItemKey, type TxItem } from './calls.ts';
import { Contention, StaleChain } from './errors.ts';
import { describeKey } from './keys.ts';
import { deadlineOf } from '../deadline.ts';

export type { TxItem };

/** DynamoDB's limit of items per transaction. */
export const MAX_TX_ITEMS = 100;

/**
 * Backoff bounds, and the time kept in hand at the deadline: no attempt starts unless it leaves at
 * least `reserveMs` (or twice the slowest attempt so far) before the deadline, so the refusal is
 * answered before the request times out.
 */
export const RETRY = { baseDelayMs: 10, maxDelayMs: 1000, reserveMs: 250 };

const RETRYABLE_ERRORS = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
  'TransactionConflictException',
  'InternalServerError',
]);
const RETRYABLE_REASONS = new Set([
  'ConditionalCheckFailed',
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
]);

type Failure = { name?: string; CancellationReasons?: Array<{ Code?: string }> };

/** Whether a failed TransactWriteItems may succeed when rebuilt from fresh reads. */
export function isRetryable(err: unknown): boolean {
  const e = err as Failure;
  if (e?.name === 'TransactionCanceledException') {
    const codes = (e.CancellationReasons ?? []).map((r) => r.Code ?? 'None').filter((c) => c !== 'None');
    return codes.length > 0 && codes.every((c) => RETRYABLE_REASONS.has(c));
  }
  return RETRYABLE_ERRORS.has(e?.name ?? '');
}

/** The item a cancelled transaction failed on, in the API's words; throttling names the workspace's table. */
function contendedResource(items: TxItem[], err: unknown): string {
  const reasons = (err as Failure)?.CancellationReasons;
  // Still waiting for its turn (lib/store/queue.ts) when time ran out: the first item it writes.
  const index = err === undefined ? 0 : (reasons ?? []).findIndex((r) => r.Code !== undefined && r.Code !== 'None');
  if (index < 0) return 'this workspace (the table is throttling writes)';
  const item = items[index];
  return describeKey(item && txItemKey(item));
}

/** A retry after the longest backoff has a fair chance. */
const retryAfterS = () => Math.max(1, Math.ceil(RETRY.maxDelayMs / 1000));
/** On the global timer, unlike node:timers/promises, so a faked clock (test/score/faults.test.ts) drives the backoff. */
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/**
 * Full jitter over a window that doubles with each attempt, starting from the slower of the base and
 * the attempt's own duration: when attempts are slow (a busy table) the contenders spread over
 * proportionally wider windows instead of colliding again.
 */
export const backoffMs = (attempt: number, attemptMs = 0) =>
  Math.random() * Math.min(RETRY.maxDelayMs, Math.max(RETRY.baseDelayMs, attemptMs) * 2 ** (attempt - 1));

/**
 * Runs `build` (which reads what it needs and returns the items, or nothing when there is nothing to
 * do) and writes its items in one transaction, retrying as described above. Returns build's value.
 * `until`: the request's deadline (lib/deadline.ts), when it runs within one.
 */
export async function transact<T>(label: string, build: (attempt: number) => Promise<{ items: TxItem[]; result: T }>, until?: number): Promise<T> {
  const deadline = deadlineOf(Date.now(), until);
  let slowestMs = 0;
  let lastError: unknown;
  for (let attempt = 0; ; attempt++) {
    const started = Date.now();
    let built: Awaited<ReturnType<typeof build>>;
    try {
      built = await build(attempt);
    } catch (err) {
      // Reads that disagree (a cached chain that a move made stale): rebuild from fresh reads.
      if (!(err instanceof StaleChain)) throw err;
      if (deadline - Date.now() < RETRY.reserveMs) throw new Contention(label, `entity ${err.entityId}`, attempt + 1, retryAfterS(), err);
      lastError = err;
      continue;
    }
    const { items, result } = built;
    if (items.length === 0) return result;
    if (items.length > MAX_TX_ITEMS) throw new Error(`${label}: ${items.length} items exceed one transaction`);
    // Time for this attempt to answer either way? Otherwise refuse now, before sending anything.
    if (deadline - Date.now() < Math.max(RETRY.reserveMs, 2 * slowestMs)) {
      throw new Contention(label, contendedResource(items, lastError), attempt, retryAfterS(), lastError);
    }
    try {
      await transactWrite({ TransactItems: items });
      return result;
    } catch (thrown) {
      // Throttling that outlasted the SDK's retries comes as Contention (./calls.ts): retried here too while time is left.
      const err = thrown instanceof Contention ? thrown.cause : thrown;
      if (!isRetryable(err)) throw thrown;
      lastError = err;
      const took = Date.now() - started;
      slowestMs = Math.max(slowestMs, took);
      const delay = backoffMs(attempt + 1, took);
      // No attempt that could not finish in time: refuse while there is time to answer.
      if (deadline - Date.now() - delay < Math.max(RETRY.reserveMs, 2 * slowestMs)) {
        throw new Contention(label, contendedResource(items, err), attempt + 1, retryAfterS(), err);
      }
      await sleep(delay);
    }
  }
}
