// The deployed worker functions (functions/events/*.ts) with their SQS side faked on the wire
// (no SQS emulator exists here): the stream function gets real records of DynamoDB Local's stream
// and sends FIFO messages (none for a paused subscription); the delivery function gets those
// messages as Lambda would, POSTs to a real receiver, holds failures back by their visibility
// timeout and dead-letters what it gives up.
import type { DynamoDBRecord, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, inject } from 'vitest';
import { handler as deliver } from '#functions/events/deliver.ts';
import { handler as stream } from '#functions/events/stream.ts';
import { windowMs } from '#lib/domain/delivery-schedule.ts';
import type { DeliveryJob } from '#lib/events/delivery-job.ts';
import { createSubscription } from '#lib/events/subscription-create.ts';
import { tableName } from '#lib/store/table.ts';
import { fakeSqs } from './fake-sqs.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { ensureTable } from '../../local/dynamodb-local.ts';
import { startStreamReader, type StreamReader } from '../../local/stream-reader.ts';
import { client } from '../score/helpers.ts';
import { newWorkspace, startApp, type TestApp } from '../support/app.ts';

const sqs = fakeSqs();
let app: TestApp;
let reader: StreamReader;
let receiver: Receiver;
const records: DynamoDBRecord[] = [];

// A table of this file's own: on the suite's shared table, the in-process workers other files start
// (test/events/support.ts) would deliver this file's events to its receiver too.
beforeAll(async () => {
  process.env.TABLE_NAME = 'pm-api-test-functions';
  await ensureTable(inject('dynamodbEndpoint'), tableName());
  const endpoint = await sqs.listen();
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SQS: endpoint,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    DELIVERY_QUEUE_URL: `${endpoint}/000000000000/deliveries.fifo`,
    DELIVERY_DLQ_URL: `${endpoint}/000000000000/dead-deliveries.fifo`,
    WEBHOOKS_ALLOW_LOOPBACK: '1',
  });
  app = await startApp();
  reader = await startStreamReader({
    endpoint: inject('dynamodbEndpoint'),
    tableName: tableName(),
    pollMs: 50,
    consume: async (batch) => void records.push(...batch),
  });
  receiver = await startReceiver();
});

afterAll(async () => {
  await reader?.stop();
  await receiver?.kill();
  await app?.close();
  await sqs.close();
  for (const name of ['AWS_ENDPOINT_URL_SQS', 'DELIVERY_QUEUE_URL', 'DELIVERY_DLQ_URL', 'WEBHOOKS_ALLOW_LOOPBACK']) delete process.env[name];
});

beforeEach(() => {
  sqs.calls.length = 0;
  receiver.requests.length = 0;
  receiver.failNext(0);
  receiver.answerAlways(undefined);
});

/** A subscription of the workspace to product events, delivered to the receiver. */
const subscribe = (workspaceId: string, name = 'fn test') =>
  createSubscription(
    { workspaceId, scopes: new Set(['entities:read']) },
    { name, events: ['product.created', 'product.updated'], url: receiver.url, version: 1, authorization: undefined },
  );

/** The stream records of what `act` does in the workspace. */
async function streamed(workspaceId: string, act: () => Promise<void>): Promise<DynamoDBRecord[]> {
  const from = records.length;
  await act();
  await reader.settled();
  return records.slice(from).filter((r) => r.dynamodb?.Keys?.pk?.S === `WS#${workspaceId}`);
}

/** A workspace subscribed to product events, and the stream records of what `act` does in it. */
async function recordsOf(act: (api: ReturnType<typeof client>) => Promise<void>) {
  const ws = await newWorkspace();
  const { subscription, signingSecret } = await subscribe(ws.workspaceId);
  receiver.useSecret(signingSecret);
  const mine = await streamed(ws.workspaceId, () => act(client(app, ws.token)));
  return { ws, sub: subscription.id, mine };
}

/** The messages the stream function sent, as the SQS event source would hand them to the delivery function. */
const asSqsEvent = (entries: Array<Record<string, string>>, receiveCount = 1): SQSEvent => ({
  Records: entries.map((e, i): SQSRecord => ({
    messageId: `m${i}`,
    receiptHandle: `rh${i}`,
    body: e.MessageBody!,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: '0',
      SenderId: 'x',
      ApproximateFirstReceiveTimestamp: '0',
      MessageGroupId: e.MessageGroupId!,
      MessageDeduplicationId: e.MessageDeduplicationId!,
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:deliveries.fifo',
    awsRegion: 'eu-west-1',
  })),
});

