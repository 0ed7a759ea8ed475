// Every DynamoDB call of the store, through the document client of ./client.ts (native values in
// and out, numbers as JS numbers), each bounded as lib/aws-clients.ts says: the client's timeouts,
// the request's abort signal, the SDK's retries within the request's deadline. Throttling that
// outlasts those retries is Contention (429 with Retry-After: nothing was written), never a 500.
import { randomUUID } from 'node:crypto';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type BatchGetCommandInput,
  type BatchWriteCommandInput,
  type DeleteCommandInput,
  type GetCommandInput,
  type PutCommandInput,
  type QueryCommandInput,
  type ScanCommandInput,
  type TransactGetCommandInput,
  type TransactWriteCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { isThrottlingError } from '@smithy/core/retry';
import type { HttpHandlerOptions, SdkError } from '@smithy/types';
import { db } from './client.ts';
import { Contention, RecordFull, itemTooLargeAt } from './errors.ts';
import { describeKey } from './keys.ts';
import { tableName } from './table.ts';
import { bounded } from '../aws-clients.ts';

/** A throttled call after the SDK's own retries: the table's, so the workspace's, contention. */
export const THROTTLED = 'this workspace (the table is throttling requests)';

type ItemKey = { pk?: unknown; sk?: unknown } | undefined;

/**
 * One call of `operation`, bounded (lib/aws-clients.ts); throttling that outlasted the SDK's retries
 * becomes Contention, and a write refused for an item's size RecordFull, naming the item `keyAt`
 * gives for the index DynamoDB reports (./errors.ts itemTooLargeAt).
 */
async function call<O>(operation: string, send: (options: HttpHandlerOptions) => Promise<O>, keyAt?: (index: number) => ItemKey): Promise<O> {
  try {
    return await bounded(send);
  } catch (err) {
    const e = err as SdkError;
    if (typeof e?.name === 'string' && isThrottlingError(e)) throw new Contention(operation, THROTTLED, e.$metadata?.attempts ?? 1, 1, err);
    const tooLarge = keyAt && itemTooLargeAt(err);
    if (tooLarge !== undefined) throw new RecordFull(describeKey(keyAt!(tooLarge)), err);
    // A body that is not DynamoDB's JSON (an HTML error page from something in the way): the SDK
    // retried it by its status; say what happened rather than how parsing it failed.
    if (err instanceof SyntaxError && e.$metadata?.httpStatusCode) {
      const { httpStatusCode: status, attempts = 1 } = e.$metadata;
      throw Object.assign(new Error(`DynamoDB ${operation} answered ${status} with a body that is not DynamoDB's (${attempts} attempts)`, { cause: err }), {
        name: 'UnreadableAnswer',
        $fault: status >= 500 ? 'server' : 'client',
        $metadata: e.$metadata,
      });
    }
    throw err;
  }
}

export const getItem = (input: GetCommandInput) => call('GetItem', (o) => db().send(new GetCommand(input), o));
export const putItem = (input: PutCommandInput) =>
  call(
    'PutItem',
    (o) => db().send(new PutCommand(input), o),
    () => input.Item,
  );
export const updateItem = (input: UpdateCommandInput) =>
  call(
    'UpdateItem',
    (o) => db().send(new UpdateCommand(input), o),
    () => input.Key,
  );
export const deleteItem = (input: DeleteCommandInput) => call('DeleteItem', (o) => db().send(new DeleteCommand(input), o));
/** One page of a Query. */
export const queryPage = (input: QueryCommandInput) => call('Query', (o) => db().send(new QueryCommand(input), o));
/** One page of a Scan. */
const scanPage = (input: ScanCommandInput) => call('Scan', (o) => db().send(new ScanCommand(input), o));
/** One BatchGetItem; the caller retries what it leaves unprocessed (lib/store/batch.ts untilProcessed). */
const batchGet = (input: BatchGetCommandInput) => call('BatchGetItem', (o) => db().send(new BatchGetCommand(input), o));
/** One BatchWriteItem; the caller retries what it leaves unprocessed (lib/store/batch.ts untilProcessed). */
export const batchWrite = (input: BatchWriteCommandInput) => call('BatchWriteItem', (o) => db().send(new BatchWriteCommand(input), o));
/** One TransactGetItems: up to 100 items read as of one moment (the caller retries a cancelled one). */
export const transactGet = (input: TransactGetCommandInput) => call('TransactGetItems', (o) => db().send(new TransactGetCommand(input), o));
/**
 * One TransactWriteItems (lib/store/tx.ts retries it from fresh reads). Its ClientRequestToken is
 * made here once, so every attempt of the SDK's retries sends the same one: a retry of a commit
 * whose answer was lost (a timeout, a dropped connection, a 5xx) is not applied twice.
 */
export const transactWrite = async (input: TransactWriteCommandInput): Promise<void> =>
  void (await call(
    'TransactWriteItems',
    (o) => db().send(new TransactWriteCommand({ ClientRequestToken: randomUUID(), ...input }), o),
    (index) => tooLargeItemKey(input, index),
  ));

/** A TransactWriteItems item of the document client's shape (native values). */
export type TxItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The key of the item a transaction item puts, updates, deletes or checks. */
export const txItemKey = (item: TxItem) =>
  (item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key) as { pk: string; sk: string } | undefined;

/**
 * The key of a transaction's item `index`; for a transaction refused as a whole for an item's size
 * (index -1: DynamoDB names none), the key of its largest item, the one that carries the bulk.
 */
function tooLargeItemKey({ TransactItems: items = [] }: TransactWriteCommandInput, index: number): ItemKey {
  const size = (item: TxItem) => JSON.stringify(item).length;
  const item = items[index] ?? items.reduce<TxItem | undefined>((a, b) => (a && size(a) >= size(b) ? a : b), undefined);
  return item && txItemKey(item);
}

/**
 * Every page of a Query (or a Scan) from `input`'s ExclusiveStartKey on, each page's items as they
 * come; each page is one call of this module, so it is bounded like any other.
 */
export async function* queryPages(input: QueryCommandInput): AsyncGenerator<Array<Record<string, unknown>>> {
  yield* pages(queryPage, input);
}
export async function* scanPages(input: ScanCommandInput): AsyncGenerator<Array<Record<string, unknown>>> {
  yield* pages(scanPage, input);
}
async function* pages<I extends { ExclusiveStartKey?: Record<string, unknown> | undefined }>(
  read: (input: I) => Promise<{ Items?: Array<Record<string, unknown>>; LastEvaluatedKey?: Record<string, unknown> }>,
  input: I,
): AsyncGenerator<Array<Record<string, unknown>>> {
  for (let start = input.ExclusiveStartKey; ;) {
    const page = await read(start ? { ...input, ExclusiveStartKey: start } : input);
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
    if (!start) return;
  }
}

/** How a BatchGetItem reads its keys: BatchGetItem's own parameters beside `Keys`. */
interface BatchRead {
  ConsistentRead?: boolean;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}

/** One BatchGetItem of `keys` in the table: the items found and the keys DynamoDB left unprocessed (lib/store/batch.ts retries them). */
export async function batchGetOnce(
  keys: Array<Record<string, unknown>>,
  read: BatchRead,
): Promise<{ items: Array<Record<string, unknown>>; unprocessed: Array<Record<string, unknown>> }> {
  const table = tableName();
  const out = await batchGet({ RequestItems: { [table]: { Keys: keys, ...read } } });
  return { items: out.Responses?.[table] ?? [], unprocessed: out.UnprocessedKeys?.[table]?.Keys ?? [] };
}
