// The service's own key material: an ES256 key pair that signs API and access tokens, and a
// secret for HMACs (pagination cursors). Locally it is a JSON file outside git, generated on first
// start; a deployed stack provides it from its secret store (see docs/operations.md).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
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

export interface ServiceKeys {
  kid: string;
  /** Absent where the function may not sign (least privilege). */
  signingKey: ServiceCryptoKey | undefined;
  verifyKey: ServiceCryptoKey;
  secret: Uint8Array;
}

export const SERVICE_JWT_ALG = 'ES256';

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
  return {
    kid: material.kid,
    signingKey: material.privateJwk.d ? ((await importJWK(material.privateJwk, SERVICE_JWT_ALG)) as ServiceCryptoKey) : undefined,
    verifyKey: (await importJWK(material.publicJwk, SERVICE_JWT_ALG)) as ServiceCryptoKey,
    secret: Buffer.from(material.secret, 'base64url'),
  };
}

let loaded: { source: string; keys: Promise<ServiceKeys> } | undefined;

/** The service keys, loaded once per process (per source). */
export function serviceKeys(): Promise<ServiceKeys> {
  const file = config.serviceKeyFile;
  if (!file) {
    return Promise.reject(new Error('No service key configured: set SERVICE_KEY_FILE'));
  }
  if (loaded?.source !== file) {
    const keys = readFile(file, 'utf8').then((text) => importServiceKeys(JSON.parse(text) as ServiceKeyFile));
    loaded = { source: file, keys };
    keys.catch(() => {
      if (loaded?.keys === keys) loaded = undefined; // let a later call retry
    });
  }
  return loaded.keys;
}
