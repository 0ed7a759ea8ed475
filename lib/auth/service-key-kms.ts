// The deployed source of the service keys: a KMS asymmetric key (ECC_NIST_P256) that signs and
// never leaves KMS, and a Secrets Manager secret for the cursor key, both created by the stack.
// Public keys and the secret are fetched once per cold start, side by side, and verification is
// local (node:crypto); only functions whose route mints tokens hold kms:Sign. The calls go through
// ./aws-json.ts (signed fetch), not the SDK clients. Loaded lazily by ./service-key.ts.
import { createHash, createPublicKey } from 'node:crypto';
import { awsJsonCall, KMS, SECRETS_MANAGER, type AwsJsonCall } from './aws-json.ts';
import { SERVICE_KEY_ENV, type JwsSigner, type KmsKeySource, type ServiceCryptoKey, type ServiceKeys } from './service-key-model.ts';

/** KMS accepts at most 4096 bytes of RAW message; a service JWT is far smaller. */
const KMS_MAX_RAW_MESSAGE = 4096;
const P256_COORDINATE_BYTES = 32;

/** An ECDSA signature from DER (SEQUENCE of two INTEGERs, as KMS returns it) to JOSE r || s. */
export function derToJoseSignature(der: Uint8Array, size = P256_COORDINATE_BYTES): Uint8Array {
  let at = 0;
  const fail = (): never => {
    throw new Error('Malformed DER ECDSA signature');
  };
  const byte = () => (at < der.length ? der[at++]! : fail());
  const length = () => {
    const first = byte();
    if (first < 0x80) return first;
    let len = 0;
    for (let n = first & 0x7f; n > 0; n--) len = (len << 8) | byte();
    return len;
  };
  const integer = () => {
    if (byte() !== 0x02) fail();
    const len = length();
    if (len === 0 || at + len > der.length) fail();
    let value = der.subarray(at, at + len);
    at += len;
    while (value.length > size && value[0] === 0) value = value.subarray(1); // sign-padding zero
    if (value.length > size) fail();
    const out = new Uint8Array(size);
    out.set(value, size - value.length);
    return out;
  };
  if (byte() !== 0x30) fail();
  if (length() !== der.length - at) fail();
  const r = integer();
  const s = integer();
  if (at !== der.length) fail();
  const sig = new Uint8Array(2 * size);
  sig.set(r, 0);
  sig.set(s, size);
  return sig;
}

/** The kid of a KMS key: its key id (the ARN's last segment), stable across aliases. */
const kidOf = (keyArn: string) => keyArn.slice(keyArn.lastIndexOf('/') + 1);

const base64Of = (value: unknown, what: string): Uint8Array => {
  if (typeof value !== 'string' || value === '') throw new Error(`KMS returned no ${what}`);
  return Buffer.from(value, 'base64');
};

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
  const sign: JwsSigner = async (input) => {
    if (input.length > KMS_MAX_RAW_MESSAGE) throw new Error('JWS signing input too long for a KMS RAW signature');
    const out = await call(KMS, 'Sign', {
      KeyId: source.keyId,
      Message: Buffer.from(input).toString('base64'),
      MessageType: 'RAW',
      SigningAlgorithm: 'ECDSA_SHA_256',
    });
    return derToJoseSignature(base64Of(out.Signature, 'signature'));
  };
  return {
    kid: keys[0]![0],
    sign: source.canSign ? sign : undefined,
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
