// The delivery function: messages of the SQS FIFO delivery queue, each one attempt of one event for
// one subscription (lib/events/deliver.ts). Groups run side by side, each in its order; a message
// that must wait is held back for its retry wait and reported failed, and the messages behind it in
// its group are held back as long and reported failed untried, so order holds and the group resumes
// when the wait is over. An attempt is counted by the delivery's record, not by SQS's receive count:
// a FIFO receive hands over the messages queued behind a failing one with it. A delivery given up
// goes to the dead-letter queue (with its reason) and is removed from this one.
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { attemptDelivery } from '#lib/events/deliver.ts';
import type { DeliveryJob } from '#lib/events/delivery-job.ts';
import { holdBack, sendToDeadLetters } from '#lib/events/sqs.ts';
import { log } from '#lib/log.ts';

/** Attempts one group's messages in order; returns the ids of those to hand back. `receivedAt`: when the batch arrived. */
async function runGroup(records: SQSRecord[], receivedAt: number): Promise<string[]> {
  for (const [i, record] of records.entries()) {
    let job: DeliveryJob | undefined;
    try {
      // A body that is no job can only fail again: the queue's redrive policy moves it aside.
      job = JSON.parse(record.body) as DeliveryJob;
      const outcome = await attemptDelivery(job);
      if (outcome.kind === 'retry') {
        const rest = records.slice(i);
        await holdBack(
          rest.map((r) => r.receiptHandle),
          outcome.waitMs,
          receivedAt,
        );
        log.info('webhook delivery failed; will retry', {
          eventId: job.eventId,
          subscriptionId: job.subscriptionId,
          attempt: outcome.attempt,
          waitMs: outcome.waitMs,
          reason: outcome.reason,
        });
        return rest.map((r) => r.messageId);
      }
      if (outcome.kind === 'dead') {
        await sendToDeadLetters(job, outcome.reason);
        log.warn('webhook delivery given up', { eventId: job.eventId, subscriptionId: job.subscriptionId, attempt: outcome.attempt, reason: outcome.reason });
      }
    } catch (error) {
      // A fault of ours: the message comes back after the queue's visibility timeout.
      log.error('webhook delivery failed inside the service', {
        eventId: job?.eventId,
        subscriptionId: job?.subscriptionId,
        messageId: record.messageId,
        receiveCount: Number(record.attributes.ApproximateReceiveCount),
        error,
      });
      return records.slice(i).map((r) => r.messageId);
    }
  }
  return [];
}

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const receivedAt = Date.now();
  const groups = new Map<string, SQSRecord[]>();
  for (const r of event.Records) {
    const g = r.attributes.MessageGroupId ?? r.messageId;
    groups.set(g, [...(groups.get(g) ?? []), r]);
  }
  const failed = (await Promise.all([...groups.values()].map((records) => runGroup(records, receivedAt)))).flat();
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};
