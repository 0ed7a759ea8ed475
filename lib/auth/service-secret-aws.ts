// The deployed source of the service secret (./service-secret.ts): the Secrets Manager secret the
// stack creates, read once per cold start through the SDK's Secrets Manager client, bounded as every
// AWS call is (lib/aws-clients.ts). Its client is made only where the configuration names the secret.
import { createHash } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { bounded, clientBounds } from '../aws-clients.ts';
import { config } from '../config.ts';

/** The secret's value as a fixed-size key: SHA-256 of the string the stack generated. */
export async function secretOf(secrets: SecretsManagerClient, secretId: string): Promise<Uint8Array> {
  const out = await bounded((options) => secrets.send(new GetSecretValueCommand({ SecretId: secretId }), options));
  if (!out.SecretString) throw new Error('The service secret has no string value');
  return createHash('sha256').update(out.SecretString, 'utf8').digest();
}

/** The secret through the process's client (region and credentials from the environment, as Lambda sets them). */
export const secretFromAws = (secretId: string): Promise<Uint8Array> =>
  secretOf(new SecretsManagerClient({ region: config.region, ...clientBounds() }), secretId);
