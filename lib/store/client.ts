import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { leanSender, type NativeTxItem } from './sender.ts';
import { config } from '../config.ts';

// Locally we run Node 20 (Lambda runs 22): the SDK's support notice is noise on every CLI call.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

interface Clients {
  key: string;
  doc: DynamoDBDocumentClient;
  lean: ReturnType<typeof leanSender>;
  /** Whether a middleware or another `send` was put on the document client since it was made (see `hot`). */
  observed: () => boolean;
}
let cached: Clients | undefined;

function clients(): Clients {
  const endpoint = config.dynamodbEndpoint;
  const key = `${endpoint ?? ''}|${config.region}`;
  if (cached?.key === key) return cached;
  const client = new DynamoDBClient({
    region: config.region,
    ...(endpoint
      ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 3,
  });
  // The SDK's logger middleware filters every call's input and output for its logger even when
  // that logger discards them (the default): two walks of each item per call. Nothing is logged
  // through it here, so it goes (docs/performance.md, "The write path, and where its time goes").
  client.middlewareStack.remove('loggerMiddleware');
  reuseSigner(client);
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  const sdkSend = doc.send.bind(doc);
  doc.send = sdkSend;
  const added = countAdditions(doc.middlewareStack);
  const lean = leanSender({ endpoint, region: config.region, credentials: client.config.credentials });
  cached = { key, doc, lean, observed: () => added() > 0 || doc.send !== sdkSend };
  return cached;
}

/** The document client for the configured table; one per endpoint, reused across invocations. */
export const db = (): DynamoDBDocumentClient => clients().doc;

/**
 * The lean sender (./sender.ts) for the hot path's calls, unless something was added to the
 * document client — a middleware or a replaced `send`: the tests' observers and injected faults,
 * the benches' captures — so whatever watches the client sees every call those make.
 */
function hot(): Clients['lean'] | undefined {
  const c = clients();
  return c.observed() ? undefined : c.lean;
}

/** One TransactWriteItems of document-client items (lib/store/tx.ts retries it). */
export async function transactWrite(items: NativeTxItem[]): Promise<void> {
  const lean = hot();
  if (lean) return lean.transactWrite(items);
  await db().send(new TransactWriteCommand({ TransactItems: items }));
}

/** One BatchGetItem of `keys` in the table: the items found and the keys DynamoDB left unprocessed. */
export async function batchGetOnce(keys: Array<Record<string, unknown>>, consistent: boolean): Promise<{ items: Array<Record<string, unknown>>; unprocessed: Array<Record<string, unknown>> }> {
  const lean = hot();
  if (lean) return lean.batchGet(tableName(), keys, consistent);
  const table = tableName();
  const out = await db().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: keys, ...(consistent ? { ConsistentRead: true } : {}) } } }));
  return { items: out.Responses?.[table] ?? [], unprocessed: out.UnprocessedKeys?.[table]?.Keys ?? [] };
}

/** A count of the middleware added to `stack` and not removed since this call. */
function countAdditions(stack: DynamoDBDocumentClient['middlewareStack']): () => number {
  let added = 0;
  // The stack's methods are overloaded by step; they are wrapped as they are, arguments passed through.
  const open = stack as unknown as Record<'add' | 'addRelativeTo' | 'remove', (...args: unknown[]) => unknown>;
  const { add, addRelativeTo, remove } = open;
  open.add = (...args) => (added++, add.apply(stack, args));
  open.addRelativeTo = (...args) => (added++, addRelativeTo.apply(stack, args));
  open.remove = (...args) => {
    const removed = remove.apply(stack, args);
    if (removed) added--;
    return removed;
  };
  return () => added;
}

/**
 * The SDK makes a new request signer for every call, from a copy of the whole client configuration.
 * A signer keeps no per-request state (it asks the credential provider on each signature, and the
 * clock offset is applied per call), and its first call fixes the client's signing region and name
 * anyway, so one per signing scope serves every call.
 */
function reuseSigner(client: DynamoDBClient): void {
  const make = client.config.signer;
  const made = new Map<string, ReturnType<typeof make>>();
  client.config.signer = (authScheme) => {
    const scope = `${authScheme?.name ?? ''} ${authScheme?.signingRegion ?? ''} ${authScheme?.signingName ?? ''}`;
    let signer = made.get(scope);
    if (!signer) {
      signer = make(authScheme);
      made.set(scope, signer);
      signer.catch(() => made.delete(scope));
    }
    return signer;
  };
}

export const tableName = () => config.tableName;
