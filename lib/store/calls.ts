// Every DynamoDB call of the store, in the document client's shapes (native values in and out,
// numbers as JS numbers). They go out through the lean sender (./sender.ts) unless something watches
// the document client of ./client.ts — a middleware or a replaced `send`: the tests' recorders and
// injected faults, the benches' captures — and then through that client, so the watcher sees every
// call (./calls-sdk.ts). Deployed bundles carry no SDK client at all (infra/bundling.ts aliases
// ./calls-sdk.ts and lib/aws-credentials.ts away): its ~300 KiB parse is most of a cold start.
import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  ScanCommandOutput,
  TransactGetCommandInput,
  TransactGetCommandOutput,
  TransactWriteCommandInput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { awsCredentials } from '#lib/aws-credentials.ts';
import { sdkCalls } from '#lib/store/calls-sdk.ts';
import { leanSender, type NativeTxItem, type Operation, type Send } from './sender.ts';
import { tableName } from './table.ts';
import { config } from '../config.ts';


let made: { key: string; send: Send } | undefined;

/** The lean sender of the configured endpoint (DYNAMODB_ENDPOINT: DynamoDB Local) and region, made once per pair. */
function lean(): Send {
  const endpoint = config.dynamodbEndpoint;
  const key = `${endpoint ?? ''}|${config.region}`;
  if (made?.key !== key) made = { key, send: leanSender({ endpoint, region: config.region, credentials: endpoint ? config.localDynamodbCredentials : awsCredentials() }) };
  return made.send;
}

const send = (operation: Operation, input: object): Promise<unknown> =>
  sdkCalls?.observed() ? sdkCalls.send(operation, input as Record<string, unknown>) : lean()(operation, input as Record<string, unknown>);

/** An output without the SDK's `$metadata` (the lean sender has no use for it). */
type Out<T> = Omit<T, '$metadata'>;

export const getItem = (input: GetCommandInput) => send('GetItem', input) as Promise<Out<GetCommandOutput>>;
export const putItem = (input: PutCommandInput) => send('PutItem', input) as Promise<Out<PutCommandOutput>>;
export const updateItem = (input: UpdateCommandInput) => send('UpdateItem', input) as Promise<Out<UpdateCommandOutput>>;
export const deleteItem = (input: DeleteCommandInput) => send('DeleteItem', input) as Promise<Out<DeleteCommandOutput>>;
/** One page of a Query. */
export const queryPage = (input: QueryCommandInput) => send('Query', input) as Promise<Out<QueryCommandOutput>>;
/** One page of a Scan. */
export const scanPage = (input: ScanCommandInput) => send('Scan', input) as Promise<Out<ScanCommandOutput>>;
/** One BatchGetItem; the caller retries what it leaves unprocessed (lib/store/batch.ts). */
export const batchGet = (input: BatchGetCommandInput) => send('BatchGetItem', input) as Promise<Out<BatchGetCommandOutput>>;
/** One BatchWriteItem; the caller retries what it leaves unprocessed (lib/store/batch.ts). */
export const batchWrite = (input: BatchWriteCommandInput) => send('BatchWriteItem', input) as Promise<Out<BatchWriteCommandOutput>>;
/** One TransactWriteItems (lib/store/tx.ts retries it). */
export const transactWrite = async (input: TransactWriteCommandInput): Promise<void> => void (await send('TransactWriteItems', input));
/** One TransactGetItems: up to 100 items read as of one moment (the caller retries a cancelled one). */
export const transactGet = (input: TransactGetCommandInput) => send('TransactGetItems', input) as Promise<Out<TransactGetCommandOutput>>;

/**
 * Every page of a Query (or a Scan) from `input`'s ExclusiveStartKey on, each page's items as they
 * come. The layer's own loop, not lib-dynamodb's paginators: those call an SDK client's `send`,
 * which the lean path has none of.
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
  for (let start = input.ExclusiveStartKey; ; ) {
    const page = await read(start ? { ...input, ExclusiveStartKey: start } : input);
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
    if (!start) return;
  }
}

/** How a BatchGetItem reads its keys: BatchGetItem's own parameters beside `Keys`. */
export interface BatchRead {
  ConsistentRead?: boolean;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}

/** One BatchGetItem of `keys` in the table: the items found and the keys DynamoDB left unprocessed (lib/store/batch.ts retries them). */
export async function batchGetOnce(keys: Array<Record<string, unknown>>, read: BatchRead): Promise<{ items: Array<Record<string, unknown>>; unprocessed: Array<Record<string, unknown>> }> {
  const table = tableName();
  const out = await batchGet({ RequestItems: { [table]: { Keys: keys, ...read } } });
  return { items: out.Responses?.[table] ?? [], unprocessed: out.UnprocessedKeys?.[table]?.Keys ?? [] };
}

export type { NativeTxItem };
