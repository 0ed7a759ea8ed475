// DynamoDB's JSON protocol without the SDK: one SigV4-signed POST with
// `X-Amz-Target: DynamoDB_20120810.<Op>`, items marshalled once, a keep-alive connection. Every call
// of the store goes out this way (./calls.ts): the SDK client spends about as much CPU resolving its
// middleware stack, endpoint rules, schema serde and retry bookkeeping per call as the request's own
// code in all (docs/performance.md, "The write path, and where its time goes"), and deployed
// functions that carry no SDK client skip its ~300 KiB parse at every cold start ("Cold start").
// Inputs and outputs are the document client's (native values; marshalled as lib/store/client.ts
// does); failures take the SDK's shape (`name`, `$fault`, `$metadata`, `message`, and what the error
// body carries: a cancellation's `CancellationReasons`), and throttling, 5xx and dropped
// connections are retried as its standard mode does (3 attempts, jittered exponential backoff)
// before they reach the callers' own loops.
import { randomUUID } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { awsEndpoint, errorName, postSigner, THROTTLING, withRetries, type Credentials } from '../sigv4-json.ts';

type Json = Record<string, unknown>;


/** A failed call, shaped as the SDK's service exceptions are; the store matches it by name (./errors.ts). */
export class DynamoDBError extends Error {
  declare readonly $fault: 'client' | 'server';
  declare readonly $metadata: { httpStatusCode: number; requestId: string | undefined; attempts: number };
  /** A cancelled transaction's reasons, one per item, in order. */
  declare readonly CancellationReasons?: Array<{ Code?: string; Message?: string; Item?: Json }>;

  constructor(name: string, status: number, message: string, requestId: string | undefined, body: Json) {
    super(message);
    // The body's other members first (CancellationReasons, a failed condition's Item), as the SDK copies them.
    Object.assign(this, body, { name, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status, requestId, attempts: 1 } });
  }
}

/** The error of a non-2xx answer, as the SDK builds it (`__type` is "com.amazonaws.dynamodb.v20120810#Name"). */
function failure(status: number, body: Json, requestId: string | undefined): DynamoDBError {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const name = errorName(body) ?? (status >= 500 ? 'InternalServerError' : 'UnknownError');
  const { __type: _, message, Message, ...rest } = body;
  return new DynamoDBError(name, status, text(message) ?? text(Message) ?? name, requestId, rest);
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
  credentials: Credentials;
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
  return withRetries(async () => {
    const headers = await t.sign(
      t.url,
      { 'content-type': 'application/x-amz-json-1.0', 'content-length': String(Buffer.byteLength(body)), 'x-amz-target': `DynamoDB_20120810.${operation}` },
      body,
    );
    const res = await post(t, headers, body);
    const output = (res.text ? JSON.parse(res.text) : {}) as Json;
    if (res.status >= 200 && res.status < 300) return output;
    throw failure(res.status, output, res.requestId);
  }, retryable);
}

const OPTIONS = { removeUndefinedValues: true, convertClassInstanceToMap: false };

/** The members that hold one item (or key, or attribute values) and those that hold a list of them, in any operation's input or output. */
const ITEM = new Set(['Item', 'Key', 'ExpressionAttributeValues', 'ExclusiveStartKey', 'Attributes', 'LastEvaluatedKey']);
const ITEMS = new Set(['Items', 'Keys']);

/**
 * `value` with every item in it converted by `convert`, found by member name as the document client
 * finds them (BatchGetItem's `Responses` map tables to lists of items); the rest copied as it is.
 * The legacy parameters (Expected, KeyConditions, AttributeUpdates) are not converted: the store
 * writes expressions only.
 */
function convertItems(value: unknown, convert: (item: Json) => Json): unknown {
  if (Array.isArray(value)) return value.map((v) => convertItems(v, convert));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (ITEM.has(name)) out[name] = convert(v as Json);
    else if (ITEMS.has(name)) out[name] = (v as Json[]).map(convert);
    // BatchGetItem's `Responses` maps tables to items; TransactGetItems' lists `{Item}` (converted as any list is).
    else if (name === 'Responses' && !Array.isArray(v)) out[name] = Object.fromEntries(Object.entries(v as Record<string, Json[]>).map(([table, items]) => [table, items.map(convert)]));
    else out[name] = convertItems(v, convert);
  }
  return out;
}
const marshallItems = (input: Json) => convertItems(input, (item) => marshall(item, OPTIONS)) as Json;
const unmarshallItems = (output: Json) => convertItems(output, (item) => unmarshall(item as never)) as Json;

/** A TransactWriteItems item of the document client's shape (native values). */
export type NativeTxItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The operations of DynamoDB the store calls (./calls.ts). */
export type Operation = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query' | 'Scan' | 'BatchGetItem' | 'BatchWriteItem' | 'TransactWriteItems' | 'TransactGetItems';

/** Sends one call of `operation` with the document client's input; resolves to its output (without `$metadata`). */
export type Send = (operation: Operation, input: Json) => Promise<Json>;

/** The lean calls, bound to one endpoint, region and credential provider. */
export function leanSender(config: SenderConfig): Send {
  const t = targetOf(config);
  return async (operation, input) => {
    const wire = marshallItems(input);
    // As the SDK does: one token for all attempts, so a retry of a commit whose answer was lost
    // (a dropped connection, a 5xx) is not applied twice (DynamoDB keeps tokens for 10 minutes).
    if (operation === 'TransactWriteItems' && wire.ClientRequestToken === undefined) wire.ClientRequestToken = randomUUID();
    return unmarshallItems(await call(t, operation, wire));
  };
}
