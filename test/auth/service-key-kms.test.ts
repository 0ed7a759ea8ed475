// The deployed key source. There is no KMS emulator here, so most of these tests fake the signed
// AWS call (and say so): the fake KMS holds local P-256 keys, answers GetPublicKey with their SPKI
// and Sign with a DER ECDSA signature, base64 in JSON, exactly as KMS's wire protocol does. One test
// goes over HTTP through the real signed call to the wire-protocol fake of test/infra/fake-aws.ts.
import { generateKeyPairSync, sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { awsJsonCall, type AwsJsonCall, type AwsJsonService } from '#lib/auth/aws-json.ts';
import { signJwtWith, verifyJwtWith, type ServiceClaims } from '#lib/auth/service-jwt.ts';
import { generateServiceKeyMaterial, importServiceKeys } from '#lib/auth/service-key-file.ts';
import { derToJoseSignature } from '#lib/auth/service-key-kms-sign.ts';
import { kmsServiceKeys } from '#lib/auth/service-key-kms.ts';
import { fakeAws } from '../infra/fake-aws.ts';

const KEY_ARN = (id: string) => `arn:aws:kms:eu-west-1:111122223333:key/${id}`;

/** The signed AWS call faked in process: KMS with `keys`, Secrets Manager with one secret. */
function fakeCall(keys: Record<string, KeyObject>, secret = 'x') {
  const calls: Array<{ operation: string; input: Record<string, unknown> }> = [];
  const call: AwsJsonCall = async (service, operation, input) => {
    calls.push({ operation: `${service.targetPrefix}.${operation}`, input: { ...input } });
    if (service.name === 'secretsmanager') {
      if (operation !== 'GetSecretValue' || input.SecretId !== 'cursor-secret') throw new Error('unexpected secret call');
      return { SecretString: secret };
    }
    const keyId = input.KeyId as string;
    const privateKey = keys[keyId];
    if (!privateKey) throw new Error('kms GetPublicKey failed (400 NotFoundException): not found');
    if (operation === 'GetPublicKey') {
      return { KeyId: KEY_ARN(keyId), KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY', PublicKey: Buffer.from(generatePublic(privateKey)).toString('base64') };
    }
    if (operation !== 'Sign' || input.MessageType !== 'RAW' || input.SigningAlgorithm !== 'ECDSA_SHA_256' || typeof input.Message !== 'string') throw new Error('unexpected Sign input');
    const signature = nodeSign('sha256', Buffer.from(input.Message, 'base64'), { key: privateKey, dsaEncoding: 'der' });
    return { KeyId: KEY_ARN(keyId), Signature: signature.toString('base64') };
  };
  return { call, calls };
}

const publicKeys = new WeakMap<KeyObject, KeyObject>();
function newKey(): KeyObject {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  publicKeys.set(privateKey, publicKey);
  return privateKey;
}
const generatePublic = (privateKey: KeyObject) => new Uint8Array(publicKeys.get(privateKey)!.export({ format: 'der', type: 'spki' }));

const claims = (): ServiceClaims => ({ tu: 'api', ws: 'ws-1', sub: 'member-1', scope: 'notes:read', jti: crypto.randomUUID() });

describe('service key from KMS (the signed AWS call faked in process: no emulator exists)', () => {
  it('a token signed through KMS Sign verifies with jose against the public key alone', async () => {
    const key = newKey();
    const kms = fakeCall({ 'key-1': key }, 's3cret');
    const keys = await kmsServiceKeys({ keyId: 'key-1', previousKeyIds: [], canSign: true, secretId: 'cursor-secret' }, kms.call);
    const token = await signJwtWith(keys, claims(), new Date(Date.now() + 60_000));

    // Independent check: jose with the raw public key, no code of ours on the verifying side.
    const { payload } = await jwtVerify(token, publicKeys.get(key)!, { algorithms: ['ES256'], issuer: 'pm-api' });
    expect(payload).toMatchObject({ tu: 'api', ws: 'ws-1', sub: 'member-1', scope: 'notes:read' });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: 'key-1', typ: 'JWT' });
    expect(await verifyJwtWith(keys, token)).toMatchObject({ ws: 'ws-1', sub: 'member-1' });
    expect(kms.calls.map((c) => c.operation)).toEqual(['TrentService.GetPublicKey', 'secretsmanager.GetSecretValue', 'TrentService.Sign']);
  });

  it('a function without kms:Sign gets no signer but still verifies', async () => {
    const key = newKey();
    const signer = await kmsServiceKeys({ keyId: 'key-1', previousKeyIds: [], canSign: true, secretId: undefined }, fakeCall({ 'key-1': key }).call);
    const reader = await kmsServiceKeys({ keyId: 'key-1', previousKeyIds: [], canSign: false, secretId: undefined }, fakeCall({ 'key-1': key }).call);
    expect([reader.sign, reader.kmsSigning]).toEqual([undefined, undefined]);
    await expect(signJwtWith(reader, claims())).rejects.toThrow('This function has no signing key');
    expect(await verifyJwtWith(reader, await signJwtWith(signer, claims()))).toMatchObject({ tu: 'api' });
  });

  it('after a rotation, tokens of the retired key still verify and a foreign key does not', async () => {
    const oldKey = newKey();
    const newKeyObj = newKey();
    const clients = fakeCall({ old: oldKey, new: newKeyObj, other: newKey() }).call;
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
    const clients = fakeCall({ k: newKey() }, 'a-generated-secret').call;
    const a = await kmsServiceKeys({ keyId: 'k', previousKeyIds: [], canSign: false, secretId: 'cursor-secret' }, clients);
    const b = await kmsServiceKeys({ keyId: 'k', previousKeyIds: [], canSign: false, secretId: 'cursor-secret' }, clients);
    expect(a.secret).toHaveLength(32);
    expect(Buffer.from(a.secret).equals(Buffer.from(b.secret))).toBe(true);
    const none = await kmsServiceKeys({ keyId: 'k', previousKeyIds: [], canSign: false, secretId: undefined }, clients);
    expect(() => none.secret).toThrow('No service secret configured: set SERVICE_SECRET_ID');
  });

  it('file and KMS sources produce interchangeable JWS: a file-signed token verifies only with its own key', async () => {
    const file = await importServiceKeys(await generateServiceKeyMaterial());
    const kms = await kmsServiceKeys({ keyId: 'k', previousKeyIds: [], canSign: true, secretId: undefined }, fakeCall({ k: newKey() }).call);
    const fileToken = await signJwtWith(file, claims());
    expect(await verifyJwtWith(file, fileToken)).toMatchObject({ tu: 'api' });
    expect(await verifyJwtWith(kms, fileToken)).toBeUndefined();
  });
});

