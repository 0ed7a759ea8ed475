// The store's call layer (lib/store/calls.ts): every DynamoDB call through the SDK's document client,
// as deployed. Against DynamoDB Local, what the store reads of an answer — items, pages, unprocessed
// requests, failures by name. Then the faults the emulator never produces, injected on the wire by a
// proxy in front of it (test/support/fault-proxy.ts), so the retries and timeouts under test are the
// client's own: throttling, a 500, a proxy's HTML 502, a reset connection, a hang, an answer lost after
// the table applied the call, unprocessed batch items.
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CALL_BOUNDS } from '#lib/aws-clients.ts';
import { batchGetByKey, batchWriteAll, UNPROCESSED } from '#lib/store/batch.ts';
import {
  batchGetOnce,
  batchWrite,
  getItem,
  putItem,
  queryPage,
  queryPages,
  scanPages,
  transactWrite as transact,
  updateItem,
  type TxItem,
} from '#lib/store/calls.ts';
import { db, tableName } from '#lib/store/client.ts';
import { Contention, isCancellation, isConditionFailed, RecordFull } from '#lib/store/errors.ts';
import * as keys from '#lib/store/keys.ts';
import { FAULTS, startFaultProxy, type FaultProxy } from '../support/fault-proxy.ts';

const pk = () => `CALLS#${randomUUID()}`;
const transactWrite = (items: TxItem[]) => transact({ TransactItems: items });
const caught = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: unknown) => err,
  );
const read = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

