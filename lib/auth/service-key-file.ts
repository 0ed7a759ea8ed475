// The service keys' local source: a JSON file outside git (SERVICE_KEY_FILE), generated on first
// start. Deployed functions never set SERVICE_KEY_FILE, so ./service-key.ts never calls it there.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, randomUUID, sign, type JsonWebKey } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { p256Only, SERVICE_JWT_ALG, type ServiceKeys } from './service-key-model.ts';

interface ServiceKeyFile {
  kid: string;
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
  /** base64url, 32 bytes */
  secret: string;
}

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
function p256(jwk: JsonWebKey, type: 'private' | 'public') {
  return p256Only(
    type === 'private' ? createPrivateKey({ key: jwk, format: 'jwk' }) : createPublicKey({ key: jwk, format: 'jwk' }),
    `The service key file's ${type} key`,
  );
}

export function importServiceKeys(material: ServiceKeyFile): Promise<ServiceKeys> {
  const privateKey = material.privateJwk.d ? p256(material.privateJwk, 'private') : undefined;
  const verifyKey = p256(material.publicJwk, 'public');
  return Promise.resolve({
    kid: material.kid,
    // ieee-p1363 is the JOSE form of an ECDSA signature (r || s).
    sign: privateKey ? (input) => Promise.resolve(new Uint8Array(sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' }))) : undefined,
    verifyKeys: new Map([[material.kid, verifyKey]]),
  });
}

const readKeyFile = async (path: string): Promise<ServiceKeyFile> => JSON.parse(await readFile(path, 'utf8')) as ServiceKeyFile;

/** The service keys from the key file at `path`. */
export async function fileServiceKeys(path: string): Promise<ServiceKeys> {
  return importServiceKeys(await readKeyFile(path));
}

/** The service secret (./service-secret.ts) from the key file at `path`. */
export async function fileServiceSecret(path: string): Promise<Uint8Array> {
  return Buffer.from((await readKeyFile(path)).secret, 'base64url');
}
