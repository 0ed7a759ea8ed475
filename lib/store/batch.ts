// BatchWriteItem for any number of puts and deletes: 25 per call (DynamoDB's limit), unprocessed
// requests (throttling) retried with backoff until none is left.
import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';

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
