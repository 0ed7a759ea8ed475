// The store's call layer (lib/store/calls.ts) through the lean sender (lib/store/sender.ts): against
// DynamoDB Local every operation answers what the SDK's document client answers — the same items,
// pages, unprocessed requests and failures (name, fault, status, CancellationReasons) — and the
// client's observers still see every call they watch. Throttling, 5xx and unprocessed items, which
// the emulator never produces, come from a mocked endpoint (named so in the tests).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { awsCredentials as deployedCredentials } from '#lib/aws-credentials.bundled.ts';
import type { Credentials } from '#lib/sigv4-json.ts';
import {
  batchGet,
  batchGetOnce,
  batchWrite,
  deleteItem,
  getItem,
  putItem,
  queryPage,
  queryPages,
  scanPages,
  transactWrite as transact,
  updateItem,
} from '#lib/store/calls.ts';
import { db, tableName } from '#lib/store/client.ts';
import { isCancellation, isConditionFailed } from '#lib/store/errors.ts';
import { leanSender, type NativeTxItem } from '#lib/store/sender.ts';
import { recordCommands } from '../support/commands.ts';

const pk = () => `SENDER#${randomUUID()}`;

const transactWrite = (items: NativeTxItem[]) => transact({ TransactItems: items });
const failing = (items: NativeTxItem[]) =>
  transactWrite(items).then(
    () => undefined,
    (err: unknown) => err,
  );

