// BatchWriteItem for any number of puts and deletes: 25 per call (DynamoDB's limit), unprocessed
// requests (throttling) retried with backoff until none is left; BatchGetItem likewise, 100 per call.
import { BatchGetCommand, BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import type { ItemKey } from './keys.ts';

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
          const res = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
          pending = res.UnprocessedItems?.[tableName()] ?? [];
        }
      }
    }),
  );
}

const GET_BATCH = 100;

/** Consistent reads of any number of items, 100 per BatchGetItem; unprocessed keys retried with backoff. Items in no particular order. */
export async function batchGetAll(wanted: ItemKey[], options: { projection?: string; names?: Record<string, string> } = {}): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  const batches: ItemKey[][] = [];
  for (let i = 0; i < wanted.length; i += GET_BATCH) batches.push(wanted.slice(i, i + GET_BATCH));
  await Promise.all(
    batches.map(async (batch) => {
      let pending: Array<Record<string, unknown>> = batch;
      for (let attempt = 0; pending.length > 0; attempt++) {
        // A key never read must not read as absent.
        if (attempt === 8) throw new Error('BatchGetItem left keys unprocessed after 8 attempts');
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** attempt)));
        const { Responses, UnprocessedKeys } = await db().send(
          new BatchGetCommand({
            RequestItems: {
              [tableName()]: {
                Keys: pending,
                ConsistentRead: true,
                ...(options.projection ? { ProjectionExpression: options.projection, ExpressionAttributeNames: options.names } : {}),
              },
            },
          }),
        );
        out.push(...(Responses?.[tableName()] ?? []));
        pending = UnprocessedKeys?.[tableName()]?.Keys ?? [];
      }
    }),
  );
  return out;
}
