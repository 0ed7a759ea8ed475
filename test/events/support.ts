// Test support for events: the real stream of the test table (DynamoDB Local), read by the same
// reader `npm start` uses, each record decoded and derived as the deployed stream function does.
import { inject } from 'vitest';
import { config } from '#lib/config.ts';
import { deriveEvents, type WebhookEvent } from '#lib/domain/events.ts';
import { decodeStreamRecord } from '#lib/store/stream-records.ts';
import { startStreamReader } from '../../local/stream-reader.ts';
import { startLocalWorkers } from '../../local/workers.ts';

export interface EventCollector {
  /** Events of one workspace, in the order the stream gave them. */
  of(workspaceId: string): WebhookEvent[];
  settled(): Promise<void>;
  stop(): Promise<void>;
}

export async function collectEvents(): Promise<EventCollector> {
  const seen: WebhookEvent[] = [];
  const reader = await startStreamReader({
    endpoint: inject('dynamodbEndpoint'),
    tableName: inject('tableName'),
    pollMs: 50,
    consume: async (records) => {
      for (const r of records) {
        const change = decodeStreamRecord(r);
        if (change) seen.push(...deriveEvents(change, config.baseUrl));
      }
    },
  });
  return {
    of: (ws) => seen.filter((e) => e.workspaceId === ws),
    settled: () => reader.settled(),
    stop: () => reader.stop(),
  };
}

/** `eventType id` lines of a workspace's events, sorted: a multiset to compare exactly. */
export const summary = (events: WebhookEvent[]) =>
  events
    .map(
      (e) =>
        `${e.eventType} ${e.payload.id}${e.payload.updatedAttributes ? ` [${e.payload.updatedAttributes.join(',')}]` : ''}${e.payload.score ? ` ${e.payload.score.old}→${e.payload.score.new}` : ''}${e.eventType.startsWith('insight.') ? ` ${e.payload.links.feature!.split('/').pop()}` : ''}`,
    )
    .sort();

/** `npm start`'s workers on the test table: stream reader, fan-out, local queue, delivery. */
export function startWorkers(options: Pick<Parameters<typeof startLocalWorkers>[0], 'onDead' | 'onRetry' | 'retryScale'> = {}) {
  return startLocalWorkers({ endpoint: inject('dynamodbEndpoint'), tableName: inject('tableName'), pollMs: 50, ...options });
}
