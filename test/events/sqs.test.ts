// The delivery queue's calls (lib/events/sqs.ts) through the SDK's SQS client, as deployed, against
// an SQS stand-in on its JSON wire protocol (test/events/fake-sqs.ts; no emulator exists here): the
// SDK's own retries of throttling and 5xx, bounded by its attempts, and a refusal that is not retried.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CALL_BOUNDS } from '#lib/aws-clients.ts';
import type { DeliveryJob } from '#lib/events/delivery-job.ts';
import { holdBack, sendJobs, sendToDeadLetters } from '#lib/events/sqs.ts';
import { fakeSqs } from './fake-sqs.ts';
import { setEnv } from '../infra/fake-aws.ts';

const sqs = fakeSqs();
let restore: () => void;
beforeAll(async () => {
  const endpoint = await sqs.listen();
  restore = setEnv({
    AWS_ENDPOINT_URL_SQS: endpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI',
    DELIVERY_QUEUE_URL: `${endpoint}/111122223333/deliveries.fifo`,
    DELIVERY_DLQ_URL: `${endpoint}/111122223333/dead.fifo`,
  });
});
afterAll(async () => {
  restore();
  await sqs.close();
});
afterEach(() => {
  sqs.calls.length = 0;
  sqs.faults.errors.length = 0;
});

const job = (n: number): DeliveryJob => ({
  workspaceId: 'ws-1',
  subscriptionId: 'sub-1',
  eventId: `msg_${String(n).padStart(32, '0')}`,
  orderingKey: 'entity-1',
  payload: { id: 'entity-1', eventType: 'feature.updated', links: { target: 'https://api.example.com/v2/entities/entity-1' }, updatedAttributes: ['name'] },
});

describe('the delivery queue through the SDK’s SQS client', () => {
  it('sends jobs ten per SendMessageBatch in order, holds a message back and dead-letters with the reason', async () => {
    await sendJobs(Array.from({ length: 12 }, (_, i) => job(i)));
    await holdBack(['receipt-1', 'receipt-2'], 90_500, Date.now());
    await sendToDeadLetters(job(99), 'gone');
    expect(sqs.calls.map((c) => c.action)).toEqual(['SendMessageBatch', 'SendMessageBatch', 'ChangeMessageVisibilityBatch', 'SendMessage']);
    expect(sqs.of('SendMessageBatch').map((b) => b.Entries.length)).toEqual([10, 2]);
    expect(sqs.of('ChangeMessageVisibilityBatch')[0]!.Entries).toEqual([
      { Id: '0', ReceiptHandle: 'receipt-1', VisibilityTimeout: 91 },
      { Id: '1', ReceiptHandle: 'receipt-2', VisibilityTimeout: 91 },
    ]);
    expect(sqs.of('SendMessage')[0]).toMatchObject({ MessageAttributes: { reason: { DataType: 'String', StringValue: 'gone' } } });
  });

  it('a wait longer than SQS keeps a message out of sight since its receive is cut to what is left of the 12 hours, less a margin of 5 minutes', async () => {
    const day = 24 * 60 * 60 * 1000;
    await holdBack(['just-received'], day, Date.now());
    await holdBack(['received-2-h-ago'], day, Date.now() - 2 * 60 * 60 * 1000);
    await holdBack(['received-13-h-ago'], day, Date.now() - 13 * 60 * 60 * 1000);
    expect(sqs.of('ChangeMessageVisibilityBatch').map((b) => b.Entries.map((e: { VisibilityTimeout: number }) => e.VisibilityTimeout))).toEqual([
      [12 * 3600 - 300],
      [10 * 3600 - 300],
      [0],
    ]);
  });

  it('a hold SQS refuses throws, naming the count', async () => {
    sqs.faults.refuseBatches = true;
    try {
      await expect(holdBack(['a', 'b'], 1000, Date.now())).rejects.toThrow('SQS refused to hold back 2 of 2 messages (ThrottlingException)');
    } finally {
      sqs.faults.refuseBatches = false;
    }
  });

  it('throttling and a 5xx are retried by the SDK until SQS answers; a client error is not; a 5xx that persists fails after the SDK’s attempts', async () => {
    sqs.faults.errors.push([400, 'RequestThrottled'], [503, 'ServiceUnavailable']);
    await sendToDeadLetters(job(1), 'once');
    expect(sqs.calls.map((c) => c.action)).toEqual(['SendMessage', 'SendMessage', 'SendMessage']);

    sqs.calls.length = 0;
    sqs.faults.errors.push([400, 'InvalidParameterValue']);
    await expect(sendToDeadLetters(job(2), 'refused')).rejects.toMatchObject({ name: 'InvalidParameterValue', message: 'InvalidParameterValue it is' });
    expect(sqs.calls).toHaveLength(1);

    sqs.calls.length = 0;
    sqs.faults.errors.push(...Array.from({ length: CALL_BOUNDS.maxAttempts }, (): [number, string] => [500, 'InternalError']));
    await expect(sendToDeadLetters(job(3), 'down')).rejects.toMatchObject({
      name: 'InternalError',
      $metadata: { httpStatusCode: 500, attempts: CALL_BOUNDS.maxAttempts },
    });
    expect(sqs.calls).toHaveLength(CALL_BOUNDS.maxAttempts);
  });

  it('a batch SQS refuses in part throws, naming the count', async () => {
    sqs.faults.refuseBatches = true;
    try {
      await expect(sendJobs([job(1), job(2)])).rejects.toThrow('SQS refused 2 of 2 deliveries (ThrottlingException)');
    } finally {
      sqs.faults.refuseBatches = false;
    }
  });
});