/** How a failure compares across the two senders: what the store and its callers read of it. */
const shape = (e: unknown) => {
  const f = e as { name: string; $fault: string; $metadata: { httpStatusCode: number }; CancellationReasons?: unknown; Item?: unknown };
  return { name: f.name, fault: f.$fault, status: f.$metadata.httpStatusCode, reasons: f.CancellationReasons, item: f.Item };
};
const caught = (p: Promise<unknown>) => p.then(() => undefined, (err: unknown) => err);

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
    const sdk = await caught(db().send(new TransactWriteCommand({ TransactItems: items })));
    expect(isCancellation(lean) && isCancellation(sdk)).toBe(true);
    expect(shape(lean)).toEqual(shape(sdk));
    expect(shape(lean)).toMatchObject({ name: 'TransactionCanceledException', fault: 'client', status: 400 });
    expect((lean as { CancellationReasons: Array<{ Code: string }> }).CancellationReasons.map((r) => r.Code)).toEqual(['None', 'ConditionalCheckFailed']);
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

  it('get, put, update and delete answer what the document client answers: the item, the old or new attributes', async () => {
    const p = pk();
    const item = { pk: p, sk: 'one', n: 1, tags: new Set(['a']), deep: { l: [1, { x: 'y' }] }, gone: undefined };
    const stored = { pk: p, sk: 'one', n: 1, tags: new Set(['a']), deep: { l: [1, { x: 'y' }] } };
    expect(await putItem({ TableName: tableName(), Item: item, ReturnValues: 'ALL_OLD' })).toEqual({});
    const sdkPut = await db().send(new PutCommand({ TableName: tableName(), Item: { ...item, sk: 'two' } }));
    expect(sdkPut.Attributes).toBeUndefined();
    const key = { pk: p, sk: 'one' };
    const read = { TableName: tableName(), Key: key, ConsistentRead: true };
    expect(await getItem(read)).toEqual({ Item: stored });
    expect((await db().send(new GetCommand(read))).Item).toEqual(stored);
    expect(await getItem({ ...read, Key: { pk: p, sk: 'none' } })).toEqual({});

    const update = (k: object) => ({ TableName: tableName(), Key: k, UpdateExpression: 'ADD #n :d SET #s = :s', ExpressionAttributeNames: { '#n': 'n', '#s': 's' }, ExpressionAttributeValues: { ':d': 2.5, ':s': 'set' }, ReturnValues: 'ALL_NEW' as const });
    const lean = await updateItem(update(key));
    const sdk = await db().send(new UpdateCommand(update({ pk: p, sk: 'two' })));
    expect(lean).toEqual({ Attributes: { ...stored, n: 3.5, s: 'set' } });
    expect(lean.Attributes).toEqual({ ...sdk.Attributes, sk: 'one' });

    expect(await deleteItem({ TableName: tableName(), Key: key, ReturnValues: 'ALL_OLD' })).toEqual({ Attributes: { ...stored, n: 3.5, s: 'set' } });
    expect(await getItem(read)).toEqual({});
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: p, sk: 'two' } }));
  });

  it('a failed condition fails as the SDK fails it: ConditionalCheckFailedException, with the item when ReturnValuesOnConditionCheckFailure asks, nothing written', async () => {
    const p = pk();
    await putItem({ TableName: tableName(), Item: { pk: p, sk: 'c', v: 1 } });
    const write = { TableName: tableName(), Item: { pk: p, sk: 'c', v: 2 }, ConditionExpression: 'attribute_not_exists(pk)' };
    const lean = await caught(putItem(write));
    const sdk = await caught(db().send(new PutCommand(write)));
    expect(isConditionFailed(lean) && isConditionFailed(sdk)).toBe(true);
    expect(shape(lean)).toEqual(shape(sdk));
    expect(shape(lean)).toMatchObject({ name: 'ConditionalCheckFailedException', fault: 'client', status: 400 });
    expect((lean as Error).message).toBe((sdk as Error).message);

    const asking = { ...write, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const };
    const leanAsking = await caught(putItem(asking));
    expect(shape(leanAsking)).toEqual(shape(await caught(db().send(new PutCommand(asking)))));
    expect((leanAsking as { Item: unknown }).Item).toEqual({ pk: { S: p }, sk: { S: 'c' }, v: { N: '1' } });
    expect(await getItem({ TableName: tableName(), Key: { pk: p, sk: 'c' }, ConsistentRead: true })).toEqual({ Item: { pk: p, sk: 'c', v: 1 } });
  });

  it('a Query answers the document client\'s pages (items, LastEvaluatedKey, Count); queryPages and scanPages read every page in order', async () => {
    const p = pk();
    const items = ['a', 'b', 'c', 'd', 'e'].map((sk, i) => ({ pk: p, sk, i }));
    await transactWrite(items.map((Item) => ({ Put: { TableName: tableName(), Item } })));
    const query = { TableName: tableName(), KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': p }, ConsistentRead: true, Limit: 2 };
    const first = await queryPage(query);
    const { $metadata: _, ...sdkFirst } = await db().send(new QueryCommand(query));
    expect(first).toEqual(sdkFirst);
    expect(first).toMatchObject({ Items: items.slice(0, 2), Count: 2, LastEvaluatedKey: { pk: p, sk: 'b' } });
    const second = await queryPage({ ...query, ExclusiveStartKey: first.LastEvaluatedKey });
    const { $metadata: __, ...sdkSecond } = await db().send(new QueryCommand({ ...query, ExclusiveStartKey: first.LastEvaluatedKey }));
    expect(second).toEqual(sdkSecond);
    expect(second.Items).toEqual(items.slice(2, 4));

    const pages: unknown[][] = [];
    for await (const page of queryPages(query)) pages.push(page);
    expect(pages).toEqual([items.slice(0, 2), items.slice(2, 4), items.slice(4)]);

    const scanned: unknown[] = [];
    const scan = { TableName: tableName(), FilterExpression: 'pk = :p', ExpressionAttributeValues: { ':p': p }, ConsistentRead: true };
    for await (const page of scanPages(scan)) scanned.push(...page);
    // The whole shared table is scanned: in a full run it spans several pages.
    const sdkScanned: unknown[] = [];
    for await (const page of paginateScan({ client: db() }, scan)) sdkScanned.push(...(page.Items ?? []));
    const bySk = (xs: unknown[]) => [...(xs as Array<{ sk: string }>)].sort((x, y) => x.sk.localeCompare(y.sk));
    expect(bySk(scanned)).toEqual(items);
    expect(bySk(sdkScanned)).toEqual(items);
  });

  it('a BatchWriteItem puts and deletes as the document client does; BatchGetItem reads them back alike', async () => {
    const p = pk();
    await putItem({ TableName: tableName(), Item: { pk: p, sk: 'old' } });
    const out = await batchWrite({ RequestItems: { [tableName()]: [{ PutRequest: { Item: { pk: p, sk: 'x', v: [1, 2] } } }, { PutRequest: { Item: { pk: p, sk: 'y', v: null } } }, { DeleteRequest: { Key: { pk: p, sk: 'old' } } }] } });
    expect(out).toEqual({ UnprocessedItems: {} });
    const sdkOut = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: [{ PutRequest: { Item: { pk: p, sk: 'z' } } }] } }));
    expect(sdkOut.UnprocessedItems).toEqual(out.UnprocessedItems);
    const keys = ['old', 'x', 'y', 'z'].map((sk) => ({ pk: p, sk }));
    const lean = await batchGet({ RequestItems: { [tableName()]: { Keys: keys, ConsistentRead: true } } });
    const sdk = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys, ConsistentRead: true } } }));
    const bySk = (xs: Array<Record<string, unknown>>) => [...xs].sort((x, y) => String(x.sk).localeCompare(String(y.sk)));
    expect(bySk(lean.Responses![tableName()]!)).toEqual([{ pk: p, sk: 'x', v: [1, 2] }, { pk: p, sk: 'y', v: null }, { pk: p, sk: 'z' }]);
    expect(bySk(lean.Responses![tableName()]!)).toEqual(bySk(sdk.Responses![tableName()]!));
    expect([lean.UnprocessedKeys, sdk.UnprocessedKeys]).toEqual([{}, {}]);
  });

  it('with a middleware added to the document client the calls go through it (observers see them); once it is removed they do not', async () => {
    const rec = recordCommands('senderObserver');
    const p = pk();
    try {
      await transactWrite([{ Put: { TableName: tableName(), Item: { pk: p, sk: 'seen' } } }]);
      await batchGetOnce([{ pk: p, sk: 'seen' }], { ConsistentRead: true });
      await getItem({ TableName: tableName(), Key: { pk: p, sk: 'seen' } });
      await putItem({ TableName: tableName(), Item: { pk: p, sk: 'put' } });
      await updateItem({ TableName: tableName(), Key: { pk: p, sk: 'put' }, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': 1 } });
      await deleteItem({ TableName: tableName(), Key: { pk: p, sk: 'put' } });
      await batchWrite({ RequestItems: { [tableName()]: [{ DeleteRequest: { Key: { pk: p, sk: 'put' } } }] } });
      for await (const _ of queryPages({ TableName: tableName(), KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': p } }));
      for await (const _ of scanPages({ TableName: tableName(), Limit: 1 })) break;
      expect(rec.sent.map((s) => s.command)).toEqual(['TransactWriteItems', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'Query', 'Scan']);
    } finally {
      rec.stop();
    }
    const after = recordCommands('senderObserverAfter');
    after.stop();
    await transactWrite([{ Put: { TableName: tableName(), Item: { pk: p, sk: 'unseen' } } }]);
    expect(after.sent).toEqual([]);
    expect(rec.sent).toHaveLength(9);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: { pk: p, sk: 'unseen' }, ConsistentRead: true }))).Item).toEqual({ pk: p, sk: 'unseen' });
  });
});

