// One message of the delivery queue and its identities on the queue: what the stream's fan-out
// (./fan-out.ts, ./sqs.ts) and the delivery (./deliver.ts) share. Apart from the delivery's code, so
// the stream's function carries neither it nor the service secret it reads.
import type { EventPayload } from '../domain/events.ts';

/** One message of the delivery queue: an event for one subscription. */
export interface DeliveryJob {
  workspaceId: string;
  subscriptionId: string;
  /** The Standard Webhooks message id (webhook-id), the same on every attempt. */
  eventId: string;
  /** Messages with the same group go out in order (FIFO MessageGroupId). */
  orderingKey: string;
  payload: EventPayload;
}

export const messageGroupId = (job: DeliveryJob) => `${job.subscriptionId}:${job.orderingKey}`;
export const deduplicationId = (job: DeliveryJob) => `${job.subscriptionId}:${job.eventId}`;
