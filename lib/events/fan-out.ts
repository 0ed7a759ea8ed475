// From stream records to queued deliveries — the same code behind the deployed stream function
// (functions/events/stream.ts) and `npm start` (local/workers.ts): each record decoded into a
// typed change, its events derived, and every active subscription of the change's own workspace
// that asked for an event's type gets one delivery job. Records are handled in stream order and the
// jobs of one record are handed over before the next record is read, so a failure part-way leaves
// a clean point to resume from (the failed record); jobs sent twice are ended by the queue's
// deduplication and the delivery records.
import type { DynamoDBRecord } from 'aws-lambda';
import type { DeliveryJob } from './delivery-job.ts';
import { deriveEvents } from '../domain/events.ts';
import { decodeStreamRecord } from '../store/stream-records.ts';
import { webhooksOf, type StoredWebhook } from '../store/webhooks.ts';

type JobSink = (jobs: DeliveryJob[]) => Promise<void>;

interface FanOutResult {
  jobs: number;
  /** The sequence number of the record that failed (it and everything after it must be handed over again). */
  failedAt?: string;
  error?: unknown;
}

export async function fanOut(records: DynamoDBRecord[], sink: JobSink, baseUrl: string): Promise<FanOutResult> {
  // One read of a workspace's subscriptions per batch: a change made in a batch sees them as of its start.
  const subscriptions = new Map<string, Promise<StoredWebhook[]>>();
  let sent = 0;
  for (const record of records) {
    try {
      const change = decodeStreamRecord(record);
      if (!change) continue;
      const events = deriveEvents(change, baseUrl);
      if (events.length === 0) continue;
      let subs = subscriptions.get(change.workspaceId);
      if (!subs) {
        subs = webhooksOf(change.workspaceId);
        subscriptions.set(change.workspaceId, subs);
      }
      const jobs: DeliveryJob[] = [];
      for (const event of events) {
        for (const sub of await subs) {
          if (sub.status !== 'active' || !sub.events.includes(event.eventType)) continue;
          jobs.push({ workspaceId: event.workspaceId, subscriptionId: sub.id, eventId: event.id, orderingKey: event.orderingKey, payload: event.payload });
        }
      }
      if (jobs.length > 0) await sink(jobs);
      sent += jobs.length;
    } catch (error) {
      return { jobs: sent, failedAt: record.dynamodb?.SequenceNumber ?? record.eventID ?? '', error };
    }
  }
  return { jobs: sent };
}
