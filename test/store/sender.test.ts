// The lean sender of the hot path's calls (lib/store/sender.ts, chosen by lib/store/client.ts):
// against DynamoDB Local it answers what the SDK's document client answers — the same items, the
// same failure (class, name, CancellationReasons) — and the client's observers still see every
// call they watch. Throttling, 5xx and unprocessed keys, which the emulator never produces, come
// from a mocked endpoint (named so in the tests).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBServiceException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { db, tableName } from '#lib/store/client.ts';
import { batchGetOnce, transactWrite } from '#lib/store/hot-calls.ts';
import { leanSender, type NativeTxItem } from '#lib/store/sender.ts';
import { recordCommands } from '../support/commands.ts';

const pk = () => `SENDER#${randomUUID()}`;

const failing = (items: NativeTxItem[]) =>
  transactWrite(items).then(
    () => undefined,
    (err: unknown) => err,
  );

describe('the lean sender against DynamoDB Local', () => {
  it('a transaction commits the items as the document client reads them back, nested maps, lists, sets and numbers included', async () => {
    const key = { pk: pk(), sk: 'A' };
    const item = { ...key, name: 'n', score: 12.5, tags: new Set(['x', 'y']), nested: { list: [1, 'two', { three: true }], empty: null } };
    await transactWrite([
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Update: { TableName: tableName(), Key: { pk: key.pk, sk: 'B' }, UpdateExpression: 'ADD #n :one', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':one': 3 } } },
    ]);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item).toEqual(item);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: { pk: key.pk, sk: 'B' }, ConsistentRead: true }))).Item).toEqual({ pk: key.pk, sk: 'B', n: 3 });
  });

  it('a cancelled transaction fails as the SDK fails it: TransactionCanceledException with the same CancellationReasons, nothing written', async () => {
    const p = pk();
    await db().send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName(), Item: { pk: p, sk: 'taken' } } }] }));
    const items: NativeTxItem[] = [
      { Put: { TableName: tableName(), Item: { pk: p, sk: 'new' } } },
      { Put: { TableName: tableName(), Item: { pk: p, sk: 'taken' }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ];
    const lean = await failing(items);
    const sdk = await db()
      .send(new TransactWriteCommand({ TransactItems: items }))
      .then(() => undefined, (err: unknown) => err);
    expect(lean).toBeInstanceOf(TransactionCanceledException);
    expect(sdk).toBeInstanceOf(TransactionCanceledException);
    const shape = (e: unknown) => ({ name: (e as Error).name, reasons: (e as TransactionCanceledException).CancellationReasons, status: (e as TransactionCanceledException).$metadata.httpStatusCode });
    expect(shape(lean)).toEqual(shape(sdk));
    expect((lean as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual(['None', 'ConditionalCheckFailed']);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: { pk: p, sk: 'new' } }))).Item).toBeUndefined();
  });

  it('a BatchGetItem reads what the document client reads, absent keys left out', async () => {
    const p = pk();
    const stored = [
      { pk: p, sk: 'a', n: 1, m: { deep: ['x'] } },
      { pk: p, sk: 'b', flag: false },
    ];
    await transactWrite(stored.map((Item) => ({ Put: { TableName: tableName(), Item } })));
    const wanted = [{ pk: p, sk: 'a' }, { pk: p, sk: 'b' }, { pk: p, sk: 'missing' }];
    const lean = await batchGetOnce(wanted, { ConsistentRead: true });
    const sdk = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: wanted, ConsistentRead: true } } }));
    const bySk = (xs: Array<Record<string, unknown>>) => [...xs].sort((x, y) => String(x.sk).localeCompare(String(y.sk)));
    expect(bySk(lean.items)).toEqual(stored);
    expect(bySk(lean.items)).toEqual(bySk(sdk.Responses![tableName()]!));
    expect(lean.unprocessed).toEqual([]);
  });

  it('a projected BatchGetItem (lib/store/batch.ts batchGetByKey) returns only the attributes named, as the document client does', async () => {
    const p = pk();
    await transactWrite([{ Put: { TableName: tableName(), Item: { pk: p, sk: 'a', n: 1, secret: 'x' } } }]);
    const read = { ConsistentRead: true, ProjectionExpression: 'pk, sk, #n', ExpressionAttributeNames: { '#n': 'n' } };
    const lean = await batchGetOnce([{ pk: p, sk: 'a' }], read);
    const sdk = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: [{ pk: p, sk: 'a' }], ...read } } }));
    expect(lean.items).toEqual([{ pk: p, sk: 'a', n: 1 }]);
    expect(sdk.Responses![tableName()]).toEqual(lean.items);
  });

  it('with a middleware added to the document client the calls go through it (observers see them); once it is removed they do not', async () => {
    const rec = recordCommands('senderObserver');
    const p = pk();
    try {
      await transactWrite([{ Put: { TableName: tableName(), Item: { pk: p, sk: 'seen' } } }]);
      await batchGetOnce([{ pk: p, sk: 'seen' }], { ConsistentRead: true });
      expect(rec.sent.map((s) => s.command)).toEqual(['TransactWriteItems', 'BatchGetItem']);
    } finally {
      rec.stop();
    }
    const after = recordCommands('senderObserverAfter');
    after.stop();
    await transactWrite([{ Put: { TableName: tableName(), Item: { pk: p, sk: 'unseen' } } }]);
    expect(after.sent).toEqual([]);
    expect(rec.sent).toHaveLength(2);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: { pk: p, sk: 'unseen' }, ConsistentRead: true }))).Item).toEqual({ pk: p, sk: 'unseen' });
  });
});

