// TransactWriteItems with retry. A transaction is built from fresh reads on every attempt, so a
// failed condition (the hierarchy or a rating moved underneath) or a conflict with a concurrent
// transaction is handled by re-reading and rebuilding; the rebuild also re-validates (a NotFound or
// Conflict found on a later attempt is thrown as such). Backoff is exponential with full jitter,
// attempts are capped, and when the budget is spent the caller gets TransactionRetriesExhausted:
// nothing was written.
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import { TransactionRetriesExhausted } from './errors.ts';

export type TxItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit of items per transaction. */
export const MAX_TX_ITEMS = 100;

export const RETRY = { attempts: 10, baseDelayMs: 15, maxDelayMs: 800 };

const RETRYABLE_ERRORS = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
  'TransactionConflictException',
  'InternalServerError',
]);
const RETRYABLE_REASONS = new Set(['ConditionalCheckFailed', 'TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/** Whether a failed TransactWriteItems may succeed when rebuilt from fresh reads. */
export function isRetryable(err: unknown): boolean {
  const e = err as { name?: string; CancellationReasons?: Array<{ Code?: string }> };
  if (e?.name === 'TransactionCanceledException') {
    const codes = (e.CancellationReasons ?? []).map((r) => r.Code ?? 'None').filter((c) => c !== 'None');
    return codes.length > 0 && codes.every((c) => RETRYABLE_REASONS.has(c));
  }
  return RETRYABLE_ERRORS.has(e?.name ?? '');
}

/** The randomness and the wait of the backoff; replaceable so a test can observe the schedule. */
export const BACKOFF = {
  random: Math.random,
  sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
};
/** Full jitter: uniform in [0, min(max, base × 2^attempt)). */
export const backoffMs = (attempt: number) => BACKOFF.random() * Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 2 ** attempt);

/**
 * Runs `build` (which reads what it needs and returns the items, or nothing when there is nothing to
 * do) and writes its items in one transaction, retrying as described above. Returns build's value.
 */
export async function transact<T>(label: string, build: (attempt: number) => Promise<{ items: TxItem[]; result: T }>): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < RETRY.attempts; attempt++) {
    if (attempt > 0) await BACKOFF.sleep(backoffMs(attempt));
    const { items, result } = await build(attempt);
    if (items.length === 0) return result;
    if (items.length > MAX_TX_ITEMS) throw new Error(`${label}: ${items.length} items exceed one transaction`);
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return result;
    } catch (err) {
      if (!isRetryable(err)) throw err;
      lastError = err;
    }
  }
  throw new TransactionRetriesExhausted(label, RETRY.attempts, lastError);
}
