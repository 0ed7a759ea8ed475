// BatchWriteItem and BatchGetItem for any number of keys: 25 writes or 100 reads per call (DynamoDB's
// limits). What a call leaves unprocessed (DynamoDB's answer to throttling) is sent again by the one
// helper every batch caller uses, untilProcessed: bounded, jittered, within the request's deadline.
import type { BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGetOnce, batchWrite, THROTTLED } from './calls.ts';
import { Contention } from './errors.ts';
import { tableName } from './table.ts';
import { deadlineOf } from '../deadline.ts';

/**
 * Sends `pending` with `send`, which answers what it left unprocessed, and sends that again until
 * nothing is left: at most `attempts` calls, full jitter over `baseMs` × 2^retry (at most `maxMs`)
 * between them, and no wait that would end within `reserveMs` of the request's deadline
 * (lib/deadline.ts; outside a request, one request budget from the first call).
 */
export const UNPROCESSED = { attempts: 8, baseMs: 25, maxMs: 1000, reserveMs: 250 };

/**
 * Sends `pending` until DynamoDB has processed all of it, as UNPROCESSED says; then Contention
 * (429 with Retry-After), never an error that reads as a fault, and never a key read as absent
 * because it was not read.
 */
export async function untilProcessed<T>(label: string, pending: T[], send: (items: T[]) => Promise<T[]>): Promise<void> {
  const deadline = deadlineOf(Date.now());
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > 1) {
      const delay = Math.random() * Math.min(UNPROCESSED.maxMs, UNPROCESSED.baseMs * 2 ** (attempt - 1));
      if (attempt > UNPROCESSED.attempts || deadline - Date.now() - delay < UNPROCESSED.reserveMs) {
        throw new Contention(label, THROTTLED, attempt - 1, 1, new Error(`${pending.length} requests left unprocessed after ${attempt - 1} calls`));
      }
      await new Promise((r) => setTimeout(r, delay));
    }
    pending = await send(pending);
  }
}

/** One request of a BatchWriteItem: a put or a delete. */
export type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

const BATCH = 25;

/** Writes every request, running up to `parallel` batches at once. Not atomic: for repairs and clean-ups. */
export async function batchWriteAll(requests: WriteRequest[], parallel = 1): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH) batches.push(requests.slice(i, i + BATCH));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, batches.length) }, async () => {
      while (next < batches.length) {
        await untilProcessed('BatchWriteItem', batches[next++]!, async (pending) => {
          const res = await batchWrite({ RequestItems: { [tableName()]: pending } });
          return res.UnprocessedItems?.[tableName()] ?? [];
        });
      }
    }),
  );
}

const GET_BATCH = 100;

/** Attributes a read returns; it must name pk and sk, by which the items found are keyed. */
interface Projection {
  expression: string;
  names: Record<string, string>;
}

/**
 * Reads every key (100 per BatchGetItem, DynamoDB's limit; unprocessed keys retried by
 * untilProcessed, never read as absent). Returns the items found by `pk|sk` (see itemKeyId).
 */
export async function batchGetByKey(
  keys: ReadonlyArray<{ pk: string; sk: string }>,
  options: { consistent?: boolean; projection?: Projection } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const read = {
    ...(options.consistent ? { ConsistentRead: true } : {}),
    ...(options.projection ? { ProjectionExpression: options.projection.expression, ExpressionAttributeNames: options.projection.names } : {}),
  };
  const found = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < keys.length; i += GET_BATCH) {
    await untilProcessed(
      'BatchGetItem',
      keys.slice(i, i + GET_BATCH).map((k): Record<string, unknown> => ({ pk: k.pk, sk: k.sk })),
      async (pending) => {
        const res = await batchGetOnce(pending, read);
        for (const item of res.items) found.set(itemKeyId({ pk: String(item.pk), sk: String(item.sk) }), item);
        return res.unprocessed;
      },
    );
  }
  return found;
}

/** A key as one string, `pk|sk`. */
export const itemKeyId = (k: { pk: string; sk: string }): string => `${k.pk}|${k.sk}`;

/** batchGetByKey's items in the order of `keys`, those not found left out. */
export async function batchGetAll(
  keys: ReadonlyArray<{ pk: string; sk: string }>,
  options: { consistent?: boolean } = {},
): Promise<Array<Record<string, unknown>>> {
  const found = await batchGetByKey(keys, options);
  return keys.map((k) => found.get(itemKeyId(k))).filter((item): item is Record<string, unknown> => item !== undefined);
}