/** A mocked DynamoDB endpoint answering each request with the next of `answers` (status, JSON body). */
async function mockedEndpoint(answers: Array<[number, object]>, credentials: Credentials = () => Promise.resolve({ accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' })) {
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
  const sender = leanSender({ endpoint, region: 'eu-west-1', credentials });
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
    await m.sender('TransactWriteItems', { TransactItems: [{ Put: { TableName: 't', Item: { pk: 'a', sk: 'b', n: 1 } } }] });
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
    expect(await m.sender('BatchGetItem', { RequestItems: { t: { Keys: [{ pk: 'a', sk: 'b' }], ConsistentRead: true } } })).toEqual({ Responses: { t: [{ pk: 'a', sk: 'b', n: 2 }] }, UnprocessedKeys: {} });
    expect(m.seen).toHaveLength(3);
  });

  it('(mocked endpoint) a transaction retried after a 500 sends the same ClientRequestToken, so a commit whose answer was lost is not applied twice', async () => {
    const m = await mockedEndpoint([
      [500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'boom' }],
      [200, {}],
    ]);
    close = m.close;
    await m.sender('TransactWriteItems', { TransactItems: [{ Put: { TableName: 't', Item: { pk: 'a', sk: 'b' } } }] });
    const tokens = m.seen.map((s) => (JSON.parse(s.body) as { ClientRequestToken: string }).ClientRequestToken);
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).toBe(tokens[0]);
  });

  it('(mocked endpoint) throttling on every attempt fails after 3 as the SDK names it, with its message and status', async () => {
    const m = await mockedEndpoint([[400, { __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'Rate of requests exceeds the allowed throughput.' }]]);
    close = m.close;
    const err = await m.sender('TransactWriteItems', { TransactItems: [{ Put: { TableName: 't', Item: { pk: 'a', sk: 'b' } } }] }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: 'ThrottlingException', message: 'Rate of requests exceeds the allowed throughput.', $fault: 'client', $metadata: { httpStatusCode: 400 } });
    expect(m.seen).toHaveLength(3);
  });

  it('(mocked endpoint) a validation error is not retried and keeps its name', async () => {
    const m = await mockedEndpoint([[400, { __type: 'com.amazon.coral.validate#ValidationException', message: 'bad expression' }]]);
    close = m.close;
    const err = await m.sender('TransactWriteItems', { TransactItems: [{ Put: { TableName: 't', Item: { pk: 'a', sk: 'b' } } }] }).then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ name: 'ValidationException', message: 'bad expression', $fault: 'client' });
    expect(m.seen).toHaveLength(1);
  });

  it('(mocked endpoint) keys DynamoDB left unprocessed come back unmarshalled, for the caller to read again', async () => {
    const m = await mockedEndpoint([[200, { Responses: { t: [] }, UnprocessedKeys: { t: { Keys: [{ pk: { S: 'a' }, sk: { S: 'b' } }], ConsistentRead: true } } }]]);
    close = m.close;
    expect(await m.sender('BatchGetItem', { RequestItems: { t: { Keys: [{ pk: 'a', sk: 'b' }], ConsistentRead: true } } })).toEqual({
      Responses: { t: [] },
      UnprocessedKeys: { t: { Keys: [{ pk: 'a', sk: 'b' }], ConsistentRead: true } },
    });
    expect(JSON.parse(m.seen[0]!.body)).toEqual({ RequestItems: { t: { Keys: [{ pk: { S: 'a' }, sk: { S: 'b' } }], ConsistentRead: true } } });
  });

  it('(mocked endpoint) writes a BatchWriteItem left unprocessed come back as the document client gives them: puts and deletes unmarshalled', async () => {
    const m = await mockedEndpoint([[200, { UnprocessedItems: { t: [{ PutRequest: { Item: { pk: { S: 'a' }, sk: { S: 'b' }, n: { N: '3' } } } }, { DeleteRequest: { Key: { pk: { S: 'a' }, sk: { S: 'c' } } } }] } }]]);
    close = m.close;
    const requests = [{ PutRequest: { Item: { pk: 'a', sk: 'b', n: 3 } } }, { DeleteRequest: { Key: { pk: 'a', sk: 'c' } } }];
    expect(await m.sender('BatchWriteItem', { RequestItems: { t: requests } })).toEqual({ UnprocessedItems: { t: requests } });
    expect(JSON.parse(m.seen[0]!.body)).toEqual({
      RequestItems: { t: [{ PutRequest: { Item: { pk: { S: 'a' }, sk: { S: 'b' }, n: { N: '3' } } } }, { DeleteRequest: { Key: { pk: { S: 'a' }, sk: { S: 'c' } } } }] },
    });
  });
});

