// DynamoDB's JSON protocol without the SDK's per-call machinery, for the hot path's two calls (the
// bearer check's BatchGetItem, a write's TransactWriteItems): one signed POST with
// `X-Amz-Target: DynamoDB_20120810.<Op>`, items marshalled once, a keep-alive connection. The SDK
// client (./client.ts) spends about as much CPU resolving its middleware stack, endpoint rules,
// schema serde and retry bookkeeping per call as the request's own code in all
// (docs/performance.md, "The write path, and where its time goes"). Same endpoint, region and
// credentials as that client; failures take the SDK's shapes (`name`, `$fault`, `$metadata`, its
// TransactionCanceledException class with `CancellationReasons`), and throttling, 5xx and dropped
// connections are retried as its standard mode does (3 attempts, jittered exponential backoff)
// before they reach the callers' own loops.
import { randomUUID } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { DynamoDBServiceException, TransactionCanceledException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall, type NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { awsEndpoint, errorName, postSigner } from '../sigv4-json.ts';

type Item = Record<string, NativeAttributeValue>;
type Json = Record<string, unknown>;

/** Throttling errors the SDK's standard retry mode retries, besides any 5xx. */
const THROTTLING = new Set(['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'TransactionInProgressException']);
const MAX_ATTEMPTS = 3;

/** The error of a non-2xx answer, as the SDK builds it (`__type` is "com.amazonaws.dynamodb.v20120810#Name"). */
function failure(status: number, body: Json, requestId: string | undefined): DynamoDBServiceException {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const name = errorName(body) ?? (status >= 500 ? 'InternalServerError' : 'UnknownError');
  const { __type: _, message, Message, ...rest } = body;
  const opts = { ...rest, message: text(message) ?? text(Message) ?? name, $metadata: { httpStatusCode: status, requestId, attempts: 1 } };
  // The store tests a cancellation with instanceof (lib/store/workspaces.ts and others), the rest by name.
  if (name === 'TransactionCanceledException') return new TransactionCanceledException(opts);
  return new DynamoDBServiceException({ ...opts, name, $fault: status >= 500 ? 'server' : 'client' });
}

const retryable = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number }; code?: string };
  return THROTTLING.has(e.name ?? '') || (e.$metadata?.httpStatusCode ?? 0) >= 500 || e.code === 'ECONNRESET' || e.code === 'EPIPE';
};

interface Target {
  url: URL;
  sign: ReturnType<typeof postSigner>;
  send: typeof httpRequest;
  agent: HttpAgent;
}

/** Where and how the calls go: the client's endpoint (DynamoDB Local in tests and locally) or the region's. */
export interface SenderConfig {
  endpoint: string | undefined;
  region: string;
  credentials: DynamoDBClient['config']['credentials'];
}

function targetOf({ endpoint, region, credentials }: SenderConfig): Target {
  const url = endpoint ? new URL(endpoint) : awsEndpoint('dynamodb', 'DYNAMODB', region);
  const https = url.protocol === 'https:';
  const value: Target = {
    url,
    sign: postSigner('dynamodb', region, credentials),
    send: https ? httpsRequest : httpRequest,
    agent: new (https ? HttpsAgent : HttpAgent)({ keepAlive: true }),
  };
  return value;
}

function post(t: Target, headers: Record<string, string>, body: string): Promise<{ status: number; text: string; requestId?: string }> {
  return new Promise((resolve, reject) => {
    const req = t.send(t.url, { method: 'POST', headers, agent: t.agent }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), requestId: res.headers['x-amzn-requestid'] as string | undefined }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One signed call of `operation`; resolves to its JSON output, rejects with the SDK's error shape. */
async function call(t: Target, operation: string, input: Json): Promise<Json> {
  const body = JSON.stringify(input);
  for (let attempt = 1; ; attempt++) {
    try {
      const headers = await t.sign(
        t.url,
        { 'content-type': 'application/x-amz-json-1.0', 'content-length': String(Buffer.byteLength(body)), 'x-amz-target': `DynamoDB_20120810.${operation}` },
        body,
      );
      const res = await post(t, headers, body);
      const output = (res.text ? JSON.parse(res.text) : {}) as Json;
      if (res.status >= 200 && res.status < 300) return output;
      throw failure(res.status, output, res.requestId);
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !retryable(err)) throw err;
      // The SDK's standard mode: full jitter over 100 ms × 2^attempt, at most 20 s.
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(20_000, 100 * 2 ** attempt)));
    }
  }
}

const OPTIONS = { removeUndefinedValues: true, convertClassInstanceToMap: false };
const m = (item: Item | undefined) => (item === undefined ? undefined : marshall(item, OPTIONS));

/** A TransactWriteItems item of the document client's shape (native values). */
export type NativeTxItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

function marshallTxItem(item: NativeTxItem): Json {
  const out: Json = {};
  for (const kind of ['Put', 'Update', 'Delete', 'ConditionCheck'] as const) {
    const op = item[kind];
    if (!op) continue;
    const { Item: it, Key: key, ExpressionAttributeValues: values, ...rest } = op as { Item?: Item; Key?: Item; ExpressionAttributeValues?: Item };
    out[kind] = { ...rest, ...(it ? { Item: m(it) } : {}), ...(key ? { Key: m(key) } : {}), ...(values ? { ExpressionAttributeValues: m(values) } : {}) };
  }
  return out;
}

/** How a BatchGetItem reads its keys: BatchGetItem's own parameters beside `Keys`. */
export interface BatchRead {
  ConsistentRead?: boolean;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}

/** The hot path's two calls (./hot-calls.ts), sent by the lean sender or the document client (./hot-calls-sdk.ts). */
export interface HotCalls {
  transactWrite(items: NativeTxItem[]): Promise<void>;
  /** One BatchGetItem of `keys` in `table`, read as `read` says: the items found and the keys left unprocessed. */
  batchGet(table: string, keys: Item[], read: BatchRead): Promise<{ items: Item[]; unprocessed: Item[] }>;
}

/** The lean calls, bound to one endpoint, region and credential provider. */
export function leanSender(config: SenderConfig): HotCalls {
  const t = targetOf(config);
  return {
    async transactWrite(items) {
      // As the SDK does: one token for all attempts, so a retry of a commit whose answer was lost
      // (a dropped connection, a 5xx) is not applied twice (DynamoDB keeps tokens for 10 minutes).
      await call(t, 'TransactWriteItems', { TransactItems: items.map(marshallTxItem), ClientRequestToken: randomUUID() });
    },
    async batchGet(table, keys, read) {
      const out = await call(t, 'BatchGetItem', { RequestItems: { [table]: { Keys: keys.map((k) => marshall(k, OPTIONS)), ...read } } });
      const found = ((out.Responses as Record<string, Json[]> | undefined)?.[table] ?? []).map((i) => unmarshall(i as never) as Item);
      const left = ((out.UnprocessedKeys as Record<string, { Keys?: Json[] }> | undefined)?.[table]?.Keys ?? []).map((k) => unmarshall(k as never) as Item);
      return { items: found, unprocessed: left };
    },
  };
}
