// The workers as a nested stack of their own: one function per row of the worker table it is given
// (lib/workers.ts), wired to its source — the table's stream (filtered to the item kinds that make
// events), the SQS FIFO delivery queue (docs/events.md) with its dead-letter queue and the stream's
// failure destination, or an EventBridge schedule — each function holding only the grants its row
// asks for.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, NestedStack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { MAX_ATTEMPTS } from '#lib/domain/delivery-schedule.ts';
import { EVENT_RECORD_FILTERS } from '#lib/store/stream-records.ts';
import { TABLE } from '#lib/store/table.ts';
import type { Worker } from '#lib/workers.ts';
import { PROJECT_ROOT } from './bundling.ts';
import { commonEnvironment, serviceFunction, serviceSecretEnvironment } from './service-function.ts';
import type { Settings } from './settings.ts';

/** Lambda timeouts: a stream batch fans out to SQS; a delivery batch is up to 10 POSTs of 5 s, one group after another. */
const WORKER_TIMEOUT = {
  tableStream: Duration.seconds(60),
  deliveryQueue: Duration.seconds(120),
};
/** Lambda's longest timeout, and the longest an asynchronous invocation may wait. */
const MAX_LAMBDA_TIMEOUT = Duration.minutes(15);
const MAX_ASYNC_EVENT_AGE = Duration.hours(6);

/** A worker's Lambda timeout; a scheduled run may take until the next one starts (at most Lambda's 15 minutes). */
function workerTimeout(worker: Worker): Duration {
  if (worker.source !== 'schedule') return WORKER_TIMEOUT[worker.source];
  return Duration.minutes(Math.min(worker.everyMinutes, MAX_LAMBDA_TIMEOUT.toMinutes()));
}
/**
 * Receives of one message before SQS moves it aside. A FIFO receive hands over the messages queued
 * behind a failing one with it (a batch holds 10), so a message can be received with each attempt of
 * the nine ahead of it before its own (the attempts themselves are counted by the delivery's record):
 * 9 × 8 + 8, and room for faults of ours.
 */
const MAX_RECEIVES = 9 * MAX_ATTEMPTS + MAX_ATTEMPTS + 20;
const RETENTION = Duration.days(14);

interface EventWorkersProps {
  settings: Settings;
  workers: readonly Worker[];
  table: ITable;
  serviceSecret: ISecret;
  publicUrls: { appUrl: string; baseUrl: string };
}

interface WorkerFunction {
  worker: Worker;
  fn: NodejsFunction;
}

export class EventWorkers extends NestedStack {
  readonly functions: WorkerFunction[] = [];
  /** SQS FIFO: one message per (subscription, event). */
  readonly deliveryQueue: Queue;
  /** Deliveries given up (after the last attempt, or for a paused subscription), with their reason. */
  readonly deadLetters: Queue;
  /** The stream's failure destination: batches the stream function could not handle within its retries. */
  readonly streamFailures: Queue;

  constructor(scope: Construct, id: string, props: EventWorkersProps) {
    super(scope, id, { description: `pm-api ${props.settings.stage}: the workers no route reaches (webhook events and deliveries, scheduled work)` });
    const { settings, workers, table, serviceSecret, publicUrls } = props;

    const missing = workers.filter((w) => !existsSync(join(PROJECT_ROOT, w.handler))).map((w) => `${w.id} → ${w.handler}`);
    if (missing.length > 0) throw new Error(`Handler modules named in lib/workers.ts do not exist:\n  ${missing.join('\n  ')}`);

    const queueBasics = { retentionPeriod: RETENTION, encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true };
    this.deadLetters = new Queue(this, 'DeadLetters', { ...queueBasics, fifo: true, contentBasedDeduplication: false });
    this.deliveryQueue = new Queue(this, 'Deliveries', {
      ...queueBasics,
      fifo: true,
      contentBasedDeduplication: false,
      // High throughput: deduplication and ordering per group (subscription and resource).
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      // Lambda's advice for an SQS source: six times the function's timeout.
      visibilityTimeout: Duration.seconds(WORKER_TIMEOUT.deliveryQueue.toSeconds() * 6),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: MAX_RECEIVES },
    });
    this.streamFailures = new Queue(this, 'StreamFailures', queueBasics);

    const base = commonEnvironment(settings, table.tableName, publicUrls);
    for (const worker of workers) {
      if (worker.source === 'schedule' && !(Number.isInteger(worker.everyMinutes) && worker.everyMinutes >= 1 && worker.everyMinutes <= 1440)) {
        throw new Error(`lib/workers.ts ${worker.id}: everyMinutes must be a whole number of minutes from 1 to 1440, not ${worker.everyMinutes}`);
      }
      // The queue's URL to the two that use it: the stream worker sends to it, the delivery worker hands jobs back.
      const environment: Record<string, string> = worker.source === 'schedule' ? { ...base } : { ...base, DELIVERY_QUEUE_URL: this.deliveryQueue.queueUrl };
      if (worker.source === 'deliveryQueue') environment.DELIVERY_DLQ_URL = this.deadLetters.queueUrl;
      if (worker.secret) Object.assign(environment, serviceSecretEnvironment(settings, serviceSecret));
      const { fn, role } = serviceFunction(this, worker.id, {
        settings,
        handler: worker.handler,
        description: `${worker.summary} (${worker.id})`,
        purpose: worker.summary,
        timeout: workerTimeout(worker),
        environment,
      });
      // Indexes by name rather than index/*: they are the ones lib/store/table.ts declares.
      const indexArns = worker.indexes ? TABLE.globalIndexes.map((g) => `${table.tableArn}/index/${g.name}`) : [];
      fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: [...worker.tableActions], resources: [table.tableArn, ...indexArns] }));
      // The secret alone: no worker checks or mints a token, so none is given the key.
      if (worker.secret) serviceSecret.grantRead(role);
      this.wire(worker, fn, table);
      this.functions.push({ worker, fn });
    }
  }

  private wire(worker: Worker, fn: NodejsFunction, table: ITable): void {
    switch (worker.source) {
      case 'tableStream':
        fn.addEventSource(
          new DynamoEventSource(table, {
            // Subscriptions see changes from their creation on; a new mapping does not replay the last 24 h.
            startingPosition: StartingPosition.LATEST,
            batchSize: 100,
            maxBatchingWindow: Duration.seconds(1),
            reportBatchItemFailures: true,
            bisectBatchOnError: true,
            retryAttempts: 10,
            onFailure: new SqsDlq(this.streamFailures),
            filters: EVENT_RECORD_FILTERS.map((pattern) => FilterCriteria.filter(pattern)),
          }),
        );
        this.deliveryQueue.grantSendMessages(fn);
        return;
      case 'deliveryQueue':
        // Consuming includes ChangeMessageVisibility: a failed delivery waits its retry time in the queue.
        fn.addEventSource(new SqsEventSource(this.deliveryQueue, { batchSize: 10, reportBatchItemFailures: true }));
        this.deadLetters.grantSendMessages(fn);
        return;
      case 'schedule': {
        const every = Duration.minutes(worker.everyMinutes);
        // A run that failed, or could not start before the next one is due, is not repeated: the
        // next run does the same work (a scheduled worker must be idempotent), so runs never pile up.
        fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(Math.min(worker.everyMinutes, MAX_ASYNC_EVENT_AGE.toMinutes())) });
        new Rule(this, `${worker.id}Schedule`, {
          description: `Runs ${worker.id} every ${worker.everyMinutes} minute(s)`,
          schedule: Schedule.rate(every),
          targets: [new LambdaFunction(fn, { maxEventAge: every })],
        });
        return;
      }
    }
  }
}
