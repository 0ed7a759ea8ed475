// One signed call to an AWS JSON-protocol API (KMS, Secrets Manager): fetch, signed with SigV4 by
// @smithy/signature-v4 and credentials from lib/aws-credentials.ts (the SDK's default chain; in
// deployed bundles, the Lambda runtime's environment) — both shared with the lean DynamoDB sender. The deployed key source needs three operations (GetPublicKey, Sign,
// GetSecretValue); the KMS and Secrets Manager SDK clients would add about 77 KiB to every function
// for them (docs/performance.md, "Cold start").
import { awsCredentials } from '#lib/aws-credentials.ts';
import { config } from '../config.ts';
import { awsEndpoint, errorName, postSigner } from '../sigv4-json.ts';

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
    const headers = await postSigner(service.name, region, credentials)(url, { 'content-type': `application/x-amz-json-${service.jsonVersion ?? '1.1'}`, 'x-amz-target': `${service.targetPrefix}.${operation}` }, body);
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    const output = parseJson(await response.text());
    if (!response.ok) {
      // AWS JSON errors: {"__type": "...#NotFoundException", "message": "..."}; never the request.
      const text = (value: unknown) => (typeof value === 'string' ? value : '');
      const type = errorName(output) || 'UnknownError';
      throw new Error(`${service.name} ${operation} failed (${response.status} ${type}): ${text(output.message) || text(output.Message)}`);
    }
    return output;
  };
}