const sentEntries = () => sqs.of('SendMessageBatch').flatMap((c) => c.Entries as Array<Record<string, string>>);

describe('deployed worker functions', () => {
  it('stream function: one FIFO message per (subscription, event), grouped by subscription and resource, deduplicated by event', async () => {
    let product = '';
    const { sub, mine } = await recordsOf(async (api) => {
      product = await api.entity('product');
      await api.ok('PATCH', `/entities/${product}`, { data: { fields: { name: 'Renamed' } } });
    });
    expect(await stream({ Records: mine })).toEqual({ batchItemFailures: [] });
    const entries = sentEntries();
    expect(sqs.of('SendMessageBatch').every((c) => c.QueueUrl === process.env.DELIVERY_QUEUE_URL)).toBe(true);
    const jobs = entries.map((e) => JSON.parse(e.MessageBody!) as DeliveryJob);
    expect(jobs.map((j) => j.payload.eventType)).toEqual(['product.created', 'product.updated']);
    expect(entries.map((e) => e.MessageGroupId)).toEqual([`${sub}:${product}`, `${sub}:${product}`]);
    expect(entries.map((e) => e.MessageDeduplicationId)).toEqual(jobs.map((j) => `${sub}:${j.eventId}`));
    // The same records again (a retried batch): the same ids, which SQS and the delivery records de-duplicate.
    await stream({ Records: mine });
    expect(
      sentEntries()
        .slice(2)
        .map((e) => e.MessageDeduplicationId),
    ).toEqual(entries.map((e) => e.MessageDeduplicationId));
  });

  it('stream function: a subscription paused (its receiver answered 410) gets no more messages; the active one beside it gets each event', async () => {
    const ws = await newWorkspace();
    const api = client(app, ws.token);
    const active = await subscribe(ws.workspaceId, 'stays active');
    const gone = (await subscribe(ws.workspaceId, 'answers 410')).subscription.id;
    receiver.useSecret(active.signingSecret);
    const jobsSent = () =>
      sentEntries()
        .map((e) => {
          const job = JSON.parse(e.MessageBody!) as DeliveryJob;
          return [job.subscriptionId, job.payload.eventType, e.MessageGroupId];
        })
        .sort();
    let product = '';
    const created = await streamed(ws.workspaceId, async () => void (product = await api.entity('product')));
    expect(await stream({ Records: created })).toEqual({ batchItemFailures: [] });
    expect(jobsSent()).toEqual(
      [
        [active.subscription.id, 'product.created', `${active.subscription.id}:${product}`],
        [gone, 'product.created', `${gone}:${product}`],
      ].sort(),
    );
    // The delivery to `gone` meets a 410, which pauses it.
    const toGone = sentEntries().filter((e) => (JSON.parse(e.MessageBody!) as DeliveryJob).subscriptionId === gone);
    receiver.answerAlways(410);
    expect(await deliver(asSqsEvent(toGone))).toEqual({ batchItemFailures: [] });
    expect(receiver.requests.map((r) => [r.eventType, r.status])).toEqual([['product.created', 410]]);
    expect((await api.ok('GET', `/webhooks/${gone}`)).json.data.fields.status).toBe('paused');
    expect((await api.ok('GET', `/webhooks/${active.subscription.id}`)).json.data.fields.status).toBe('active');

    sqs.calls.length = 0;
    const updated = await streamed(ws.workspaceId, async () => void (await api.ok('PATCH', `/entities/${product}`, { data: { fields: { name: 'Renamed' } } })));
    expect(await stream({ Records: updated })).toEqual({ batchItemFailures: [] });
    expect(jobsSent()).toEqual([[active.subscription.id, 'product.updated', `${active.subscription.id}:${product}`]]);
  });

  it('stream function: when SQS refuses a message, the record it came from is reported, so it and the rest come again', async () => {
    const { mine } = await recordsOf(async (api) => void (await api.entity('product')));
    const created = mine.find((r) => r.eventName === 'INSERT' && r.dynamodb?.NewImage?.kind?.S === 'entity')!;
    sqs.faults.refuseBatches = true;
    try {
      expect(await stream({ Records: mine })).toEqual({ batchItemFailures: [{ itemIdentifier: created.dynamodb!.SequenceNumber }] });
    } finally {
      sqs.faults.refuseBatches = false;
    }
  });

  it('delivery function: delivers, and removes the messages from the queue', async () => {
    const { mine } = await recordsOf(async (api) => void (await api.entity('product')));
    await stream({ Records: mine });
    expect(await deliver(asSqsEvent(sentEntries()))).toEqual({ batchItemFailures: [] });
    expect(receiver.delivered().map((r) => r.eventType)).toEqual(['product.created']);
  });

  it('delivery function: a failure is held back for its wait (visibility timeout) and the rest of its group handed back untried', async () => {
    let product = '';
    const { mine } = await recordsOf(async (api) => {
      product = await api.entity('product');
      await api.ok('PATCH', `/entities/${product}`, { data: { fields: { name: 'Renamed' } } });
    });
    await stream({ Records: mine });
    receiver.failNext(1, 500);
    expect(await deliver(asSqsEvent(sentEntries()))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm0' }, { itemIdentifier: 'm1' }] });
    expect(receiver.requests.map((r) => [r.eventType, r.status])).toEqual([['product.created', 500]]);
    // The message behind it is held as long, so the group resumes when the wait is over.
    const [hold] = sqs.of('ChangeMessageVisibilityBatch');
    expect(hold).toMatchObject({ QueueUrl: process.env.DELIVERY_QUEUE_URL });
    expect(hold!.Entries.map((e: { ReceiptHandle: string }) => e.ReceiptHandle)).toEqual(['rh0', 'rh1']);
    const [wait, followerWait] = hold!.Entries.map((e: { VisibilityTimeout: number }) => e.VisibilityTimeout);
    expect(followerWait).toBe(wait);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(windowMs(1) / 1000);
  });

  it('delivery function: the last attempt failing goes to the dead-letter queue with its reason and leaves the delivery queue', async () => {
    const { mine } = await recordsOf(async (api) => void (await api.entity('product')));
    await stream({ Records: mine });
    receiver.answerAlways(500);
    const [entry] = sentEntries();
    for (let receive = 1; receive < 8; receive++)
      expect(await deliver(asSqsEvent([entry!], receive))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm0' }] });
    expect(await deliver(asSqsEvent([entry!], 8))).toEqual({ batchItemFailures: [] });
    expect(receiver.requests).toHaveLength(8);
    expect(sqs.of('SendMessage')).toEqual([
      {
        QueueUrl: process.env.DELIVERY_DLQ_URL,
        MessageBody: entry!.MessageBody,
        MessageGroupId: entry!.MessageGroupId,
        MessageDeduplicationId: entry!.MessageDeduplicationId,
        MessageAttributes: { reason: { DataType: 'String', StringValue: 'gave up after 8 attempts (last: HTTP 500)' } },
      },
    ]);
  });

  it("delivery function: a message received with the failing one ahead of it in its group (SQS's receive count climbing with it) keeps its own eight attempts", async () => {
    let product = '';
    const { mine } = await recordsOf(async (api) => {
      product = await api.entity('product');
      await api.ok('PATCH', `/entities/${product}`, { data: { fields: { name: 'Renamed' } } });
    });
    await stream({ Records: mine });
    const [head, follower] = sentEntries();
    expect(head!.MessageGroupId).toBe(follower!.MessageGroupId);
    receiver.answerAlways(500);
    // A FIFO receive hands over as many messages of one group as it can: each receive of the head is one of the follower.
    for (let receive = 1; receive <= 8; receive++) await deliver(asSqsEvent([head!, follower!], receive));
    const posts = (type: string) => receiver.requests.filter((r) => r.eventType === type).length;
    // The head's eighth attempt is its last; the follower then has its first, in the same invocation.
    expect([posts('product.created'), posts('product.updated')]).toEqual([8, 1]);
    const reasons = () => sqs.of('SendMessage').map((m) => m.MessageAttributes.reason.StringValue);
    expect(reasons()).toEqual(['gave up after 8 attempts (last: HTTP 500)']);
    // The follower alone from then on: seven more attempts, whatever SQS counts, then the dead-letter queue.
    for (let receive = 9; receive <= 15; receive++) await deliver(asSqsEvent([follower!], receive));
    expect([posts('product.created'), posts('product.updated')]).toEqual([8, 8]);
    expect(reasons()).toEqual(['gave up after 8 attempts (last: HTTP 500)', 'gave up after 8 attempts (last: HTTP 500)']);
  });
});