describe("deployed functions' credentials (lib/aws-credentials.bundled.ts): the Lambda runtime's environment", () => {
  const names = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'] as const;
  let saved: Array<string | undefined> = [];
  let close: (() => Promise<void>) | undefined;
  const setEnv = (values: Array<string | undefined>) =>
    names.forEach((name, i) => {
      if (values[i] === undefined) delete process.env[name];
      else process.env[name] = values[i];
    });
  afterEach(async () => {
    setEnv(saved);
    await close?.();
    close = undefined;
  });

  it('(mocked endpoint) a call is signed with the role credentials of the environment, its session token sent beside', async () => {
    saved = names.map((name) => process.env[name]);
    setEnv(['ASIAROLE', 'role-secret', 'role-session']);
    const m = await mockedEndpoint([[200, {}]], deployedCredentials());
    close = m.close;
    await m.sender('GetItem', { TableName: 't', Key: { pk: 'a', sk: 'b' } });
    const [{ headers }] = m.seen as [(typeof m.seen)[number]];
    expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=ASIAROLE\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=\S*x-amz-security-token\S*, Signature=[0-9a-f]{64}$/);
    expect(headers['x-amz-security-token']).toBe('role-session');
  });

  it('without them a call fails naming what is missing, before anything is sent', async () => {
    saved = names.map((name) => process.env[name]);
    setEnv([undefined, undefined, undefined]);
    const m = await mockedEndpoint([[200, {}]], deployedCredentials());
    close = m.close;
    await expect(m.sender('GetItem', { TableName: 't', Key: { pk: 'a', sk: 'b' } })).rejects.toThrow('No AWS credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set');
    expect(m.seen).toEqual([]);
  });
});
