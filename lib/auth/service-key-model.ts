// What the service's key material is, whichever source provides it (./service-key.ts reads a
// local file, ./service-key-kms.ts the deployed KMS key): the shapes both produce and
// the names the stack configures them by.
import type { KeyObject } from 'node:crypto';

export const SERVICE_JWT_ALG = 'ES256';

/** A P-256 public key node:crypto verifies with. */
export type ServiceCryptoKey = KeyObject;

/** Signs a JWS signing input; returns the JOSE ES256 signature (r || s, 64 bytes). */
export type JwsSigner = (signingInput: Uint8Array) => Promise<Uint8Array>;

export interface ServiceKeys {
  /** Key id of the signing key, written into each token's header. */
  kid: string;
  /** Signs locally (the key file's private key); absent where the function may not sign (least privilege). */
  sign: JwsSigner | undefined;
  /**
   * Signs in KMS (deployed, where the function holds kms:Sign). The signer is made from it where a
   * token is signed (./service-key-kms-sign.ts), so functions that only verify do not carry it.
   */
  kmsSigning?: KmsSigning;
  /** Keys that verify, by kid: the signing key and, after a rotation, the retired ones. */
  verifyKeys: ReadonlyMap<string, ServiceCryptoKey>;
}

/**
 * Environment of the deployed source; the stack sets these names (infra/route-functions.ts
 * imports them). The values are identifiers, never key material.
 */
export const SERVICE_KEY_ENV = {
  /** The KMS key that signs (key id, ARN or alias). */
  kmsKeyId: 'SERVICE_KMS_KEY_ID',
  /** Retired KMS keys, comma-separated: tokens they signed still verify (see key rotation). */
  previousKmsKeyIds: 'SERVICE_KMS_PREVIOUS_KEY_IDS',
  /** '1' on functions granted kms:Sign. */
  kmsSign: 'SERVICE_KMS_SIGN',
  /** Secrets Manager secret holding the service secret (./service-secret.ts): set only where it may be read. */
  secretId: 'SERVICE_SECRET_ID',
} as const;

/** The deployed source as the environment describes it. */
export interface KmsKeySource {
  keyId: string;
  previousKeyIds: string[];
  /** Whether this function may sign (it holds kms:Sign). */
  canSign: boolean;
}

/** The KMS key that signs and its Sign call (./service-key-kms.ts, through the SDK's KMS client). */
export interface KmsSigning {
  keyId: string;
  /** KMS Sign, ECDSA_SHA_256 over the RAW `message`: the DER signature. */
  sign: (message: Uint8Array) => Promise<Uint8Array>;
}
