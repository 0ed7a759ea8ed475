// The service's own key material: an ES256 signing key for API and access tokens, and a secret
// the pagination cursors' key is derived from (lib/http/pagination.ts). Two sources, chosen by the
// environment:
//  - locally, a JSON file outside git, generated on first start (SERVICE_KEY_FILE);
//  - deployed, a KMS asymmetric key plus a Secrets Manager secret created by the stack
//    (./service-key-kms.ts, docs/operations.md).
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, randomUUID, sign, type JsonWebKey } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SERVICE_JWT_ALG, SERVICE_KEY_ENV, type KmsKeySource, type ServiceCryptoKey, type ServiceKeys } from './service-key-model.ts';
import { config } from '../config.ts';

export interface ServiceKeyFile {
  kid: string;
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
  /** base64url, 32 bytes */
  secret: string;
}

const env = (name: string): string | undefined => process.env[name] || undefined;

/** Makes new key material (also used by tests and by `npm start` on first run). */
export function generateServiceKeyMaterial(): Promise<ServiceKeyFile> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = randomUUID();
  return Promise.resolve({
    kid,
    privateJwk: { ...privateKey.export({ format: 'jwk' }), kid, alg: SERVICE_JWT_ALG },
    publicJwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: SERVICE_JWT_ALG },
    secret: randomBytes(32).toString('base64url'),
  });
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

/** A P-256 key from a JWK; anything else is refused (the file is ours, but a wrong one should say so). */
function p256(jwk: JsonWebKey, type: 'private' | 'public'): ServiceCryptoKey {
  const key = type === 'private' ? createPrivateKey({ key: jwk, format: 'jwk' }) : createPublicKey({ key: jwk, format: 'jwk' });
  if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error(`The service key file's ${type} key is not a P-256 key`);
  return key;
}

export function importServiceKeys(material: ServiceKeyFile): Promise<ServiceKeys> {
  const privateKey = material.privateJwk.d ? p256(material.privateJwk, 'private') : undefined;
  const verifyKey = p256(material.publicJwk, 'public');
  return Promise.resolve({
    kid: material.kid,
    // ieee-p1363 is the JOSE form of an ECDSA signature (r || s).
    sign: privateKey ? (input) => Promise.resolve(new Uint8Array(sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' }))) : undefined,
    verifyKeys: new Map([[material.kid, verifyKey]]),
    secret: Buffer.from(material.secret, 'base64url'),
  });
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

// The deployed source lives in ./service-key-kms.ts and is imported only when used: locally its
// AWS SDK clients would cost every process about a second of start-up for nothing.
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
      : import('./service-key-kms.ts').then((m) => m.kmsServiceKeysFromAws(kms!));
    loaded = { source, keys };
    keys.catch(() => {
      if (loaded?.keys === keys) loaded = undefined; // let a later call retry
    });
  }
  return loaded.keys;
}
