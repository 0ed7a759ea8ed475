// One signed call to an AWS JSON-protocol API (KMS, Secrets Manager): fetch, signed with SigV4 by
// @smithy/signature-v4 and credentials from lib/aws-credentials.ts (the SDK's default chain; in
// deployed bundles, the Lambda runtime's environment) — both shared with the lean DynamoDB sender. The deployed key source needs three operations (GetPublicKey, Sign,
// GetSecretValue); the KMS and Secrets Manager SDK clients would add about 77 KiB to every function
// for them (docs/performance.md, "Cold start").
import { awsCredentials } from '#lib/aws-credentials.ts';
import { config } from '../config.ts';
import { awsEndpoint, errorName, postSigner, THROTTLING, withRetries } from '../sigv4-json.ts';

export interface AwsJsonService {
  /** Signing name and endpoint prefix, e.g. "kms". */
  name: string;
  /** Prefix of the X-Amz-Target header, e.g. "TrentService". */
  targetPrefix: string;
  /** The SDK's AWS_ENDPOINT_URL_<SERVICE> suffix, honoured like the SDK clients do (tests, local fakes). */
  endpointEnv: string;
  /** The service's AWS JSON protocol version (its Content-Type): 1.1 unless it says otherwise. */
  jsonVersion?: '1.0' | '1.1';
}

export const KMS: AwsJsonService = { name: 'kms', targetPrefix: 'TrentService', endpointEnv: 'KMS' };
export const SECRETS_MANAGER: AwsJsonService = { name: 'secretsmanager', targetPrefix: 'secretsmanager', endpointEnv: 'SECRETS_MANAGER' };

/** Calls `operation` of `service` with a JSON input; resolves to the JSON output. */
export type AwsJsonCall = (service: AwsJsonService, operation: string, input: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** A call that took too long fails; the caller's next request retries (./service-key.ts). */
const CALL_TIMEOUT_MS = 5_000;

/**
 * Throttling and server errors, and a connection that failed before any answer, are retried as the
 * SDK clients' standard mode does (lib/sigv4-json.ts withRetries). Every call made here may be sent
 * twice: KMS reads and signs, Secrets Manager reads, and SQS's sends carry a deduplication id
 * (lib/events/sqs.ts). A timeout is not retried: the caller's own retry is sooner.
 */
class AwsCallError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
// fetch fails with a TypeError when no answer came (refused, reset); a timeout is a DOMException.
const retryable = (err: unknown) => (err instanceof AwsCallError ? err.retryable : err instanceof TypeError);

function parseJson(text: string): Record<string, unknown> {
  try {
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  } catch {
    return { message: `not JSON: ${text.slice(0, 200)}` };
  }
}

/** The deployed call: the process's region and its credentials (Lambda's role). */
export function awsJsonCall(region = config.region): AwsJsonCall {
  const credentials = awsCredentials();
  return async (service, operation, input) => {
    const url = awsEndpoint(service.name, service.endpointEnv, region);
    const body = JSON.stringify(input);
    return withRetries(async (attempt) => {
      // Signed per attempt: the signature dates the request.
      const headers = await postSigner(service.name, region, credentials)(url, { 'content-type': `application/x-amz-json-${service.jsonVersion ?? '1.1'}`, 'x-amz-target': `${service.targetPrefix}.${operation}` }, body);
      const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
      const output = parseJson(await response.text());
      if (response.ok) return output;
      // AWS JSON errors: {"__type": "...#NotFoundException", "message": "..."}; never the request.
      const text = (value: unknown) => (typeof value === 'string' ? value : '');
      const type = errorName(output) || 'UnknownError';
      throw new AwsCallError(
        `${service.name} ${operation} failed (${response.status} ${type}${attempt > 1 ? `, after ${attempt} attempts` : ''}): ${text(output.message) || text(output.Message)}`,
        response.status >= 500 || response.status === 429 || THROTTLING.has(type),
      );
    }, retryable);
  };
}
