// The deployed delivery queue (SQS FIFO, infra/event-workers.ts): sending jobs in order, holding a
// failed message back for its retry wait (its visibility timeout), and putting a given-up delivery
// on the dead-letter queue. Locally, local/delivery-queue.ts stands in for all of it. The calls go
// through the SDK's SQS client, one per process, bounded as every AWS call is (lib/aws-clients.ts);
// each send carries a deduplication id, so the SDK's retries of it are safe.
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
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

/** Keeps a received message out of sight for `waitMs` (its next attempt). */
export async function holdBack(receiptHandle: string, waitMs: number): Promise<void> {
  const seconds = Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.ceil(waitMs / 1000)));
  const command = new ChangeMessageVisibilityCommand({
    QueueUrl: required(config.deliveryQueueUrl, 'DELIVERY_QUEUE_URL'),
    ReceiptHandle: receiptHandle,
    VisibilityTimeout: seconds,
  });
  await bounded((options) => sqs().send(command, options));
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
