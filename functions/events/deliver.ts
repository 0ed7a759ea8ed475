// The delivery function: messages of the SQS FIFO delivery queue, each one attempt of one event for
// one subscription (lib/events/deliver.ts). Groups run side by side, each in its order; a message
// that must wait is held back for its retry wait and reported failed, and the messages behind it in
// its group are reported failed untried, so order holds. A delivery given up goes to the dead-letter
// queue (with its reason) and is removed from this one.
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { attemptDelivery } from '#lib/events/deliver.ts';
import type { DeliveryJob } from '#lib/events/delivery-job.ts';
import { holdBack, sendToDeadLetters } from '#lib/events/sqs.ts';
import { log } from '#lib/log.ts';

/** Attempts one group's messages in order; returns the ids of those to hand back. */
async function runGroup(records: SQSRecord[]): Promise<string[]> {
  for (const [i, record] of records.entries()) {
    const attempt = Number(record.attributes.ApproximateReceiveCount) || 1;
    let job: DeliveryJob | undefined;
    try {
      // A body that is no job can only fail again: the queue's redrive policy moves it aside.
      job = JSON.parse(record.body) as DeliveryJob;
      const outcome = await attemptDelivery(job, attempt);
      if (outcome.kind === 'retry') {
        await holdBack(record.receiptHandle, outcome.waitMs);
        log.info('webhook delivery failed; will retry', {
          eventId: job.eventId,
          subscriptionId: job.subscriptionId,
          attempt,
          waitMs: outcome.waitMs,
          reason: outcome.reason,
        });
        return records.slice(i).map((r) => r.messageId);
      }
      if (outcome.kind === 'dead') {
        await sendToDeadLetters(job, outcome.reason);
        log.warn('webhook delivery given up', { eventId: job.eventId, subscriptionId: job.subscriptionId, attempt, reason: outcome.reason });
      }
    } catch (error) {
      // A fault of ours: the message comes back after the queue's visibility timeout.
      log.error('webhook delivery failed inside the service', {
        eventId: job?.eventId,
        subscriptionId: job?.subscriptionId,
        messageId: record.messageId,
        attempt,
        error,
      });
      return records.slice(i).map((r) => r.messageId);
    }
  }
  return [];
}

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const groups = new Map<string, SQSRecord[]>();
  for (const r of event.Records) {
    const g = r.attributes.MessageGroupId ?? r.messageId;
    groups.set(g, [...(groups.get(g) ?? []), r]);
  }
  const failed = (await Promise.all([...groups.values()].map(runGroup))).flat();
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};
