// `npm start`'s stand-ins for the workers of lib/workers.ts, in-process over the same code the
// deployed functions run: DynamoDB Local's stream read by local/stream-reader.ts and fanned out
// (lib/events/fan-out.ts) into local/delivery-queue.ts, whose messages are attempted by
// lib/events/deliver.ts with the same retry schedule (a caller may compress it: `retryScale`);
// the schedule's sweeper of pending work (lib/store/sweep.ts) on a timer.
import { config } from '#lib/config.ts';
import { nextWaitMs } from '#lib/domain/delivery-schedule.ts';
import { attemptDelivery } from '#lib/events/deliver.ts';
import { deduplicationId, messageGroupId, type DeliveryJob } from '#lib/events/delivery-job.ts';
import { fanOut } from '#lib/events/fan-out.ts';
import { log } from '#lib/log.ts';
import { sweep } from '#lib/store/sweep.ts';
import { WORKERS, type WorkerSource } from '#lib/workers.ts';
import { LocalDeliveryQueue, type DeadLetter } from './delivery-queue.ts';
import { startStreamReader, type StreamReader } from './stream-reader.ts';

export interface LocalWorkers {
  queue: LocalDeliveryQueue<DeliveryJob>;
  /** Resolves when everything written so far has been read from the stream and every resulting delivery is done or dead. */
  settled(): Promise<void>;
  /** Stops both; returns how many deliveries were still pending. */
  stop(): Promise<number>;
}

const unknownSource = (source: never): never => {
  throw new Error(`No local stand-in for worker source ${String(source)}`);
};

export async function startLocalWorkers(options: {
  endpoint: string;
  tableName: string;
  pollMs?: number;
  onDead?: (letter: DeadLetter<DeliveryJob>) => void;
  /** Told of every failed attempt that will be retried (after it is logged). */
  onRetry?: (job: DeliveryJob, attempt: number | undefined) => void;
  /** Compresses the retry schedule (0–1), read at each retry; the real schedule unless given (`npm start`). */
  retryScale?: () => number;
}): Promise<LocalWorkers> {
  const initialScale = options.retryScale?.();
  if (initialScale !== undefined && !(initialScale >= 0 && initialScale <= 1)) throw new RangeError(`retryScale must be from 0 to 1, not ${initialScale}`);
  const scale = () => (options.retryScale ? { scale: options.retryScale() } : {});
  // The deliveryQueue worker's stand-in: messages attempted by lib/events/deliver.ts.
  const queue = new LocalDeliveryQueue<DeliveryJob>({
    attempt: async (job) => {
      const outcome = await attemptDelivery(job, scale());
      if (outcome.kind === 'retry') {
        log.info('webhook delivery failed; will retry', {
          eventId: job.eventId,
          subscriptionId: job.subscriptionId,
          attempt: outcome.attempt,
          waitMs: outcome.waitMs,
          reason: outcome.reason,
        });
        options.onRetry?.(job, outcome.attempt);
        return { kind: 'retry', waitMs: outcome.waitMs };
      }
      if (outcome.kind === 'dead') return { kind: 'dead', reason: outcome.reason };
      return { kind: 'done' };
    },
    waitAfterFault: (attempt) => nextWaitMs(attempt, scale()),
    onDead: (letter) => {
      log.warn('webhook delivery given up (dead-letter store)', {
        eventId: letter.body.eventId,
        subscriptionId: letter.body.subscriptionId,
        attempts: letter.attempts,
        reason: letter.reason,
      });
      options.onDead?.(letter);
    },
    onFault: (error) => log.error('webhook delivery failed inside the service', { error }),
  });
  let reader: StreamReader | undefined;
  const scheduled: Array<{ stop: () => Promise<void> }> = [];
  const startStream = () =>
    startStreamReader({
      endpoint: options.endpoint,
      tableName: options.tableName,
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
      consume: async (records) => {
        const enqueue = (jobs: DeliveryJob[]) =>
          Promise.resolve(queue.send(jobs.map((body) => ({ groupId: messageGroupId(body), dedupId: deduplicationId(body), body }))));
        const result = await fanOut(records, enqueue, config.baseUrl);
        // The reader hands the whole batch over again; what was already queued is deduplicated.
        if (result.failedAt !== undefined) throw result.error;
      },
      onError: (error) => log.error('stream records failed; reading them again', { error }),
    });
  for (const worker of WORKERS) {
    const source: WorkerSource = worker.source;
    switch (source) {
      case 'deliveryQueue':
        break; // the queue above
      case 'tableStream':
        reader = await startStream();
        break;
      case 'schedule': {
        const standIn = SCHEDULED[worker.id];
        if (!standIn) throw new Error(`No local stand-in for the scheduled worker ${worker.id}`);
        scheduled.push(standIn());
        break;
      }
      default:
        unknownSource(source);
    }
  }
  return {
    queue,
    settled: async () => {
      await reader?.settled();
      await queue.idle();
    },
    stop: async () => {
      await Promise.all(scheduled.map((s) => s.stop()));
      await reader?.stop();
      return queue.stop();
    },
  };
}

/** The stand-ins of the `schedule` rows of lib/workers.ts, by id: each a timer, started at once. */
const SCHEDULED: Record<string, () => { stop: () => Promise<void> }> = {
  sweepPendingWork: () => startSweeper(),
};

/**
 * The sweeper's stand-in: a sweep (lib/store/sweep.ts) at start, then one every
 * SWEEP_INTERVAL_MS after the last one ended, each for at most SWEEP_CHUNK_MS.
 */
function startSweeper(): { stop: () => Promise<void> } {
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = sweep({ until: Date.now() + config.sweepChunkMs, signal: stopping.signal })
      .then((report) => {
        if (report.finished + report.handedBack + report.failed > 0) log.info('sweep done', { ...report });
      })
      .catch((error: unknown) => log.error('sweep failed; the next one tries again', { error }))
      .finally(() => {
        if (!stopping.signal.aborted) timer = setTimeout(run, config.sweepIntervalMs);
      });
  };
  run();
  return {
    stop: async () => {
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
