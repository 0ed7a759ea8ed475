// THE worker table: functions that no route reaches. The CDK stack creates one function per row
// wired to its source (infra/event-workers.ts), and `npm start` runs each row's local stand-in
// in-process (local/workers.ts) over the same code.
export type WorkerSource =
  /** The table's stream (new and old images), filtered to the item kinds that make events. */
  | 'tableStream'
  /** The SQS FIFO delivery queue. */
  | 'deliveryQueue';

export interface Worker {
  id: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  handler: string;
  source: WorkerSource;
  /** Table access the function needs: least privilege in the stack. */
  table: 'read' | 'write';
  /** Decrypts webhook secrets, so it may read the service secret. */
  secret: boolean;
  summary: string;
}

const w = (worker: Worker): Worker => worker;

export const WORKERS = [
  w({ id: 'streamEvents', handler: 'functions/events/stream.ts', source: 'tableStream', table: 'read', secret: false, summary: 'Table stream → webhook events → delivery queue' }),
  w({ id: 'deliverWebhooks', handler: 'functions/events/deliver.ts', source: 'deliveryQueue', table: 'write', secret: true, summary: 'Delivery queue → signed POST to the subscriber, retries, dead letters' }),
] as const satisfies readonly Worker[];