describe('the signed AWS call over HTTP (a wire-protocol fake: no emulator exists)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('KMS and Secrets Manager answer through one signed fetch each: SigV4 with the service name, the key verifies what KMS signed', async () => {
    const aws = fakeAws();
    const endpoint = await aws.listen();
    try {
      vi.stubEnv('AWS_ENDPOINT_URL_KMS', endpoint);
      vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', endpoint);
      vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
      vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI');
      const keys = await kmsServiceKeys({ keyId: aws.keyArn, previousKeyIds: [], canSign: true, secretId: 'cursor-secret' }, awsJsonCall('eu-west-1'));
      const token = await signJwtWith(keys, claims());
      expect(decodeProtectedHeader(token).kid).toBe(aws.KEY_ID);
      expect((await jwtVerify(token, aws.publicKey, { algorithms: ['ES256'] })).payload).toMatchObject({ tu: 'api', ws: 'ws-1' });
      expect(keys.secret).toHaveLength(32);
      expect(aws.calls.sort()).toEqual(['TrentService.GetPublicKey', 'TrentService.Sign', 'secretsmanager.GetSecretValue']);
      for (const { target, authorization } of aws.authorizations) {
        const service = target.startsWith('secretsmanager') ? 'secretsmanager' : 'kms';
        expect(authorization).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\\d{8}/eu-west-1/${service}/aws4_request, SignedHeaders=[a-z0-9;-]*x-amz-target[a-z0-9;-]*, Signature=[0-9a-f]{64}$`));
      }
      // An error answer becomes an error naming the operation and AWS's error type.
      await expect(kmsServiceKeys({ keyId: 'no-such-key', previousKeyIds: [], canSign: false, secretId: undefined }, awsJsonCall('eu-west-1'))).rejects.toThrow(
        'kms GetPublicKey failed (400 ValidationException): unexpected TrentService.GetPublicKey',
      );
    } finally {
      await aws.close();
    }
  });
});

describe('the signed AWS call retries what the SDK would (a local HTTP server answers as AWS does)', () => {
  afterEach(() => vi.unstubAllEnvs());

  /** A server answering each request with the next of `answers` (status, __type); the targets it received. */
  async function answering(answers: Array<[number, string?]>) {
    const targets: string[] = [];
    const server = createServer((req, res) => {
      targets.push(String(req.headers['x-amz-target']));
      const [status, type] = answers[Math.min(targets.length, answers.length) - 1]!;
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(type ? { __type: `com.amazonaws.sqs#${type}`, message: `${type} it is` } : { MessageId: 'm-1' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    vi.stubEnv('AWS_ENDPOINT_URL_SQS', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI');
    return { targets, close: () => new Promise((r) => server.close(r)) };
  }
  const SQS: AwsJsonService = { name: 'sqs', targetPrefix: 'AmazonSQS', endpointEnv: 'SQS', jsonVersion: '1.0' };

  it('throttling and a 5xx are retried until an answer comes; a client error is not; the third failure is final', async () => {
    const flaky = await answering([[400, 'RequestThrottled'], [503, 'ServiceUnavailable'], [200]]);
    try {
      expect(await awsJsonCall('eu-west-1')(SQS, 'SendMessage', { QueueUrl: 'q' })).toEqual({ MessageId: 'm-1' });
      expect(flaky.targets).toEqual(['AmazonSQS.SendMessage', 'AmazonSQS.SendMessage', 'AmazonSQS.SendMessage']);
    } finally {
      await flaky.close();
    }
    const refused = await answering([[400, 'InvalidParameterValue'], [200]]);
    try {
      await expect(awsJsonCall('eu-west-1')(SQS, 'SendMessage', { QueueUrl: 'q' })).rejects.toThrow('sqs SendMessage failed (400 InvalidParameterValue): InvalidParameterValue it is');
      expect(refused.targets).toHaveLength(1);
    } finally {
      await refused.close();
    }
    const down = await answering([[500, 'InternalError']]);
    try {
      await expect(awsJsonCall('eu-west-1')(SQS, 'SendMessage', { QueueUrl: 'q' })).rejects.toThrow('sqs SendMessage failed (500 InternalError, after 3 attempts): InternalError it is');
      expect(down.targets).toHaveLength(3);
    } finally {
      await down.close();
    }
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
