// The deployed source of the service keys: a KMS asymmetric key (ECC_NIST_P256) that signs and
// never leaves KMS, and a Secrets Manager secret for the cursor key, both created by the stack.
// Public keys are fetched once per cold start and verification is local (jose); only functions
// whose route mints tokens hold kms:Sign. Loaded lazily by ./service-key.ts.
import { createHash } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { importSPKI } from 'jose';
import { SERVICE_JWT_ALG, SERVICE_KEY_ENV, type JwsSigner, type KmsKeySource, type ServiceCryptoKey, type ServiceKeys } from './service-key-model.ts';
import { config } from '../config.ts';

export interface KmsClients {
  kms: KMSClient;
  secrets: SecretsManagerClient;
}

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

const spkiPem = (der: Uint8Array) =>
  `-----BEGIN PUBLIC KEY-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END PUBLIC KEY-----`;

/** The kid of a KMS key: its key id (the ARN's last segment), stable across aliases. */
const kidOf = (keyArn: string) => keyArn.slice(keyArn.lastIndexOf('/') + 1);

/** Service keys from KMS and Secrets Manager: public keys fetched once, signing stays in KMS. */
export async function kmsServiceKeys(source: KmsKeySource, clients: KmsClients): Promise<ServiceKeys> {
  const verifyKeys = new Map<string, ServiceCryptoKey>();
  let kid = '';
  for (const [i, keyId] of [source.keyId, ...source.previousKeyIds].entries()) {
    const out = await clients.kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
    if (!out.PublicKey || !out.KeyId) throw new Error(`KMS returned no public key for ${keyId}`);
    if (out.KeySpec !== 'ECC_NIST_P256') throw new Error(`KMS key ${keyId} is ${out.KeySpec}, not ECC_NIST_P256`);
    const keyKid = kidOf(out.KeyId);
    verifyKeys.set(keyKid, (await importSPKI(spkiPem(out.PublicKey), SERVICE_JWT_ALG)));
    if (i === 0) kid = keyKid;
  }
  const sign: JwsSigner = async (input) => {
    if (input.length > KMS_MAX_RAW_MESSAGE) throw new Error('JWS signing input too long for a KMS RAW signature');
    const out = await clients.kms.send(
      new SignCommand({ KeyId: source.keyId, Message: input, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }),
    );
    if (!out.Signature) throw new Error('KMS returned no signature');
    return derToJoseSignature(out.Signature);
  };
  let secret: Uint8Array | undefined;
  if (source.secretId) {
    const out = await clients.secrets.send(new GetSecretValueCommand({ SecretId: source.secretId }));
    if (!out.SecretString) throw new Error('The service secret has no string value');
    // The stack generates a long random string; hashing gives a fixed-size secret from it.
    secret = createHash('sha256').update(out.SecretString, 'utf8').digest();
  }
  return {
    kid,
    sign: source.canSign ? sign : undefined,
    verifyKeys,
    get secret(): Uint8Array {
      if (!secret) throw new Error(`No service secret configured: set ${SERVICE_KEY_ENV.secretId}`);
      return secret;
    },
  };
}

/** The service keys from the real AWS clients (region from the environment, as Lambda sets it). */
export function kmsServiceKeysFromAws(source: KmsKeySource): Promise<ServiceKeys> {
  return kmsServiceKeys(source, { kms: new KMSClient({ region: config.region }), secrets: new SecretsManagerClient({ region: config.region }) });
}
