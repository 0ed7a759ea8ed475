// The service's own key material: an ES256 signing key for API and access tokens, and a secret
// for HMACs (pagination cursors). Two sources, chosen by the environment:
//  - locally, a JSON file outside git, generated on first start (SERVICE_KEY_FILE);
//  - deployed, a KMS asymmetric key (ECC_NIST_P256) that never leaves KMS plus a Secrets Manager
//    secret, both created by the stack (docs/operations.md). Only token-minting functions may call
//    kms:Sign; every function reads the public keys once per cold start and verifies locally.
import { createHash, randomBytes, randomUUID, webcrypto } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
// Types only: the SDK clients load on the deployed path alone (they cost ~1 s of start-up locally).
import type { KMSClient } from '@aws-sdk/client-kms';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { exportJWK, generateKeyPair, importJWK, importSPKI, type JWK } from 'jose';
import { config } from '../config.ts';

/** jose's key type (a WebCrypto key here). */
export type ServiceCryptoKey = Exclude<Awaited<ReturnType<typeof importJWK>>, Uint8Array>;

export interface ServiceKeyFile {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
  /** base64url, 32 bytes */
  secret: string;
}

/** Signs a JWS signing input; returns the JOSE ES256 signature (r || s, 64 bytes). */
export type JwsSigner = (signingInput: Uint8Array) => Promise<Uint8Array>;

export interface ServiceKeys {
  /** Key id of the signing key, written into each token's header. */
  kid: string;
  /** Absent where the function may not sign (least privilege). */
  sign: JwsSigner | undefined;
  /** Keys that verify, by kid: the signing key and, after a rotation, the retired ones. */
  verifyKeys: ReadonlyMap<string, ServiceCryptoKey>;
  /** HMAC secret (pagination cursors). Throws where none is configured (the admin CLI). */
  readonly secret: Uint8Array;
}

export const SERVICE_JWT_ALG = 'ES256';

/**
 * Environment of the deployed source; the stack sets these names (infra/stack.ts imports them).
 * The values are identifiers, never key material.
 */
export const SERVICE_KEY_ENV = {
  /** The KMS key that signs (key id, ARN or alias). */
  kmsKeyId: 'SERVICE_KMS_KEY_ID',
  /** Retired KMS keys, comma-separated: tokens they signed still verify (see key rotation). */
  previousKmsKeyIds: 'SERVICE_KMS_PREVIOUS_KEY_IDS',
  /** '1' on functions granted kms:Sign. */
  kmsSign: 'SERVICE_KMS_SIGN',
  /** Secrets Manager secret holding the HMAC secret. */
  secretId: 'SERVICE_SECRET_ID',
} as const;

const env = (name: string): string | undefined => process.env[name] || undefined;

/** Makes new key material (also used by tests and by `npm start` on first run). */
export async function generateServiceKeyMaterial(): Promise<ServiceKeyFile> {
  const { privateKey, publicKey } = await generateKeyPair(SERVICE_JWT_ALG, { extractable: true });
  const kid = randomUUID();
  return {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: SERVICE_JWT_ALG },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: SERVICE_JWT_ALG },
    secret: randomBytes(32).toString('base64url'),
  };
}

/** Writes a new key file unless one exists; returns true when it created one. */
export async function ensureServiceKeyFile(path: string): Promise<boolean> {
  try {
    await readFile(path);
    return false;
  } catch {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(await generateServiceKeyMaterial(), null, 2), { mode: 0o600, flag: 'wx' });
    return true;
  }
}

export async function importServiceKeys(material: ServiceKeyFile): Promise<ServiceKeys> {
  const privateKey = material.privateJwk.d ? ((await importJWK(material.privateJwk, SERVICE_JWT_ALG)) as ServiceCryptoKey) : undefined;
  const verifyKey = (await importJWK(material.publicJwk, SERVICE_JWT_ALG)) as ServiceCryptoKey;
  return {
    kid: material.kid,
    // WebCrypto ECDSA already yields the JOSE form (r || s).
    sign: privateKey
      ? async (input) => new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey as unknown as webcrypto.CryptoKey, input))
      : undefined,
    verifyKeys: new Map([[material.kid, verifyKey]]),
    secret: Buffer.from(material.secret, 'base64url'),
  };
}

// ---- Deployed source: KMS + Secrets Manager ----

export interface KmsKeySource {
  keyId: string;
  previousKeyIds: string[];
  /** Whether this function may sign (it holds kms:Sign). */
  canSign: boolean;
  /** Secrets Manager secret id; absent, `secret` throws when read. */
  secretId: string | undefined;
}

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
  const { GetPublicKeyCommand, SignCommand } = await import('@aws-sdk/client-kms');
  const { GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const verifyKeys = new Map<string, ServiceCryptoKey>();
  let kid = '';
  for (const [i, keyId] of [source.keyId, ...source.previousKeyIds].entries()) {
    const out = await clients.kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
    if (!out.PublicKey || !out.KeyId) throw new Error(`KMS returned no public key for ${keyId}`);
    if (out.KeySpec !== 'ECC_NIST_P256') throw new Error(`KMS key ${keyId} is ${out.KeySpec}, not ECC_NIST_P256`);
    const keyKid = kidOf(out.KeyId);
    verifyKeys.set(keyKid, (await importSPKI(spkiPem(out.PublicKey), SERVICE_JWT_ALG)) as ServiceCryptoKey);
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
    // The stack generates a long random string; hashing gives a fixed-size HMAC key from it.
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

function kmsSourceFromEnv(): KmsKeySource | undefined {
  const keyId = env(SERVICE_KEY_ENV.kmsKeyId);
  if (!keyId) return undefined;
  return {
    keyId,
    previousKeyIds: (env(SERVICE_KEY_ENV.previousKmsKeyIds) ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    canSign: env(SERVICE_KEY_ENV.kmsSign) === '1',
    secretId: env(SERVICE_KEY_ENV.secretId),
  };
}

async function awsClients(): Promise<KmsClients> {
  const [{ KMSClient }, { SecretsManagerClient }] = await Promise.all([import('@aws-sdk/client-kms'), import('@aws-sdk/client-secrets-manager')]);
  return { kms: new KMSClient({ region: config.region }), secrets: new SecretsManagerClient({ region: config.region }) };
}

let loaded: { source: string; keys: Promise<ServiceKeys> } | undefined;

/** The service keys, loaded once per process (per source): the local file wins over KMS. */
export function serviceKeys(): Promise<ServiceKeys> {
  const file = config.serviceKeyFile;
  const kms = file ? undefined : kmsSourceFromEnv();
  if (!file && !kms) {
    return Promise.reject(new Error(`No service key configured: set SERVICE_KEY_FILE (local) or ${SERVICE_KEY_ENV.kmsKeyId} (deployed)`));
  }
  const source = file ? `file:${file}` : `kms:${JSON.stringify(kms)}`;
  if (loaded?.source !== source) {
    const keys = file
      ? readFile(file, 'utf8').then((text) => importServiceKeys(JSON.parse(text) as ServiceKeyFile))
      : awsClients().then((clients) => kmsServiceKeys(kms!, clients));
    loaded = { source, keys };
    keys.catch(() => {
      if (loaded?.keys === keys) loaded = undefined; // let a later call retry
    });
  }
  return loaded.keys;
}
