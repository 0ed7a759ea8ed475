// The deployed delivery queue (SQS FIFO, infra/event-workers.ts): sending jobs in order, holding a
// failed message back for its retry wait (its visibility timeout), and putting a given-up delivery
// on the dead-letter queue. Locally, local/delivery-queue.ts stands in for all of it. SQS speaks
// the AWS JSON protocol (1.0), so its three calls go through lib/auth/aws-json.ts like KMS's: the
// SDK's SQS client would carry its credential chain and middleware stack (about 300 KiB) into both
// event workers' cold starts (docs/performance.md, "Cold start").
import { deduplicationId, messageGroupId, type DeliveryJob } from './deliver.ts';
import { awsJsonCall, type AwsJsonCall, type AwsJsonService } from '../auth/aws-json.ts';
import { config } from '../config.ts';

/** SQS's longest visibility timeout: the longest one wait can be. */
export const MAX_VISIBILITY_SECONDS = 12 * 60 * 60;
const BATCH = 10;

const SQS: AwsJsonService = { name: 'sqs', targetPrefix: 'AmazonSQS', endpointEnv: 'SQS', jsonVersion: '1.0' };
let call: AwsJsonCall | undefined;
const sqs = (operation: string, input: Record<string, unknown>) => (call ??= awsJsonCall(config.region))(SQS, operation, input);

const required = (value: string | undefined, name: string) => {
  if (!value) throw new Error(`${name} is not configured`);
  return value;
};

/** Sends jobs in order, ten per request; throws unless every one was accepted. */
export async function sendJobs(jobs: DeliveryJob[]): Promise<void> {
  const queueUrl = required(config.deliveryQueueUrl, 'DELIVERY_QUEUE_URL');
  for (let i = 0; i < jobs.length; i += BATCH) {
    const batch = jobs.slice(i, i + BATCH);
    const out = (await sqs('SendMessageBatch', {
      QueueUrl: queueUrl,
      Entries: batch.map((job, j) => ({
        Id: String(j),
        MessageBody: JSON.stringify(job),
        MessageGroupId: messageGroupId(job),
        MessageDeduplicationId: deduplicationId(job),
      })),
    })) as { Failed?: Array<{ Code?: string }> };
    if (out.Failed?.length) throw new Error(`SQS refused ${out.Failed.length} of ${batch.length} deliveries (${out.Failed[0]!.Code ?? 'unknown'})`);
  }
}

/** Keeps a received message out of sight for `waitMs` (its next attempt). */
export async function holdBack(receiptHandle: string, waitMs: number): Promise<void> {
  const seconds = Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.ceil(waitMs / 1000)));
  await sqs('ChangeMessageVisibility', { QueueUrl: required(config.deliveryQueueUrl, 'DELIVERY_QUEUE_URL'), ReceiptHandle: receiptHandle, VisibilityTimeout: seconds });
}

/** Puts a delivery that will not be tried again on the dead-letter queue, with the reason. */
export async function sendToDeadLetters(job: DeliveryJob, reason: string): Promise<void> {
  await sqs('SendMessage', {
    QueueUrl: required(config.deadLetterQueueUrl, 'DELIVERY_DLQ_URL'),
    MessageBody: JSON.stringify(job),
    MessageGroupId: messageGroupId(job),
    MessageDeduplicationId: deduplicationId(job),
    MessageAttributes: { reason: { DataType: 'String', StringValue: reason.slice(0, 1000) } },
  });
}
