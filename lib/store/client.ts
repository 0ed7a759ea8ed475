// The AWS SDK's DynamoDB document client: the one path of every DynamoDB call — the store's
// (./calls.ts), the admin CLI's, the tests' and the benches' — deployed or local. One client per
// endpoint (DYNAMODB_ENDPOINT: DynamoDB Local; unset: the region's), made once per process and kept
// across invocations, with the request handler and retries of lib/aws-clients.ts.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientBounds } from '../aws-clients.ts';
import { config } from '../config.ts';

// Locally we run Node 20 (Lambda runs 22): the SDK's support notice is noise on every CLI call.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const made = new Map<string, DynamoDBDocumentClient>();

function make(endpoint: string | undefined, region: string): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region,
    // DynamoDB Local takes any credentials; deployed, the SDK's chain finds the Lambda role's in the environment.
    ...(endpoint ? { endpoint, credentials: config.localDynamodbCredentials } : {}),
    ...clientBounds(),
  });
  // The SDK's logger middleware filters every call's input and output for its logger even when
  // that logger discards them (the default): two walks of each item per call. Nothing is logged
  // through it here, so it goes.
  client.middlewareStack.remove('loggerMiddleware');
  reuseSigner(client);
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

/** The document client for the configured endpoint and region; one per pair, reused across invocations. */
export function db(): DynamoDBDocumentClient {
  const endpoint = config.dynamodbEndpoint;
  const key = `${endpoint ?? ''}|${config.region}`;
  let doc = made.get(key);
  if (!doc) made.set(key, (doc = make(endpoint, config.region)));
  return doc;
}

/**
 * The SDK makes a new request signer for every call, from a copy of the whole client configuration.
 * A signer keeps no per-request state (it asks the credential provider on each signature, and the
 * clock offset is applied per call), and its first call fixes the client's signing region and name
 * anyway, so one per signing scope serves every call.
 */
function reuseSigner(client: DynamoDBClient): void {
  const makeSigner = client.config.signer;
  const signers = new Map<string, ReturnType<typeof makeSigner>>();
  client.config.signer = (authScheme) => {
    const scope = `${authScheme?.name ?? ''} ${authScheme?.signingRegion ?? ''} ${authScheme?.signingName ?? ''}`;
    let signer = signers.get(scope);
    if (!signer) {
      signer = makeSigner(authScheme);
      signers.set(scope, signer);
      signer.catch(() => signers.delete(scope));
    }
    return signer;
  };
}

export { tableName } from './table.ts';
