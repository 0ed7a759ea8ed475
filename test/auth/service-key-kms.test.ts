// The deployed key sources — KMS signing (lib/auth/service-key-kms.ts), the public keys read at deploy
// time (lib/auth/service-public-keys.ts, functions/deploy/service-public-keys.ts) — and secret source
// (lib/auth/service-secret-aws.ts) through the SDK's KMS and Secrets Manager clients, as deployed. There is no KMS emulator here, so they talk to a stand-in on the services'
// JSON wire protocol (test/infra/fake-aws.ts): it holds P-256 keys, answers GetPublicKey with their
// SPKI and Sign with a DER ECDSA signature, as KMS does, and GetSecretValue with a string.
import { createPublicKey, generateKeyPairSync, sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';
import { KMSClient } from '@aws-sdk/client-kms';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signServiceJwt } from '#lib/auth/service-jwt-signing.ts';
import { signJwtWith, verifyJwtWith, type ServiceClaims } from '#lib/auth/service-jwt.ts';
import { generateServiceKeyMaterial, importServiceKeys } from '#lib/auth/service-key-file.ts';
import { derToJoseSignature } from '#lib/auth/service-key-kms-sign.ts';
import { kmsSigner, kmsSigningKeys, publicKeyOf } from '#lib/auth/service-key-kms.ts';
import { serviceKeys } from '#lib/auth/service-key.ts';
import { encodePublicKeys, publicServiceKeys } from '#lib/auth/service-public-keys.ts';
import { secretOf } from '#lib/auth/service-secret-aws.ts';
import { serviceSecret } from '#lib/auth/service-secret.ts';
import { clientBounds } from '#lib/aws-clients.ts';
import { fakeAws, kmsEnv, setEnv } from '../infra/fake-aws.ts';

const newKey = (): KeyObject => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
const claims = (): ServiceClaims => ({ tu: 'api', ws: 'ws-1', sub: 'member-1', scope: 'notes:read', jti: crypto.randomUUID() });

