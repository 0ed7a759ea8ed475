// The deployed source of the service keys: a KMS asymmetric key (ECC_NIST_P256) that signs and
// never leaves KMS, and a Secrets Manager secret for the cursor key, both created by the stack.
// Public keys and the secret are fetched once per cold start, side by side, and verification is
// local (node:crypto); only functions whose route mints tokens hold kms:Sign, and only their
// bundles carry the signing code (./service-key-kms-sign.ts, reached from ./service-jwt.ts). The
// calls go through ./aws-json.ts (signed fetch), not the SDK clients. Loaded lazily by ./service-key.ts.
import { createHash, createPublicKey } from 'node:crypto';
import { awsJsonCall, KMS, SECRETS_MANAGER, type AwsJsonCall } from './aws-json.ts';
import { base64Of } from './service-key-kms-sign.ts';
import { SERVICE_KEY_ENV, type KmsKeySource, type ServiceCryptoKey, type ServiceKeys } from './service-key-model.ts';

/** The kid of a KMS key: its key id (the ARN's last segment), stable across aliases. */
const kidOf = (keyArn: string) => keyArn.slice(keyArn.lastIndexOf('/') + 1);

/** One verification key: KMS GetPublicKey, checked to be P-256, under its kid. */
async function publicKeyOf(call: AwsJsonCall, keyId: string): Promise<[kid: string, key: ServiceCryptoKey]> {
  const out = await call(KMS, 'GetPublicKey', { KeyId: keyId });
  if (typeof out.KeyId !== 'string' || !out.KeyId) throw new Error(`KMS returned no public key for ${keyId}`);
  if (out.KeySpec !== 'ECC_NIST_P256') throw new Error(`KMS key ${keyId} is ${String(out.KeySpec)}, not ECC_NIST_P256`);
  const key = createPublicKey({ key: Buffer.from(base64Of(out.PublicKey, `public key for ${keyId}`)), format: 'der', type: 'spki' });
  if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error(`KMS key ${keyId} did not return a P-256 public key`);
  return [kidOf(out.KeyId), key];
}

async function secretOf(call: AwsJsonCall, secretId: string): Promise<Uint8Array> {
  const out = await call(SECRETS_MANAGER, 'GetSecretValue', { SecretId: secretId });
  if (typeof out.SecretString !== 'string' || !out.SecretString) throw new Error('The service secret has no string value');
  // The stack generates a long random string; hashing gives a fixed-size secret from it.
  return createHash('sha256').update(out.SecretString, 'utf8').digest();
}

/** Service keys from KMS and Secrets Manager: public keys fetched once, signing stays in KMS. */
export async function kmsServiceKeys(source: KmsKeySource, call: AwsJsonCall): Promise<ServiceKeys> {
  const [keys, secret] = await Promise.all([
    Promise.all([source.keyId, ...source.previousKeyIds].map((keyId) => publicKeyOf(call, keyId))),
    source.secretId ? secretOf(call, source.secretId) : undefined,
  ]);
  return {
    kid: keys[0]![0],
    sign: undefined,
    // Signing stays in KMS; the signer is made where a token is signed (./service-key-kms-sign.ts).
    kmsSigning: source.canSign ? { keyId: source.keyId, call: (operation, input) => call(KMS, operation, input) } : undefined,
    verifyKeys: new Map(keys),
    get secret(): Uint8Array {
      if (!secret) throw new Error(`No service secret configured: set ${SERVICE_KEY_ENV.secretId}`);
      return secret;
    },
  };
}

/** The service keys through the deployed calls (region and credentials from the environment, as Lambda sets them). */
export function kmsServiceKeysFromAws(source: KmsKeySource): Promise<ServiceKeys> {
  return kmsServiceKeys(source, awsJsonCall());
}
