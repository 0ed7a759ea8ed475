// The deployed source of the service keys: a KMS asymmetric key (ECC_NIST_P256) that signs and
// never leaves KMS, and a Secrets Manager secret for the cursor key, both created by the stack.
// Public keys and the secret are fetched once per cold start, side by side, and verification is
// local (node:crypto); only functions whose route mints tokens hold kms:Sign. The calls go through
// the SDK's KMS and Secrets Manager clients, bounded as every AWS call is (lib/aws-clients.ts).
// Loaded lazily by ./service-key.ts, only where the configuration names a KMS key.
import { createHash, createPublicKey } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SERVICE_KEY_ENV, type KmsKeySource, type ServiceCryptoKey, type ServiceKeys } from './service-key-model.ts';
import { bounded, clientBounds } from '../aws-clients.ts';
import { config } from '../config.ts';

export interface KmsClients {
  kms: KMSClient;
  secrets: SecretsManagerClient;
}

/** The kid of a KMS key: its key id (the ARN's last segment), stable across aliases. */
const kidOf = (keyArn: string) => keyArn.slice(keyArn.lastIndexOf('/') + 1);

/** One verification key: KMS GetPublicKey, checked to be P-256, under its kid. */
async function publicKeyOf(kms: KMSClient, keyId: string): Promise<[kid: string, key: ServiceCryptoKey]> {
  const out = await bounded((options) => kms.send(new GetPublicKeyCommand({ KeyId: keyId }), options));
  if (!out.KeyId || !out.PublicKey?.length) throw new Error(`KMS returned no public key for ${keyId}`);
  if (out.KeySpec !== 'ECC_NIST_P256') throw new Error(`KMS key ${keyId} is ${String(out.KeySpec)}, not ECC_NIST_P256`);
  const key = createPublicKey({ key: Buffer.from(out.PublicKey), format: 'der', type: 'spki' });
  if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error(`KMS key ${keyId} did not return a P-256 public key`);
  return [kidOf(out.KeyId), key];
}

async function secretOf(secrets: SecretsManagerClient, secretId: string): Promise<Uint8Array> {
  const out = await bounded((options) => secrets.send(new GetSecretValueCommand({ SecretId: secretId }), options));
  if (!out.SecretString) throw new Error('The service secret has no string value');
  // The stack generates a long random string; hashing gives a fixed-size secret from it.
  return createHash('sha256').update(out.SecretString, 'utf8').digest();
}

/** Service keys from KMS and Secrets Manager: public keys fetched once, signing stays in KMS. */
export async function kmsServiceKeys(source: KmsKeySource, clients: KmsClients): Promise<ServiceKeys> {
  const [keys, secret] = await Promise.all([
    Promise.all([source.keyId, ...source.previousKeyIds].map((keyId) => publicKeyOf(clients.kms, keyId))),
    source.secretId ? secretOf(clients.secrets, source.secretId) : undefined,
  ]);
  return {
    kid: keys[0]![0],
    sign: undefined,
    // Signing stays in KMS; the JOSE signer is made where a token is signed (./service-key-kms-sign.ts).
    kmsSigning: source.canSign
      ? {
          keyId: source.keyId,
          sign: async (message) => {
            const out = await bounded((options) =>
              clients.kms.send(new SignCommand({ KeyId: source.keyId, Message: message, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }), options),
            );
            if (!out.Signature?.length) throw new Error('KMS returned no signature');
            return out.Signature;
          },
        }
      : undefined,
    verifyKeys: new Map(keys),
    get secret(): Uint8Array {
      if (!secret) throw new Error(`No service secret configured: set ${SERVICE_KEY_ENV.secretId}`);
      return secret;
    },
  };
}

/** The service keys through the process's clients (region and credentials from the environment, as Lambda sets them). */
export function kmsServiceKeysFromAws(source: KmsKeySource): Promise<ServiceKeys> {
  return kmsServiceKeys(source, {
    kms: new KMSClient({ region: config.region, ...clientBounds() }),
    secrets: new SecretsManagerClient({ region: config.region, ...clientBounds() }),
  });
}
