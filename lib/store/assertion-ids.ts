// Used assertion `jti`s (RFC 7523 §3, replay protection). One item per (application, jti), written
// with a condition so that of two concurrent requests carrying one jti exactly one succeeds. The
// item outlives the assertion's own validity, after which `exp` refuses a replay anyway.
import { createHash } from 'node:crypto';
import { putItem } from './calls.ts';
import { isConditionFailed } from './errors.ts';
import * as keys from './keys.ts';
import { tableName } from './table.ts';

/**
 * Records a jti as used until `expiresAtEpoch` (seconds); false when it was already used.
 * The jti is stored hashed: it is client-chosen text and must not shape our keys.
 */
export async function useAssertionId(workspaceId: string, clientId: string, jti: string, expiresAtEpoch: number): Promise<boolean> {
  const hash = createHash('sha256').update(jti).digest('base64url');
  const now = Math.floor(Date.now() / 1000);
  try {
    await putItem({
      TableName: tableName(),
      Item: { ...keys.assertionId(workspaceId, clientId, hash), kind: 'assertionId', clientId, ttl: expiresAtEpoch },
      // TTL deletion is lazy: an item past its ttl no longer counts.
      ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :now',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':now': now },
    });
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}
