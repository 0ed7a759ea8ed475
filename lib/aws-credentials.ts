// The credentials of the signed AWS calls (lib/sigv4-json.ts: the lean DynamoDB sender and the KMS /
// Secrets Manager calls) outside deployed bundles — tests, the local gateway, the admin CLI: the
// SDK's default chain. Deployed bundles load ./aws-credentials.bundled.ts instead (infra/bundling.ts):
// the chain and the SSO/STS clients it carries are about 60 KiB to parse at every cold start, for
// credentials the Lambda runtime already puts in the environment.
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { Credentials } from './sigv4-json.ts';

export const awsCredentials = (): Credentials => defaultProvider();
