import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for KMS and Secrets Manager on their JSON wire protocol (there is no emulator): it
 * holds a P-256 key, answers GetPublicKey with its SPKI and Sign with a DER ECDSA signature, as
 * KMS does, and GetSecretValue with a string.
 */
export function fakeAws() {
  const KEY_ID = '1234abcd-12ab-34cd-56ef-1234567890ab';
  const keyArn = `arn:aws:kms:eu-west-1:111122223333:key/${KEY_ID}`;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const calls: string[] = [];
  /** Each request's SigV4 Authorization header, by target (the fake does not check signatures). */
  const authorizations: Array<{ target: string; authorization: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target']);
      calls.push(target);
      authorizations.push({ target, authorization: String(req.headers.authorization) });
      const input = JSON.parse(body || '{}') as { KeyId?: string; Message?: string; SecretId?: string };
      let out: unknown;
      if (target === 'TrentService.GetPublicKey' && input.KeyId === keyArn) {
        out = { KeyId: keyArn, KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY', PublicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64') };
      } else if (target === 'TrentService.Sign' && input.KeyId === keyArn) {
        const signature = nodeSign('sha256', Buffer.from(input.Message!, 'base64'), { key: privateKey, dsaEncoding: 'der' });
        out = { KeyId: keyArn, SigningAlgorithm: 'ECDSA_SHA_256', Signature: signature.toString('base64') };
      } else if (target === 'secretsmanager.GetSecretValue' && input.SecretId === 'cursor-secret') {
        out = { ARN: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:cursor-secret', Name: 'cursor-secret', SecretString: 'a-long-random-string-from-the-stack' };
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
