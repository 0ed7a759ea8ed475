// THE worker table: functions that no route reaches. The CDK stack creates one function per row
// wired to its source (infra/event-workers.ts), and `npm start` runs each row's local stand-in
// in-process (local/workers.ts) over the same code.
export type WorkerSource =
  /** The table's stream (new and old images), filtered to the item kinds that make events. */
  | 'tableStream'
  /** The SQS FIFO delivery queue. */
  | 'deliveryQueue'
  /** A timer: an EventBridge rule invokes the function every `everyMinutes` minutes. */
  | 'schedule';

/**
 * DynamoDB actions a worker may use, on the table's own items (and on its indexes when the row says
 * `indexes`). IAM has no action for a transaction: TransactWriteItems is allowed by the actions of
 * the items it holds (PutItem, UpdateItem, DeleteItem, ConditionCheckItem), TransactGetItems by GetItem.
 */
type WorkerTableAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:Query'
  | 'dynamodb:Scan'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:BatchWriteItem'
  | 'dynamodb:ConditionCheckItem';

interface WorkerRow {
  id: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  handler: string;
  /** Exactly the table actions the function needs: least privilege in the stack. */
  tableActions: readonly WorkerTableAction[];
  /** Whether it queries the table's indexes too. */
  indexes?: boolean;
  /** Decrypts webhook secrets, so it may read the service secret. */
  secret: boolean;
  summary: string;
}

export type Worker = WorkerRow &
  (
    | { source: 'tableStream' | 'deliveryQueue' }
    | {
        source: 'schedule';
        /**
         * Minutes between two runs (whole, 1 to 1440): the rule's rate. A run may take as long (at
         * most Lambda's 15 minutes), and one that fails is not retried: the next run does its work.
         */
        everyMinutes: number;
      }
  );

const w = (worker: Worker): Worker => worker;

export const WORKERS = [
  // Reads a workspace's subscriptions (one Query) to match events against.
  w({
    id: 'streamEvents',
    handler: 'functions/events/stream.ts',
    source: 'tableStream',
    tableActions: ['dynamodb:Query'],
    secret: false,
    summary: 'Table stream to webhook events, queued per subscription',
  }),
  // Reads a subscription and a delivery record; updates delivery records and the subscription's failure count and status.
  w({
    id: 'deliverWebhooks',
    handler: 'functions/events/deliver.ts',
    source: 'deliveryQueue',
    tableActions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
    secret: true,
    summary: 'Delivery queue to signed POSTs, with retries and dead letters',
  }),
  // Finishes pending work (lib/store/sweep.ts): reads what is due (GSI1), entities, links and notes
  // (GSI2 and the table), and writes marks, notes' customers and copies, deletes, the items of the work.
  w({
    id: 'sweepPendingWork',
    handler: 'functions/work/sweep.ts',
    source: 'schedule',
    everyMinutes: 1,
    tableActions: [
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:ConditionCheckItem',
    ],
    indexes: true,
    secret: false,
    summary: 'Finishes pending work: subtree clean-ups and stepwise note changes left by their requests',
  }),
] as const satisfies readonly Worker[];
