// Signing the service's own tokens: with the key file's private key locally (./service-key.ts), with
// KMS Sign deployed (./service-key-kms.ts). Only the modules that mint tokens import it, so only the
// functions whose route row says `signs` (and the admin CLI) carry the KMS client; the stack names
// the signing key (SERVICE_KMS_KEY_ID) to those functions alone. A deployed function takes the
// key's kid from the public keys in its environment (their first is the signing key's), so its cold
// start sends KMS nothing but the Sign; the admin CLI, which has no such environment, asks KMS.
import { signJwtWith, type ServiceClaims } from './service-jwt.ts';
import { kmsClient, kmsSigner, kmsSigningKeys } from './service-key-kms.ts';
import { loadedPerSource } from './service-key-loads.ts';
import { SERVICE_KEY_ENV, type ServiceKeys } from './service-key-model.ts';
import { serviceKeys } from './service-key.ts';
import { config } from '../config.ts';

const loaded = loadedPerSource<ServiceKeys>();

/** The keys that sign: the local file's, else the KMS key the environment names (loaded once per key). */
function signingKeys(): Promise<ServiceKeys> {
  if (config.serviceKeyFile) return serviceKeys();
  const keyId = process.env[SERVICE_KEY_ENV.kmsKeyId] || undefined;
  if (!keyId) return Promise.reject(new Error(`No service key configured: set SERVICE_KEY_FILE (local) or ${SERVICE_KEY_ENV.kmsKeyId} (deployed)`));
  const publicKeys = process.env[SERVICE_KEY_ENV.publicKeys] || undefined;
  return loaded(`kms:${keyId}:${publicKeys ?? ''}`, async () =>
    publicKeys ? kmsSigner(keyId, kmsClient(), await serviceKeys()) : kmsSigningKeys(keyId, kmsClient()),
  );
}

/** A token of the service, signed with its current key. */
export async function signServiceJwt(claims: ServiceClaims, expiresAt?: Date, issuedAt?: Date): Promise<string> {
  return signJwtWith(await signingKeys(), claims, expiresAt, issuedAt);
}

/** Loads the signing key now (refused as signing would be): for work that signs only once it has written much. */
export async function ensureSigningKey(): Promise<void> {
  await signingKeys();
}
