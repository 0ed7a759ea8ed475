// The deployed delivery queue (SQS FIFO, infra/event-workers.ts): sending jobs in order, holding a
// failed message back for its retry wait (its visibility timeout), and putting a given-up delivery
// on the dead-letter queue. Locally, local/delivery-queue.ts stands in for all of it. The calls go
// through the SDK's SQS client, one per process, bounded as every AWS call is (lib/aws-clients.ts);
// each send carries a deduplication id, so the SDK's retries of it are safe.
import { ChangeMessageVisibilityBatchCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { deduplicationId, messageGroupId, type DeliveryJob } from './delivery-job.ts';
import { bounded, clientBounds } from '../aws-clients.ts';
import { config } from '../config.ts';

/** SQS's longest visibility timeout: the longest one wait can be. */
const MAX_VISIBILITY_SECONDS = 12 * 60 * 60;
const BATCH = 10;

let client: SQSClient | undefined;
const sqs = () => (client ??= new SQSClient({ region: config.region, ...clientBounds() }));

const required = (value: string | undefined, name: string) => {
  if (!value) throw new Error(`${name} is not configured`);
  return value;
};

/** Sends jobs in order, ten per request; throws unless every one was accepted. */
export async function sendJobs(jobs: DeliveryJob[]): Promise<void> {
  const queueUrl = required(config.deliveryQueueUrl, 'DELIVERY_QUEUE_URL');
  for (let i = 0; i < jobs.length; i += BATCH) {
    const batch = jobs.slice(i, i + BATCH);
    const command = new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: batch.map((job, j) => ({
        Id: String(j),
        MessageBody: JSON.stringify(job),
        MessageGroupId: messageGroupId(job),
        MessageDeduplicationId: deduplicationId(job),
      })),
    });
    const out = await bounded((options) => sqs().send(command, options));
    if (out.Failed?.length) throw new Error(`SQS refused ${out.Failed.length} of ${batch.length} deliveries (${out.Failed[0]!.Code ?? 'unknown'})`);
  }
}

/**
 * SQS keeps a received message out of sight at most 12 hours from its receive, and refuses a
 * ChangeMessageVisibility that asks for longer (Amazon SQS API Reference, ChangeMessageVisibility).
 * The receive came before the invocation (`receivedAt`); this margin covers the event source's
 * hand-over between the two.
 */
const RECEIVE_MARGIN_MS = 5 * 60 * 1000;

/**
 * Keeps received messages (one group's, in order) out of sight for `waitMs` (the next attempt), but
 * within what SQS allows since `receivedAt`: a longer wait is cut to it, and the attempt comes sooner.
 */
export async function holdBack(receiptHandles: string[], waitMs: number, receivedAt: number): Promise<void> {
  const allowedMs = MAX_VISIBILITY_SECONDS * 1000 - (Date.now() - receivedAt) - RECEIVE_MARGIN_MS;
  const seconds = Math.max(0, Math.ceil(Math.min(waitMs, allowedMs) / 1000));
  const queueUrl = required(config.deliveryQueueUrl, 'DELIVERY_QUEUE_URL');
  for (let i = 0; i < receiptHandles.length; i += BATCH) {
    const command = new ChangeMessageVisibilityBatchCommand({
      QueueUrl: queueUrl,
      Entries: receiptHandles.slice(i, i + BATCH).map((ReceiptHandle, j) => ({ Id: String(j), ReceiptHandle, VisibilityTimeout: seconds })),
    });
    const out = await bounded((options) => sqs().send(command, options));
    if (out.Failed?.length)
      throw new Error(`SQS refused to hold back ${out.Failed.length} of ${command.input.Entries!.length} messages (${out.Failed[0]!.Code ?? 'unknown'})`);
  }
}

/** Puts a delivery that will not be tried again on the dead-letter queue, with the reason. */
export async function sendToDeadLetters(job: DeliveryJob, reason: string): Promise<void> {
  const command = new SendMessageCommand({
    QueueUrl: required(config.deadLetterQueueUrl, 'DELIVERY_DLQ_URL'),
    MessageBody: JSON.stringify(job),
    MessageGroupId: messageGroupId(job),
    MessageDeduplicationId: deduplicationId(job),
    MessageAttributes: { reason: { DataType: 'String', StringValue: reason.slice(0, 1000) } },
  });
  await bounded((options) => sqs().send(command, options));
}
