// The deployed verification keys: the public halves of the service's KMS keys, read once at deploy
// time (functions/deploy/service-public-keys.ts, a custom resource of the stack) and handed to every
// function in SERVICE_PUBLIC_KEYS. A function that only verifies tokens therefore needs no KMS
// client, no kms: permission and no round trip at cold start; only the functions that sign call KMS
// (./service-key-kms.ts). The encoding is this module's alone: the custom resource writes it with
// encodePublicKeys, the functions read it with publicServiceKeys.
import { createPublicKey } from 'node:crypto';
import { p256Only, type ServiceCryptoKey, type ServiceKeys } from './service-key-model.ts';

/** A P-256 public key from its DER SubjectPublicKeyInfo (what KMS GetPublicKey returns); anything else is refused. */
export function p256PublicKey(spki: Uint8Array, keyId: string): ServiceCryptoKey {
  return p256Only(createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' }), `The public key of ${keyId}`);
}

interface EncodedKey {
  kid: string;
  /** DER SubjectPublicKeyInfo, base64. */
  spki: string;
}

/** The keys as the environment carries them, in order: the signing key's first. */
export function encodePublicKeys(keys: ReadonlyArray<{ kid: string; spki: Uint8Array }>): string {
  return JSON.stringify(keys.map(({ kid, spki }): EncodedKey => ({ kid, spki: Buffer.from(spki).toString('base64') })));
}

/** Verification keys from encodePublicKeys' text; `kid` is the first key's. These keys do not sign. */
export function publicServiceKeys(encoded: string): ServiceKeys {
  let entries: unknown;
  try {
    entries = JSON.parse(encoded);
  } catch {
    entries = undefined;
  }
  const valid =
    Array.isArray(entries) &&
    entries.length > 0 &&
    entries.every((e: Partial<EncodedKey> | null) => typeof e?.kid === 'string' && e.kid !== '' && typeof e.spki === 'string');
  if (!valid) throw new Error('The service public keys are not a non-empty list of {kid, spki}');
  const keys = entries as EncodedKey[];
  return {
    kid: keys[0]!.kid,
    sign: undefined,
    verifyKeys: new Map(keys.map(({ kid, spki }) => [kid, p256PublicKey(Buffer.from(spki, 'base64'), kid)])),
  };
}
