// BatchWriteItem and BatchGetItem for any number of keys: 25 writes or 100 reads per call (DynamoDB's limits), unprocessed
// requests (throttling) retried with backoff until none is left.
import type { BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGetOnce, batchWrite } from './calls.ts';
import { tableName } from './table.ts';

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
        let pending = batches[next++]!;
        for (let attempt = 0; pending.length > 0; attempt++) {
          if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** attempt)));
          const res = await batchWrite({ RequestItems: { [tableName()]: pending } });
          pending = res.UnprocessedItems?.[tableName()] ?? [];
        }
      }
    }),
  );
}

const GET_BATCH = 100;

/** Attributes a read returns; it must name pk and sk, by which the items found are keyed. */
export interface Projection {
  expression: string;
  names: Record<string, string>;
}

/**
 * Reads every key (100 per BatchGetItem, DynamoDB's limit; unprocessed keys retried with backoff,
 * never read as absent). Returns the items found by `pk|sk` (see itemKeyId).
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
    let pending: Array<Record<string, unknown>> = keys.slice(i, i + GET_BATCH).map((k) => ({ pk: k.pk, sk: k.sk }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === 8) throw new Error('BatchGetItem left keys unprocessed after 8 attempts');
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** attempt)));
      const res = await batchGetOnce(pending, read);
      for (const item of res.items) found.set(itemKeyId({ pk: String(item.pk), sk: String(item.sk) }), item);
      pending = res.unprocessed;
    }
  }
  return found;
}

/** A key as one string, `pk|sk`. */
export const itemKeyId = (k: { pk: string; sk: string }): string => `${k.pk}|${k.sk}`;

/** batchGetByKey's items in the order of `keys`, those not found left out. */
export async function batchGetAll(keys: ReadonlyArray<{ pk: string; sk: string }>, options: { consistent?: boolean } = {}): Promise<Array<Record<string, unknown>>> {
  const found = await batchGetByKey(keys, options);
  return keys.map((k) => found.get(itemKeyId(k))).filter((item): item is Record<string, unknown> => item !== undefined);
}