/** A mocked DynamoDB endpoint answering each request with the next of `answers` (status, JSON body). */
async function mockedEndpoint(answers: Array<[number, object]>) {
  const seen: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ headers: req.headers, body });
      const [status, out] = answers[Math.min(seen.length, answers.length) - 1]!;
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `req-${seen.length}` });
      res.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sender = leanSender({ endpoint, region: 'eu-west-1', credentials: () => Promise.resolve({ accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' }) });
  return { sender, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('the lean sender against a mocked endpoint (faults DynamoDB Local never produces)', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('(mocked endpoint) signs each call with SigV4 for dynamodb in its region and names the operation in X-Amz-Target', async () => {
    const m = await mockedEndpoint([[200, {}]]);
    close = m.close;
    await m.sender.transactWrite([{ Put: { TableName: 't', Item: { pk: 'a', sk: 'b', n: 1 } } }]);
    const [{ headers, body }] = m.seen as [(typeof m.seen)[number]];
    expect(headers['x-amz-target']).toBe('DynamoDB_20120810.TransactWriteItems');
    expect(headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=\S*x-amz-target\S*, Signature=[0-9a-f]{64}$/);
    expect(JSON.parse(body)).toEqual({ TransactItems: [{ Put: { TableName: 't', Item: { pk: { S: 'a' }, sk: { S: 'b' }, n: { N: '1' } } } }], ClientRequestToken: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('(mocked endpoint) a 500 and a throttling answer are retried, as the SDK standard mode does: the third attempt answers', async () => {
    const m = await mockedEndpoint([
      [500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'boom' }],
      [400, { __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'slow down' }],
      [200, { Responses: { t: [{ pk: { S: 'a' }, sk: { S: 'b' }, n: { N: '2' } }] }, UnprocessedKeys: {} }],
    ]);
    close = m.close;
    expect(await m.sender.batchGet('t', [{ pk: 'a', sk: 'b' }], { ConsistentRead: true })).toEqual({ items: [{ pk: 'a', sk: 'b', n: 2 }], unprocessed: [] });
    expect(m.seen).toHaveLength(3);
  });

  it('(mocked endpoint) a transaction retried after a 500 sends the same ClientRequestToken, so a commit whose answer was lost is not applied twice', async () => {
    const m = await mockedEndpoint([
      [500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'boom' }],
      [200, {}],
    ]);
    close = m.close;
    await m.sender.transactWrite([{ Put: { TableName: 't', Item: { pk: 'a', sk: 'b' } } }]);
    const tokens = m.seen.map((s) => (JSON.parse(s.body) as { ClientRequestToken: string }).ClientRequestToken);
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).toBe(tokens[0]);
  });

  it('(mocked endpoint) throttling on every attempt fails after 3 as the SDK names it, with its message and status', async () => {
    const m = await mockedEndpoint([[400, { __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'Rate of requests exceeds the allowed throughput.' }]]);
    close = m.close;
    const err = await m.sender.transactWrite([{ Put: { TableName: 't', Item: { pk: 'a', sk: 'b' } } }]).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DynamoDBServiceException);
    expect(err).toMatchObject({ name: 'ThrottlingException', message: 'Rate of requests exceeds the allowed throughput.', $fault: 'client', $metadata: { httpStatusCode: 400 } });
    expect(m.seen).toHaveLength(3);
  });

  it('(mocked endpoint) a validation error is not retried and keeps its name', async () => {
    const m = await mockedEndpoint([[400, { __type: 'com.amazon.coral.validate#ValidationException', message: 'bad expression' }]]);
    close = m.close;
    const err = await m.sender.transactWrite([{ Put: { TableName: 't', Item: { pk: 'a', sk: 'b' } } }]).then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ name: 'ValidationException', message: 'bad expression', $fault: 'client' });
    expect(m.seen).toHaveLength(1);
  });

  it('(mocked endpoint) keys DynamoDB left unprocessed come back unmarshalled, for the caller to read again', async () => {
    const m = await mockedEndpoint([[200, { Responses: { t: [] }, UnprocessedKeys: { t: { Keys: [{ pk: { S: 'a' }, sk: { S: 'b' } }], ConsistentRead: true } } }]]);
    close = m.close;
    expect(await m.sender.batchGet('t', [{ pk: 'a', sk: 'b' }], { ConsistentRead: true })).toEqual({ items: [], unprocessed: [{ pk: 'a', sk: 'b' }] });
    expect(JSON.parse(m.seen[0]!.body)).toEqual({ RequestItems: { t: { Keys: [{ pk: { S: 'a' }, sk: { S: 'b' } }], ConsistentRead: true } } });
  });
});
