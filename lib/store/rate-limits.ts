// Per-token fixed one-second windows, counted in the table so every function instance agrees.
// One counter item per token and second; DynamoDB's TTL removes it two minutes later.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';

/** Counts one request of `tokenId` in the current second; returns the count so far (this one included). */
export async function countRequest(tokenId: string, now = Date.now()): Promise<number> {
  const second = Math.floor(now / 1000);
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.rateWindow(tokenId, second),
      UpdateExpression: 'ADD n :one SET #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':ttl': second + 120 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number((Attributes as { n?: number } | undefined)?.n ?? 1);
}
