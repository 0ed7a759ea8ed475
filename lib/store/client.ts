// The AWS SDK's document client: what the tests, the benches, the admin CLI and bundle-sizes' baseline
// (infra/baseline-handler.ts) call directly, and what the store's calls go through while something
// watches it (lib/store/calls.ts). Deployed functions never load it (infra/bundling.ts).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';

// Locally we run Node 20 (Lambda runs 22): the SDK's support notice is noise on every CLI call.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** The document client of one endpoint, and whether anything watches it. */
export interface Clients {
  key: string;
  doc: DynamoDBDocumentClient;
  /** Whether a middleware or another `send` was put on the document client since it was made (lib/store/calls.ts). */
  observed: () => boolean;
}
let cached: Clients | undefined;

export function clients(): Clients {
  const endpoint = config.dynamodbEndpoint;
  const key = `${endpoint ?? ''}|${config.region}`;
  if (cached?.key === key) return cached;
  const client = new DynamoDBClient({
    region: config.region,
    ...(endpoint
      ? { endpoint, credentials: config.localDynamodbCredentials }
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
  cached = { key, doc, observed: () => added() > 0 || doc.send !== sdkSend };
  return cached;
}

/** The document client for the configured table; one per endpoint, reused across invocations. */
export const db = (): DynamoDBDocumentClient => clients().doc;

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

export { tableName } from './table.ts';
