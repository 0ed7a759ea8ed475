// The webhook pipeline (docs/events.md): one function per row of lib/workers.ts, wired to its
// source — the table's stream (filtered to the item kinds that make events) and the SQS FIFO
// delivery queue — with its dead-letter queue and the stream's failure destination, each function
// holding only the grants its row asks for.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAX_ATTEMPTS } from '#lib/domain/delivery-schedule.ts';
import { EVENT_RECORD_FILTERS } from '#lib/store/stream-records.ts';
import { TABLE } from '#lib/store/table.ts';
import { WORKERS, type Worker, type WorkerSource } from '#lib/workers.ts';
import { PROJECT_ROOT } from './bundling.ts';
import { commonEnvironment, serviceFunction, serviceKeyEnvironment } from './service-function.ts';
import type { Settings } from './settings.ts';

/** Lambda timeouts: a stream batch fans out to SQS; a delivery batch is up to 10 POSTs of 5 s, one group after another. */
export const WORKER_TIMEOUT: Record<WorkerSource, Duration> = {
  tableStream: Duration.seconds(60),
  deliveryQueue: Duration.seconds(120),
  // A sweep ends a few seconds before this (functions/work/sweep.ts); what it leaves is the next run's.
  schedule: Duration.seconds(60),
};
/** Receives of one message before SQS moves it aside: the schedule's attempts plus room for faults of ours. */
export const MAX_RECEIVES = MAX_ATTEMPTS + 4;
const RETENTION = Duration.days(14);

export interface EventWorkersProps {
  settings: Settings;
  table: ITable;
  serviceKey: IKey;
  serviceSecret: ISecret;
  publicUrls: { appUrl: string; baseUrl: string };
}

export interface WorkerFunction {
  worker: Worker;
  fn: NodejsFunction;
}

export class EventWorkers extends Construct {
  readonly functions: WorkerFunction[] = [];
  /** SQS FIFO: one message per (subscription, event). */
  readonly deliveryQueue: Queue;
  /** Deliveries given up (after the last attempt, or for a paused subscription), with their reason. */
  readonly deadLetters: Queue;
  /** The stream's failure destination: batches the stream function could not handle within its retries. */
  readonly streamFailures: Queue;

  constructor(scope: Construct, id: string, props: EventWorkersProps) {
    super(scope, id);
    const { settings, table, serviceKey, serviceSecret, publicUrls } = props;

    const missing = WORKERS.filter((w) => !existsSync(join(PROJECT_ROOT, w.handler))).map((w) => `${w.id} → ${w.handler}`);
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
    for (const worker of WORKERS as readonly Worker[]) {
      const environment: Record<string, string> = { ...base, DELIVERY_QUEUE_URL: this.deliveryQueue.queueUrl };
      if (worker.source === 'deliveryQueue') environment.DELIVERY_DLQ_URL = this.deadLetters.queueUrl;
      if (worker.secret) Object.assign(environment, serviceKeyEnvironment(settings, serviceKey, serviceSecret));
      const { fn, role } = serviceFunction(this, worker.id, {
        settings,
        handler: worker.handler,
        description: `${worker.summary} (${worker.id})`,
        purpose: worker.summary,
        timeout: WORKER_TIMEOUT[worker.source],
        environment,
      });
      // Indexes by name rather than index/*: they are the ones lib/store/table.ts declares.
      const indexArns = worker.indexes ? TABLE.globalIndexes.map((g) => `${table.tableArn}/index/${g.name}`) : [];
      fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: [...worker.tableActions], resources: [table.tableArn, ...indexArns] }));
      if (worker.secret) {
        serviceSecret.grantRead(role);
        // Loading the service keys reads the signing key's public half; nothing here may sign.
        serviceKey.grant(role, 'kms:GetPublicKey');
      }
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
      case 'schedule':
        new Rule(this, `${worker.id}Schedule`, { schedule: Schedule.rate(Duration.minutes(worker.everyMinutes ?? 1)), targets: [new LambdaFunction(fn, { retryAttempts: 0 })] });
        return;
    }
  }
}
