// What the two signed AWS JSON-protocol clients share — the lean DynamoDB sender (lib/store/sender.ts)
// and the KMS / Secrets Manager calls (lib/auth/aws-json.ts): where a service answers, a SigV4-signed
// POST's headers (@smithy/signature-v4), the error name of an AWS JSON error body, and the SDK clients'
// standard retries. One copy, since most functions carry both.
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';

/** Credentials or their provider, as the signer takes them (lib/aws-credentials.ts). */
export type Credentials = ConstructorParameters<typeof SignatureV4>[0]['credentials'];

/** The service's address: AWS_ENDPOINT_URL_<SERVICE> or AWS_ENDPOINT_URL as the SDK clients honour them, else the region's. */
export function awsEndpoint(service: string, endpointEnv: string, region: string): URL {
  return new URL(
    process.env[`AWS_ENDPOINT_URL_${endpointEnv}`] || process.env.AWS_ENDPOINT_URL || `https://${service}.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}/`,
  );
}

/** Signs POSTs to `service` in `region`: the headers to send, `host` and the signature added to `headers`. */
export function postSigner(service: string, region: string, credentials: Credentials) {
  // The SDK clients' own SHA-256 (their runtime configuration's `sha256`), so tests and bundles hash alike.
  const signer = new SignatureV4({ service, region, credentials, sha256: Sha256 });
  return async (url: URL, headers: Record<string, string>, body: string): Promise<Record<string, string>> =>
    (
      await signer.sign({
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: url.pathname,
        query: {},
        headers: { host: url.host, ...headers },
        body,
      })
    ).headers;
}

/** The error name of an AWS JSON error body (`__type` is "namespace#Name" or "Name"), if it has one. */
export const errorName = (body: Record<string, unknown>): string | undefined => (typeof body.__type === 'string' ? body.__type.split('#').pop() : undefined);

/** Throttling error names the SDK clients' standard retry mode retries (DynamoDB's, KMS's, SQS's among them). */
export const THROTTLING = new Set([
  'ThrottlingException',
  'Throttling',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
]);

const MAX_ATTEMPTS = 3;

/**
 * `attempt` until it resolves, or fails with an error `retryable` refuses, or 3 attempts have failed:
 * the SDK clients' standard mode, full jitter over 100 ms × 2^attempt (at most 20 s) between attempts.
 */
export async function withRetries<T>(attempt: (n: number) => Promise<T>, retryable: (err: unknown) => boolean): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (n >= MAX_ATTEMPTS || !retryable(err)) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(20_000, 100 * 2 ** n)));
    }
  }
}