describe('the store’s calls on DynamoDB Local', () => {
  it('a transaction commits its items as they read back: nested maps, lists, sets and numbers', async () => {
    const key = { pk: pk(), sk: 'A' };
    const item = { ...key, name: 'n', score: 12.5, tags: new Set(['x', 'y']), nested: { list: [1, 'two', { three: true }], empty: null } };
    await transactWrite([
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: tableName(),
          Key: { pk: key.pk, sk: 'B' },
          UpdateExpression: 'ADD #n :one',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':one': 3 },
        },
      },
    ]);
    expect(await read(key)).toEqual(item);
    expect(await read({ pk: key.pk, sk: 'B' })).toEqual({ pk: key.pk, sk: 'B', n: 3 });
  });

  it('a cancelled transaction is TransactionCanceledException with one reason per item, and writes nothing', async () => {
    const p = pk();
    await transactWrite([{ Put: { TableName: tableName(), Item: { pk: p, sk: 'taken' } } }]);
    const err = await caught(
      transactWrite([
        { Put: { TableName: tableName(), Item: { pk: p, sk: 'new' } } },
        { Put: { TableName: tableName(), Item: { pk: p, sk: 'taken' }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ]),
    );
    expect(isCancellation(err)).toBe(true);
    expect((err as { CancellationReasons: Array<{ Code: string }> }).CancellationReasons.map((r) => r.Code)).toEqual(['None', 'ConditionalCheckFailed']);
    expect(await read({ pk: p, sk: 'new' })).toBeUndefined();
  });

  it('a failed condition is ConditionalCheckFailedException, and writes nothing', async () => {
    const p = pk();
    await putItem({ TableName: tableName(), Item: { pk: p, sk: 'a', v: 1 } });
    const write = { TableName: tableName(), Item: { pk: p, sk: 'a', v: 2 }, ConditionExpression: 'attribute_not_exists(pk)' };
    expect(isConditionFailed(await caught(putItem(write)))).toBe(true);
    expect(await read({ pk: p, sk: 'a' })).toEqual({ pk: p, sk: 'a', v: 1 });
    expect(
      (
        await updateItem({
          TableName: tableName(),
          Key: { pk: p, sk: 'a' },
          UpdateExpression: 'SET v = :v',
          ExpressionAttributeValues: { ':v': 3 },
          ReturnValues: 'ALL_NEW',
        })
      ).Attributes,
    ).toEqual({ pk: p, sk: 'a', v: 3 });
  });

  it("a write past the item size limit is RecordFull naming the record, for a single write, a transaction's update and a transaction's put", async () => {
    const ws = randomUUID();
    const [entity, note] = [randomUUID(), randomUUID()];
    const big = 'x'.repeat(400 * 1024);
    const named = (err: unknown) => (err instanceof RecordFull ? err.record : err);
    expect(named(await caught(putItem({ TableName: tableName(), Item: { ...keys.entity(ws, entity), big } })))).toBe(`entity ${entity}`);
    await putItem({ TableName: tableName(), Item: { ...keys.note(ws, note), v: 1 } });
    const grow = { TableName: tableName(), Key: keys.note(ws, note), UpdateExpression: 'SET big = :b', ExpressionAttributeValues: { ':b': big } };
    expect(named(await caught(updateItem(grow)))).toBe(`note ${note}`);
    // DynamoDB names the item of a cancelled transaction, or none when it refuses the call as a whole: then the largest item.
    const small = { Put: { TableName: tableName(), Item: { ...keys.entity(ws, randomUUID()), v: 1 } } };
    expect(named(await caught(transactWrite([small, { Update: grow }])))).toBe(`note ${note}`);
    expect(named(await caught(transactWrite([small, { Put: { TableName: tableName(), Item: { ...keys.entity(ws, entity), big } } }])))).toBe(
      `entity ${entity}`,
    );
    expect(await read(keys.entity(ws, entity))).toBeUndefined();
    expect(await read(keys.note(ws, note))).toEqual({ ...keys.note(ws, note), v: 1 });
  });

  it('pages: a Query page ends with its LastEvaluatedKey, and queryPages walks every page', async () => {
    const p = pk();
    await batchWrite({ RequestItems: { [tableName()]: ['a', 'b', 'c', 'd', 'e'].map((sk) => ({ PutRequest: { Item: { pk: p, sk } } })) } });
    const query = { TableName: tableName(), KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': p }, Limit: 2, ConsistentRead: true };
    const first = await queryPage(query);
    expect([first.Items?.map((i) => i.sk), first.LastEvaluatedKey]).toEqual([['a', 'b'], { pk: p, sk: 'b' }]);
    const walked: unknown[] = [];
    for await (const page of queryPages(query)) walked.push(page.map((i) => i.sk));
    expect(walked).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    let scanned = 0;
    for await (const page of scanPages({ TableName: tableName(), Limit: 3 })) {
      scanned += page.length;
      if (scanned >= 3) break;
    }
    expect(scanned).toBe(3);
    const got = await batchGetOnce(
      ['a', 'z'].map((sk) => ({ pk: p, sk })),
      { ConsistentRead: true },
    );
    expect([got.items, got.unprocessed]).toEqual([[{ pk: p, sk: 'a' }], []]);
  });
});

describe('faults on the wire: a proxy in front of DynamoDB Local (what the emulator never does)', () => {
  let proxy: FaultProxy;
  let restore: () => void;
  beforeAll(async () => {
    proxy = await startFaultProxy();
  });
  afterAll(() => proxy.close());
  afterEach(() => {
    restore?.();
    proxy.rule = FAULTS.forward;
    proxy.calls.length = 0;
  });
  const through = () => (restore = proxy.use());

  /** The first `n` calls get `fault()`, the rest are forwarded. */
  const firstCalls = (n: number, fault: () => ReturnType<typeof FAULTS.forward>) => (proxy.rule = () => (proxy.calls.length <= n ? fault() : FAULTS.forward()));

  it('throttling (400 ThrottlingException) is retried by the SDK until the table answers; throttling that persists is Contention after the SDK’s attempts, never a fault', async () => {
    const p = pk();
    await putItem({ TableName: tableName(), Item: { pk: p, sk: 'a', v: 1 } });
    through();
    firstCalls(2, FAULTS.throttling);
    expect((await getItem({ TableName: tableName(), Key: { pk: p, sk: 'a' } })).Item).toEqual({ pk: p, sk: 'a', v: 1 });
    expect(proxy.calls.map((c) => c.fault)).toEqual(['answer', 'answer', 'forward']);
    proxy.calls.length = 0;
    proxy.rule = FAULTS.throttling;
    const err = await caught(getItem({ TableName: tableName(), Key: { pk: p, sk: 'a' } }));
    expect(err).toBeInstanceOf(Contention);
    expect(err).toMatchObject({
      resource: 'this workspace (the table is throttling requests)',
      attempts: CALL_BOUNDS.maxAttempts,
      retryAfterS: 1,
      cause: { name: 'ThrottlingException' },
    });
    expect(proxy.calls).toHaveLength(CALL_BOUNDS.maxAttempts);
  });

  it('a 500, a proxy’s HTML 502 and a reset connection are each retried, and the call answers', async () => {
    const p = pk();
    await putItem({ TableName: tableName(), Item: { pk: p, sk: 'a' } });
    through();
    for (const fault of [FAULTS.serverError, FAULTS.badGateway, FAULTS.reset]) {
      proxy.calls.length = 0;
      firstCalls(1, fault);
      expect((await getItem({ TableName: tableName(), Key: { pk: p, sk: 'a' }, ConsistentRead: true })).Item, fault.name).toEqual({ pk: p, sk: 'a' });
      expect(
        proxy.calls.map((c) => c.operation),
        fault.name,
      ).toEqual(['GetItem', 'GetItem']);
    }
  });

  it('an HTML 502 that persists fails after the SDK’s attempts as a server fault naming the status, not as a JSON parse error', async () => {
    through();
    proxy.rule = FAULTS.badGateway;
    const err = await caught(getItem({ TableName: tableName(), Key: { pk: pk(), sk: 'a' } }));
    expect(err).toMatchObject({
      name: 'UnreadableAnswer',
      message: `DynamoDB GetItem answered 502 with a body that is not DynamoDB's (${CALL_BOUNDS.maxAttempts} attempts)`,
      $fault: 'server',
    });
    expect((err as Error).cause).toBeInstanceOf(SyntaxError);
    expect(proxy.calls).toHaveLength(CALL_BOUNDS.maxAttempts);
  });

  it(`a call that hangs outside any request is cut off by the client's request timeout (${CALL_BOUNDS.requestMs} ms) and retried`, async () => {
    const p = pk();
    await putItem({ TableName: tableName(), Item: { pk: p, sk: 'a' } });
    through();
    firstCalls(1, FAULTS.hang);
    const started = performance.now();
    expect((await getItem({ TableName: tableName(), Key: { pk: p, sk: 'a' }, ConsistentRead: true })).Item).toEqual({ pk: p, sk: 'a' });
    const took = performance.now() - started;
    expect(proxy.calls.map((c) => c.fault)).toEqual(['hang', 'forward']);
    expect(took).toBeGreaterThanOrEqual(CALL_BOUNDS.requestMs - 50);
    expect(took).toBeLessThan(CALL_BOUNDS.requestMs + 5_000);
  }, 30_000);

  it('a transaction whose answer is lost after the table applied it (a 500 instead) is retried with the same ClientRequestToken, and applied once', async () => {
    const p = pk();
    through();
    firstCalls(1, FAULTS.lose);
    await transactWrite([
      { Update: { TableName: tableName(), Key: { pk: p, sk: 'n' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
    ]);
    expect(proxy.calls.map((c) => [c.operation, c.fault])).toEqual([
      ['TransactWriteItems', 'lose'],
      ['TransactWriteItems', 'forward'],
    ]);
    const [first, retry] = proxy.calls.map((c) => c.input.ClientRequestToken as string);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry).toBe(first);
    expect(await read({ pk: p, sk: 'n' })).toEqual({ pk: p, sk: 'n', n: 1 });
    // Two calls of the store are two transactions: each its own token.
    proxy.calls.length = 0;
    await transactWrite([
      { Update: { TableName: tableName(), Key: { pk: p, sk: 'n' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
    ]);
    expect(proxy.calls[0]!.input.ClientRequestToken).not.toBe(first);
  });

  it('unprocessed keys and items are sent again until none is left (one helper, lib/store/batch.ts untilProcessed)', async () => {
    const p = pk();
    const keys = ['a', 'b', 'c'].map((sk) => ({ pk: p, sk }));
    through();
    firstCalls(2, () => FAULTS.unprocessedItems(proxy.calls.at(-1)!.input));
    await batchWriteAll(keys.map((Item) => ({ PutRequest: { Item } })));
    expect(proxy.calls.map((c) => [c.operation, c.fault])).toEqual([
      ['BatchWriteItem', 'answer'],
      ['BatchWriteItem', 'answer'],
      ['BatchWriteItem', 'forward'],
    ]);
    proxy.calls.length = 0;
    firstCalls(2, () => FAULTS.unprocessedKeys(proxy.calls.at(-1)!.input));
    const found = await batchGetByKey(keys, { consistent: true });
    expect([...found.values()].map((i) => i.sk).sort()).toEqual(['a', 'b', 'c']);
    expect(proxy.calls.map((c) => c.fault)).toEqual(['answer', 'answer', 'forward']);
  });

  it(`keys that stay unprocessed are Contention after ${UNPROCESSED.attempts} calls (full jitter between them), never read as absent`, async () => {
    through();
    proxy.rule = (call) => FAULTS.unprocessedKeys(call.input);
    const started = performance.now();
    const err = await caught(batchGetByKey([{ pk: pk(), sk: 'a' }]));
    expect(err).toBeInstanceOf(Contention);
    expect(err).toMatchObject({ resource: 'this workspace (the table is throttling requests)', attempts: UNPROCESSED.attempts, retryAfterS: 1 });
    expect(proxy.calls).toHaveLength(UNPROCESSED.attempts);
    // The waits are drawn below their caps: 25, 50, 100, … ms, at most 1 s each.
    const caps = Array.from({ length: UNPROCESSED.attempts - 1 }, (_, i) => Math.min(UNPROCESSED.maxMs, UNPROCESSED.baseMs * 2 ** (i + 1)));
    expect(performance.now() - started).toBeLessThan(caps.reduce((a, b) => a + b, 0) + 2_000);
    const gaps = proxy.calls.slice(1).map((c, i) => c.at - proxy.calls[i]!.at);
    expect(gaps.every((gap, i) => gap <= caps[i]! + 500)).toBe(true);
  });
});