// The main key, and those of a rotation and of a stranger, by key id.
const keys = { old: newKey(), new: newKey(), other: newKey() };
const aws = fakeAws('1234abcd-12ab-34cd-56ef-1234567890ab', { more: keys, secret: 'a-generated-secret' });
let clients: { kms: KMSClient; secrets: SecretsManagerClient };
let endpoint: string;
beforeAll(async () => {
  endpoint = await aws.listen();
  const config = { region: 'eu-west-1', endpoint, credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI' } };
  clients = { kms: new KMSClient({ ...config, ...clientBounds() }), secrets: new SecretsManagerClient({ ...config, ...clientBounds() }) };
});
afterAll(() => aws.close());

/** What a function that only verifies gets: the public halves of `keyIds`, as the stack's custom resource reads and encodes them. */
const verifierOf = async (...keyIds: string[]) =>
  publicServiceKeys(encodePublicKeys(await Promise.all(keyIds.map((keyId) => publicKeyOf(clients.kms, keyId)))));

describe('service key from KMS and Secrets Manager (the SDK clients against a wire-protocol stand-in: no emulator exists)', () => {
  it('a token signed through KMS Sign verifies with jose against the public key alone; the calls are signed with SigV4 for their service', async () => {
    aws.calls.length = 0;
    aws.authorizations.length = 0;
    const serviceKeys = await kmsSigningKeys(aws.keyArn, clients.kms);
    const token = await signJwtWith(serviceKeys, claims(), new Date(Date.now() + 60_000));
    // Independent check: jose with the raw public key, no code of ours on the verifying side.
    const { payload } = await jwtVerify(token, aws.publicKey, { algorithms: ['ES256'], issuer: 'pm-api' });
    expect(payload).toMatchObject({ tu: 'api', ws: 'ws-1', sub: 'member-1', scope: 'notes:read' });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: aws.KEY_ID, typ: 'JWT' });
    expect(await verifyJwtWith(serviceKeys, token)).toMatchObject({ ws: 'ws-1', sub: 'member-1' });
    expect(await secretOf(clients.secrets, 'cursor-secret')).toHaveLength(32);
    expect([...aws.calls].sort()).toEqual(['TrentService.GetPublicKey', 'TrentService.Sign', 'secretsmanager.GetSecretValue']);
    expect(aws.requests.find((r) => r.target === 'TrentService.Sign')!.input).toMatchObject({
      KeyId: aws.keyArn,
      MessageType: 'RAW',
      SigningAlgorithm: 'ECDSA_SHA_256',
    });
    for (const { target, authorization } of aws.authorizations) {
      const service = target.startsWith('secretsmanager') ? 'secretsmanager' : 'kms';
      expect(authorization).toMatch(
        new RegExp(
          `^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\\d{8}/eu-west-1/${service}/aws4_request, SignedHeaders=[a-z0-9;-]*x-amz-target[a-z0-9;-]*, Signature=[0-9a-f]{64}$`,
        ),
      );
    }
  });

  it('a function that only verifies gets the public keys alone: no signer, no KMS call, and KMS-signed tokens verify', async () => {
    const signer = await kmsSigningKeys('new', clients.kms);
    const reader = await verifierOf('new');
    aws.calls.length = 0;
    expect(reader.sign).toBeUndefined();
    await expect(signJwtWith(reader, claims())).rejects.toThrow('This function has no signing key');
    const token = await signJwtWith(signer, claims());
    expect(await verifyJwtWith(reader, token)).toMatchObject({ tu: 'api' });
    expect(aws.calls).toEqual(['TrentService.Sign']);
  });

  it('after a rotation, tokens of the retired key still verify and a foreign key does not', async () => {
    const [before, after, foreign] = await Promise.all(['old', 'new', 'other'].map((keyId) => kmsSigningKeys(keyId, clients.kms)));
    const verifyBefore = await verifierOf('old');
    // The signing key first, then the retired one: the stack's KeyIds.
    const verifyAfter = await verifierOf('new', 'old');
    expect([verifyAfter.kid, [...verifyAfter.verifyKeys.keys()]]).toEqual(['new', ['new', 'old']]);
    const oldToken = await signJwtWith(before!, claims());
    expect(await verifyJwtWith(verifyAfter, oldToken)).toMatchObject({ sub: 'member-1' });
    expect(decodeProtectedHeader(await signJwtWith(after!, claims())).kid).toBe('new');
    expect(await verifyJwtWith(verifyAfter, await signJwtWith(foreign!, claims()))).toBeUndefined();
    expect(await verifyJwtWith(verifyBefore, await signJwtWith(after!, claims()))).toBeUndefined();
  });

  it('a deployed signing function takes its kid from the public keys in its environment: its first token costs KMS one Sign', async () => {
    // After a rotation: the signing key's public half first, then the retired one's.
    const retired = { kid: 'old', spki: createPublicKey(keys.old).export({ format: 'der', type: 'spki' }) };
    const signingKey = { kid: aws.KEY_ID, spki: aws.publicKey.export({ format: 'der', type: 'spki' }) };
    const restore = setEnv({ ...kmsEnv(aws, endpoint), SERVICE_PUBLIC_KEYS: encodePublicKeys([signingKey, retired]), SERVICE_SECRET_ID: undefined });
    try {
      aws.calls.length = 0;
      const token = await signServiceJwt(claims(), new Date(Date.now() + 60_000));
      expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: aws.KEY_ID, typ: 'JWT' });
      await expect(jwtVerify(token, aws.publicKey, { algorithms: ['ES256'] })).resolves.toBeDefined();
      expect(aws.calls).toEqual(['TrentService.Sign']);
    } finally {
      restore();
    }
  });

  it('a key id paired with another key’s public half fails on its first signature instead of minting tokens no one accepts', async () => {
    const mispaired = kmsSigner('other', clients.kms, await verifierOf('new'));
    await expect(signJwtWith(mispaired, claims())).rejects.toThrow(
      "KMS key other does not sign for kid new: its signature does not verify with that kid's public key",
    );
    const paired = kmsSigner('new', clients.kms, await verifierOf('new', 'old'));
    const token = await signJwtWith(paired, claims());
    expect(await verifyJwtWith(await verifierOf('new'), token)).toMatchObject({ sub: 'member-1' });
  });

  it('public keys that are not the encoding, or not P-256, are refused at load, not taken for no key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'der', type: 'spki' });
    expect(() => publicServiceKeys('')).toThrow('The service public keys are not a non-empty list of {kid, spki}');
    expect(() => publicServiceKeys('[]')).toThrow('The service public keys are not a non-empty list of {kid, spki}');
    expect(() => publicServiceKeys('[{"kid":"a"}]')).toThrow('The service public keys are not a non-empty list of {kid, spki}');
    expect(() => publicServiceKeys(encodePublicKeys([{ kid: 'rsa', spki: rsa }]))).toThrow('The public key of rsa is not a P-256 key');
  });

  it('the service secret comes from Secrets Manager, the same on every load; where no secret is named reading it fails loudly', async () => {
    const a = await secretOf(clients.secrets, 'cursor-secret');
    const b = await secretOf(clients.secrets, 'cursor-secret');
    expect(a).toHaveLength(32);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    // A function whose row does not say `secret` has neither the key file nor SERVICE_SECRET_ID.
    const restore = setEnv({ SERVICE_KEY_FILE: undefined, SERVICE_SECRET_ID: undefined });
    try {
      await expect(serviceSecret()).rejects.toThrow('No service secret configured: set SERVICE_KEY_FILE (local) or SERVICE_SECRET_ID (deployed)');
    } finally {
      restore();
    }
  });

  it('a function that reads the secret starts loading it when its keys begin to load; the keys themselves cost no call', async () => {
    const restore = setEnv(kmsEnv(aws, endpoint));
    try {
      aws.calls.length = 0;
      const keys = await serviceKeys();
      expect([keys.sign, [...keys.verifyKeys.keys()]]).toEqual([undefined, [aws.KEY_ID]]);
      // Nothing has asked for the secret yet.
      await vi.waitFor(() => expect(aws.calls).toEqual(['secretsmanager.GetSecretValue']));
      expect(await serviceSecret()).toHaveLength(32);
      expect(aws.calls).toHaveLength(1);
    } finally {
      restore();
    }
  });

  it('file and KMS sources produce interchangeable JWS: a file-signed token verifies only with its own key', async () => {
    const file = await importServiceKeys(await generateServiceKeyMaterial());
    const kms = await kmsSigningKeys('other', clients.kms);
    const fileToken = await signJwtWith(file, claims());
    expect(await verifyJwtWith(file, fileToken)).toMatchObject({ tu: 'api' });
    expect(await verifyJwtWith(kms, fileToken)).toBeUndefined();
  });

  it('an error answer is the SDK’s error of that name, with the service’s message', async () => {
    await expect(publicKeyOf(clients.kms, 'no-such-key')).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'unexpected TrentService.GetPublicKey',
      $metadata: { httpStatusCode: 400 },
    });
  });
});

describe('DER → JOSE ECDSA signature conversion', () => {
  it('every DER signature converts to the r||s form the same key verifies (leading zeros and short integers included)', () => {
    const { privateKey: key, publicKey: pub } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
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
