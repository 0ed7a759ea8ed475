// The deployed key source. There is no KMS emulator here, so these tests mock the KMS and Secrets
// Manager clients (and say so): the fake KMS holds a local P-256 key, answers GetPublicKey with
// its SPKI and Sign with a DER ECDSA signature, exactly the shapes KMS returns.
import { generateKeyPairSync, sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';
import { GetPublicKeyCommand, type SignCommand, type KMSClient } from '@aws-sdk/client-kms';
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { signJwtWith, verifyJwtWith, type ServiceClaims } from '#lib/auth/service-jwt.ts';
import { derToJoseSignature, kmsServiceKeys } from '#lib/auth/service-key-kms.ts';
import { generateServiceKeyMaterial, importServiceKeys } from '#lib/auth/service-key.ts';

const KEY_ARN = (id: string) => `arn:aws:kms:eu-west-1:111122223333:key/${id}`;

function fakeKms(keys: Record<string, KeyObject>) {
  const calls: Array<{ command: string; input: Record<string, unknown> }> = [];
  const client = {
    send: async (command: GetPublicKeyCommand | SignCommand) => {
      const input = command.input as { KeyId: string };
      calls.push({ command: command.constructor.name, input: { ...command.input } });
      const privateKey = keys[input.KeyId];
      if (!privateKey) throw Object.assign(new Error('not found'), { name: 'NotFoundException' });
      if (command instanceof GetPublicKeyCommand) {
        const spki = generatePublic(privateKey);
        return { KeyId: KEY_ARN(input.KeyId), KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY', PublicKey: spki };
      }
      const { Message, MessageType, SigningAlgorithm } = command.input;
      if (MessageType !== 'RAW' || SigningAlgorithm !== 'ECDSA_SHA_256' || !Message) throw new Error('unexpected Sign input');
      return { KeyId: KEY_ARN(input.KeyId), Signature: new Uint8Array(nodeSign('sha256', Message, { key: privateKey, dsaEncoding: 'der' })) };
    },
  };
  return { client: client as unknown as KMSClient, calls };
}

const publicKeys = new WeakMap<KeyObject, KeyObject>();
function newKey(): KeyObject {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  publicKeys.set(privateKey, publicKey);
  return privateKey;
}
const generatePublic = (privateKey: KeyObject) => new Uint8Array(publicKeys.get(privateKey)!.export({ format: 'der', type: 'spki' }));

function fakeSecrets(value: string) {
  return {
    send: async (command: GetSecretValueCommand) => {
      if (!(command instanceof GetSecretValueCommand) || command.input.SecretId !== 'cursor-secret') throw new Error('unexpected secret call');
      return { SecretString: value };
    },
  } as unknown as SecretsManagerClient;
}

const claims = (): ServiceClaims => ({ tu: 'api', ws: 'ws-1', sub: 'member-1', scope: 'notes:read', jti: crypto.randomUUID() });

describe('service key from KMS (KMS and Secrets Manager clients mocked: no emulator exists)', () => {
  it('a token signed through KMS Sign verifies with jose against the public key alone', async () => {
    const key = newKey();
    const kms = fakeKms({ 'key-1': key });
    const keys = await kmsServiceKeys({ keyId: 'key-1', previousKeyIds: [], canSign: true, secretId: 'cursor-secret' }, { kms: kms.client, secrets: fakeSecrets('s3cret') });
    const token = await signJwtWith(keys, claims(), new Date(Date.now() + 60_000));

    // Independent check: jose with the raw public key, no code of ours on the verifying side.
    const { payload } = await jwtVerify(token, publicKeys.get(key)!, { algorithms: ['ES256'], issuer: 'pm-api' });
    expect(payload).toMatchObject({ tu: 'api', ws: 'ws-1', sub: 'member-1', scope: 'notes:read' });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: 'key-1', typ: 'JWT' });
    expect(await verifyJwtWith(keys, token)).toMatchObject({ ws: 'ws-1', sub: 'member-1' });
    expect(kms.calls.map((c) => c.command)).toEqual(['GetPublicKeyCommand', 'SignCommand']);
  });

  it('a function without kms:Sign gets no signer but still verifies', async () => {
    const key = newKey();
    const signer = await kmsServiceKeys({ keyId: 'key-1', previousKeyIds: [], canSign: true, secretId: undefined }, { kms: fakeKms({ 'key-1': key }).client, secrets: fakeSecrets('x') });
    const reader = await kmsServiceKeys({ keyId: 'key-1', previousKeyIds: [], canSign: false, secretId: undefined }, { kms: fakeKms({ 'key-1': key }).client, secrets: fakeSecrets('x') });
    expect(reader.sign).toBeUndefined();
    await expect(signJwtWith(reader, claims())).rejects.toThrow('This function has no signing key');
    expect(await verifyJwtWith(reader, await signJwtWith(signer, claims()))).toMatchObject({ tu: 'api' });
  });

  it('after a rotation, tokens of the retired key still verify and a foreign key does not', async () => {
    const oldKey = newKey();
    const newKeyObj = newKey();
    const clients = { kms: fakeKms({ old: oldKey, new: newKeyObj, other: newKey() }).client, secrets: fakeSecrets('x') };
    const before = await kmsServiceKeys({ keyId: 'old', previousKeyIds: [], canSign: true, secretId: undefined }, clients);
    const after = await kmsServiceKeys({ keyId: 'new', previousKeyIds: ['old'], canSign: true, secretId: undefined }, clients);
    const foreign = await kmsServiceKeys({ keyId: 'other', previousKeyIds: [], canSign: true, secretId: undefined }, clients);
    const oldToken = await signJwtWith(before, claims());
    expect(await verifyJwtWith(after, oldToken)).toMatchObject({ sub: 'member-1' });
    expect(decodeProtectedHeader(await signJwtWith(after, claims())).kid).toBe('new');
    expect(await verifyJwtWith(after, await signJwtWith(foreign, claims()))).toBeUndefined();
    expect(await verifyJwtWith(before, await signJwtWith(after, claims()))).toBeUndefined();
  });

  it('the cursor secret comes from Secrets Manager; without a secret id reading it fails loudly', async () => {
    const clients = { kms: fakeKms({ k: newKey() }).client, secrets: fakeSecrets('a-generated-secret') };
    const a = await kmsServiceKeys({ keyId: 'k', previousKeyIds: [], canSign: false, secretId: 'cursor-secret' }, clients);
    const b = await kmsServiceKeys({ keyId: 'k', previousKeyIds: [], canSign: false, secretId: 'cursor-secret' }, clients);
    expect(a.secret).toHaveLength(32);
    expect(Buffer.from(a.secret).equals(Buffer.from(b.secret))).toBe(true);
    const none = await kmsServiceKeys({ keyId: 'k', previousKeyIds: [], canSign: false, secretId: undefined }, clients);
    expect(() => none.secret).toThrow('No service secret configured: set SERVICE_SECRET_ID');
  });

  it('file and KMS sources produce interchangeable JWS: a file-signed token verifies only with its own key', async () => {
    const file = await importServiceKeys(await generateServiceKeyMaterial());
    const kms = await kmsServiceKeys({ keyId: 'k', previousKeyIds: [], canSign: true, secretId: undefined }, { kms: fakeKms({ k: newKey() }).client, secrets: fakeSecrets('x') });
    const fileToken = await signJwtWith(file, claims());
    expect(await verifyJwtWith(file, fileToken)).toMatchObject({ tu: 'api' });
    expect(await verifyJwtWith(kms, fileToken)).toBeUndefined();
  });
});

describe('DER → JOSE ECDSA signature conversion', () => {
  it('every DER signature converts to the r||s form the same key verifies (leading zeros and short integers included)', () => {
    const key = newKey();
    const pub = publicKeys.get(key)!;
    const lengths = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const data = Buffer.from(`message ${i}`);
      const der = nodeSign('sha256', data, { key, dsaEncoding: 'der' });
      lengths.add(der.length);
      const jose = derToJoseSignature(der);
      expect(jose).toHaveLength(64);
      expect(nodeVerify('sha256', data, { key: pub, dsaEncoding: 'ieee-p1363' }, jose)).toBe(true);
    }
    // 70..72 bytes: integers with and without the sign-padding zero were both exercised.
    expect(lengths.size).toBeGreaterThan(1);
  });

  it('garbage is refused, not converted', () => {
    expect(() => derToJoseSignature(new Uint8Array([0x30, 0x03, 0x02, 0x01]))).toThrow('Malformed DER ECDSA signature');
    expect(() => derToJoseSignature(new Uint8Array(64))).toThrow('Malformed DER ECDSA signature');
  });
});
