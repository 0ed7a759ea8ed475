// The deployed source of the service keys: a KMS asymmetric key (ECC_NIST_P256), created by the
// stack, that signs and never leaves KMS. Its public keys are fetched once per cold start and
// verification is local (node:crypto); only functions whose route mints tokens hold kms:Sign. The
// calls go through the SDK's KMS client, bounded as every AWS call is (lib/aws-clients.ts).
// ./service-key.ts makes its client only where the configuration names a KMS key.
import { createPublicKey } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { type KmsKeySource, type ServiceCryptoKey, type ServiceKeys } from './service-key-model.ts';
import { bounded, clientBounds } from '../aws-clients.ts';
import { config } from '../config.ts';

/** The kid of a KMS key: its key id (the ARN's last segment), stable across aliases. */
const kidOf = (keyArn: string) => keyArn.slice(keyArn.lastIndexOf('/') + 1);

/** One verification key: KMS GetPublicKey, checked to be P-256, under its kid. */
async function publicKeyOf(kms: KMSClient, keyId: string): Promise<[kid: string, key: ServiceCryptoKey]> {
  const out = await bounded((options) => kms.send(new GetPublicKeyCommand({ KeyId: keyId }), options));
  if (!out.KeyId || !out.PublicKey?.length) throw new Error(`KMS returned no public key for ${keyId}`);
  if (out.KeySpec !== 'ECC_NIST_P256') throw new Error(`KMS key ${keyId} is ${String(out.KeySpec)}, not ECC_NIST_P256`);
  const key = createPublicKey({ key: Buffer.from(out.PublicKey), format: 'der', type: 'spki' });
  if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error(`KMS key ${keyId} did not return a P-256 public key`);
  return [kidOf(out.KeyId), key];
}

/** Service keys from KMS: public keys fetched once, signing stays in KMS. */
export async function kmsServiceKeys(source: KmsKeySource, kms: KMSClient): Promise<ServiceKeys> {
  const keys = await Promise.all([source.keyId, ...source.previousKeyIds].map((keyId) => publicKeyOf(kms, keyId)));
  return {
    kid: keys[0]![0],
    sign: undefined,
    // Signing stays in KMS; the JOSE signer is made where a token is signed (./service-key-kms-sign.ts).
    kmsSigning: source.canSign
      ? {
          keyId: source.keyId,
          sign: async (message) => {
            const out = await bounded((options) =>
              kms.send(new SignCommand({ KeyId: source.keyId, Message: message, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }), options),
            );
            if (!out.Signature?.length) throw new Error('KMS returned no signature');
            return out.Signature;
          },
        }
      : undefined,
    verifyKeys: new Map(keys),
  };
}

/** The service keys through the process's clients (region and credentials from the environment, as Lambda sets them). */
export function kmsServiceKeysFromAws(source: KmsKeySource): Promise<ServiceKeys> {
  return kmsServiceKeys(source, new KMSClient({ region: config.region, ...clientBounds() }));
}
