import { createPublicKey, generateKeyPairSync, sign as nodeSign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodePublicKeys } from '#lib/auth/service-public-keys.ts';

const arnOf = (keyId: string) => `arn:aws:kms:eu-west-1:111122223333:key/${keyId}`;

/**
 * A stand-in for KMS and Secrets Manager on their JSON wire protocol (there is no emulator): it
 * holds a P-256 key, answers GetPublicKey with its SPKI and Sign with a DER ECDSA signature, as
 * KMS does, and GetSecretValue with a string. `KEY_ID` tells two fakes' keys apart; `more` are further
 * private keys by key id (a rotation's), `secret` the secret's value.
 */
export function fakeAws(
  KEY_ID = '1234abcd-12ab-34cd-56ef-1234567890ab',
  { more = {}, secret = 'a-long-random-string-from-the-stack' }: { more?: Record<string, KeyObject>; secret?: string } = {},
) {
  const keyArn = arnOf(KEY_ID);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  // By the KeyId a call names: the main key by its ARN, the others by their key id.
  const keys = new Map<string, KeyObject>([[keyArn, privateKey], ...Object.entries(more)]);
  const arn = (keyId: string) => (keyId.startsWith('arn:') ? keyId : arnOf(keyId));
  const calls: string[] = [];
  /** Each request's SigV4 Authorization header, by target (the fake does not check signatures). */
  const authorizations: Array<{ target: string; authorization: string }> = [];
  /** Each request's target and JSON input, in order. */
  const requests: Array<{ target: string; input: Record<string, unknown> }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target']);
      calls.push(target);
      authorizations.push({ target, authorization: String(req.headers.authorization) });
      const input = JSON.parse(body || '{}') as { KeyId?: string; Message?: string; SecretId?: string };
      requests.push({ target, input });
      let out: unknown;
      const key = keys.get(input.KeyId ?? '');
      if (target === 'TrentService.GetPublicKey' && key) {
        const spki = (key === privateKey ? publicKey : createPublicKey(key)).export({ format: 'der', type: 'spki' });
        out = { KeyId: arn(input.KeyId!), KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY', PublicKey: spki.toString('base64') };
      } else if (target === 'TrentService.Sign' && key) {
        const signature = nodeSign('sha256', Buffer.from(input.Message!, 'base64'), { key, dsaEncoding: 'der' });
        out = { KeyId: arn(input.KeyId!), SigningAlgorithm: 'ECDSA_SHA_256', Signature: signature.toString('base64') };
      } else if (target === 'secretsmanager.GetSecretValue' && input.SecretId === 'cursor-secret') {
        out = { ARN: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:cursor-secret', Name: 'cursor-secret', SecretString: secret };
      } else {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ __type: 'ValidationException', message: `unexpected ${target}` }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify(out));
    });
  });
  return {
    calls,
    authorizations,
    requests,
    keyArn,
    KEY_ID,
    publicKey,
    /** Starts listening; returns the endpoint URL (for AWS_ENDPOINT_URL_KMS / _SECRETS_MANAGER). */
    listen: async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The environment of a function on the deployed key sources, served by `aws` at `endpoint` (no key
 * file): the public key as the stack's custom resource encodes it, and the signing key's id.
 */
export function kmsEnv(aws: ReturnType<typeof fakeAws>, endpoint: string): Record<string, string | undefined> {
  return {
    SERVICE_KEY_FILE: undefined,
    SERVICE_PUBLIC_KEYS: encodePublicKeys([{ kid: aws.KEY_ID, spki: aws.publicKey.export({ format: 'der', type: 'spki' }) }]),
    SERVICE_KMS_KEY_ID: aws.keyArn,
    SERVICE_SECRET_ID: 'cursor-secret',
    AWS_ENDPOINT_URL_KMS: endpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
  };
}

/** Sets `env` in process.env (undefined removes a name); returns what restores the values before. */
export function setEnv(env: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(env);
  return () => apply(saved);
}
