// The jti store against DynamoDB Local: single use, atomic under concurrency, lazy TTL honoured.
import { createHash, randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { useAssertionId } from '#lib/store/assertion-ids.ts';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';

const nowS = () => Math.floor(Date.now() / 1000);

describe('assertion ids (jti)', () => {
  it('a jti is usable once; the item carries the TTL it was given, under the workspace, keyed by a hash of the jti', async () => {
    const ws = randomUUID();
    const client = randomUUID();
    const exp = nowS() + 90;
    expect(await useAssertionId(ws, client, 'abc', exp)).toBe(true);
    expect(await useAssertionId(ws, client, 'abc', exp)).toBe(false);
    const hash = createHash('sha256').update('abc').digest('base64url');
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.assertionId(ws, client, hash), ConsistentRead: true }));
    expect(Item).toEqual({ ...keys.assertionId(ws, client, hash), kind: 'assertionId', clientId: client, ttl: exp });
  });

  it('a record whose TTL has passed (not yet swept by DynamoDB) no longer blocks the jti', async () => {
    const ws = randomUUID();
    const client = randomUUID();
    expect(await useAssertionId(ws, client, 'old', nowS() - 5)).toBe(true);
    expect(await useAssertionId(ws, client, 'old', nowS() + 60)).toBe(true);
    expect(await useAssertionId(ws, client, 'old', nowS() + 60)).toBe(false);
  });

  it('20 concurrent uses of one jti: exactly one succeeds', async () => {
    const ws = randomUUID();
    const client = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => useAssertionId(ws, client, 'race', nowS() + 60)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('an injection-shaped or very long jti is only ever a hash in the key', async () => {
    const ws = randomUUID();
    const client = randomUUID();
    const jti = `#JTI#${'x'.repeat(250)}`;
    expect(await useAssertionId(ws, client, jti, nowS() + 60)).toBe(true);
    expect(await useAssertionId(ws, client, jti, nowS() + 60)).toBe(false);
  });
});
