// The deployed signing key: a KMS asymmetric key (ECC_NIST_P256), created by the stack, that signs
// and never leaves KMS. Only what signs calls it: the functions whose route mints tokens (they hold
// kms:Sign), the admin CLI, and the stack's custom resource that reads the public keys every other
// function verifies with (./service-public-keys.ts). The calls go through the SDK's KMS client,
// bounded as every AWS call is (lib/aws-clients.ts).
import { verify } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { derToJoseSignature, KMS_MAX_RAW_MESSAGE } from './service-key-kms-sign.ts';
import type { ServiceCryptoKey, ServiceKeys } from './service-key-model.ts';
import { p256PublicKey } from './service-public-keys.ts';
import { bounded, clientBounds } from '../aws-clients.ts';
import { config } from '../config.ts';

/** The kid of a KMS key: its key id (the ARN's last segment), stable across aliases. */
const kidOf = (keyArn: string): string => keyArn.slice(keyArn.lastIndexOf('/') + 1);

/** One key's public half: KMS GetPublicKey, checked to be P-256, under its kid (`spki` as KMS gave it, `key` as node:crypto verifies with it). */
export async function publicKeyOf(kms: KMSClient, keyId: string): Promise<{ kid: string; spki: Uint8Array; key: ServiceCryptoKey }> {
  const out = await bounded((options) => kms.send(new GetPublicKeyCommand({ KeyId: keyId }), options));
  if (!out.KeyId || !out.PublicKey?.length) throw new Error(`KMS returned no public key for ${keyId}`);
  if (out.KeySpec !== 'ECC_NIST_P256') throw new Error(`KMS key ${keyId} is ${String(out.KeySpec)}, not ECC_NIST_P256`);
  return { kid: kidOf(out.KeyId), spki: out.PublicKey, key: p256PublicKey(out.PublicKey, keyId) };
}

/**
 * Keys that sign with the KMS key `keyId` under `verifying.kid`, and verify with `verifying`'s keys: a
 * signer that sends KMS Sign over the JWS signing input and turns its DER signature into JOSE's. Its
 * first signature is checked against the public key of that kid, so a key id paired with another
 * key's public half fails there, loudly, instead of minting tokens no function accepts.
 */
export function kmsSigner(keyId: string, kms: KMSClient, verifying: Pick<ServiceKeys, 'kid' | 'verifyKeys'>): ServiceKeys {
  const { kid, verifyKeys } = verifying;
  let checked = false;
  return {
    kid,
    sign: async (input) => {
      if (input.length > KMS_MAX_RAW_MESSAGE) throw new Error('JWS signing input too long for a KMS RAW signature');
      const out = await bounded((options) =>
        kms.send(new SignCommand({ KeyId: keyId, Message: input, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }), options),
      );
      if (!out.Signature?.length) throw new Error('KMS returned no signature');
      const signature = derToJoseSignature(out.Signature);
      if (!checked) {
        const key = verifyKeys.get(kid);
        if (!key || !verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, signature)) {
          throw new Error(`KMS key ${keyId} does not sign for kid ${kid}: its signature does not verify with that kid's public key`);
        }
        checked = true;
      }
      return signature;
    },
    verifyKeys,
  };
}

/** Keys that sign in KMS with the kid read from the key itself (KMS GetPublicKey), so an alias signs under the key's id. */
export async function kmsSigningKeys(keyId: string, kms: KMSClient): Promise<ServiceKeys> {
  const { kid, key } = await publicKeyOf(kms, keyId);
  return kmsSigner(keyId, kms, { kid, verifyKeys: new Map([[kid, key]]) });
}

/** The process's KMS client (region and credentials from the environment, as Lambda sets them). */
export const kmsClient = (): KMSClient => new KMSClient({ region: config.region, ...clientBounds() });
