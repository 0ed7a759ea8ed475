// What the service's key material is, whichever source provides it (./service-key-file.ts locally;
// deployed, ./service-public-keys.ts for verifying and ./service-key-kms.ts for signing): the shapes
// they produce and the names the stack configures them by.
import type { KeyObject } from 'node:crypto';

export const SERVICE_JWT_ALG = 'ES256';

/** A P-256 public key node:crypto verifies with. */
export type ServiceCryptoKey = KeyObject;

/** `key` if it is a P-256 key (what ES256 signs with), whichever source gave it; `what` names it in the refusal. */
export function p256Only(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error(`${what} is not a P-256 key`);
  return key;
}

/** Signs a JWS signing input; returns the JOSE ES256 signature (r || s, 64 bytes). */
export type JwsSigner = (signingInput: Uint8Array) => Promise<Uint8Array>;

export interface ServiceKeys {
  /** Key id of the signing key, written into each token's header. */
  kid: string;
  /** Signs: the key file's private key, or KMS Sign where the function holds kms:Sign; absent where it only verifies (least privilege). */
  sign: JwsSigner | undefined;
  /** Keys that verify, by kid: the signing key and, after a rotation, the retired ones. */
  verifyKeys: ReadonlyMap<string, ServiceCryptoKey>;
}

/**
 * Environment of the deployed sources; the stack sets these names (infra/route-functions.ts
 * imports them). The values are identifiers and public keys, never private material.
 */
export const SERVICE_KEY_ENV = {
  /**
   * The public keys that verify, as ./service-public-keys.ts encodes them: the signing key's first,
   * then the retired ones. The stack reads them from KMS at deploy time (infra/service-public-keys.ts).
   */
  publicKeys: 'SERVICE_PUBLIC_KEYS',
  /** The KMS key that signs (key id, ARN or alias): set only where the function may sign. */
  kmsKeyId: 'SERVICE_KMS_KEY_ID',
  /** Secrets Manager secret holding the service secret (./service-secret.ts): set only where it may be read. */
  secretId: 'SERVICE_SECRET_ID',
} as const;
