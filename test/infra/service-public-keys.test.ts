// Custom::ServicePublicKeys as CloudFormation drives it: the stack's function
// (functions/deploy/service-public-keys.ts) is invoked with the custom resource's request, reads the
// keys through the SDK's KMS client (KMS faked on its wire protocol: there is no emulator), and PUTs
// its answer to the request's ResponseURL — here a server of this test standing in for the
// pre-signed S3 URL. What it answers is what the functions verify with (lib/auth/service-public-keys.ts).
// The module is run as the tests import it, and as the stack bundles it (infra/bundling.ts).
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwtWith, verifyJwtWith } from '#lib/auth/service-jwt.ts';
import { kmsClient, kmsSigningKeys } from '#lib/auth/service-key-kms.ts';
import { publicServiceKeys } from '#lib/auth/service-public-keys.ts';
import { fakeAws, kmsEnv, setEnv } from './fake-aws.ts';
import { handler as sourceHandler } from '../../functions/deploy/service-public-keys.ts';
import { esbuildOptions, PROJECT_ROOT } from '../../infra/bundling.ts';
import { MAX_RETIRED_SERVICE_KEYS } from '../../infra/settings.ts';

const HANDLER = 'functions/deploy/service-public-keys.ts';
type Handler = typeof sourceHandler;

const newKey = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
const old = newKey();
/** As many retired keys as a deploy may keep, by ARN (real key ids are UUIDs: their length counts below). */
const retiredArns = Array.from({ length: MAX_RETIRED_SERVICE_KEYS }, () => `arn:aws:kms:eu-west-1:111122223333:key/${randomUUID()}`);
const aws = fakeAws('9abcabcd-12ab-34cd-56ef-1234567890ab', { more: { old, ...Object.fromEntries(retiredArns.map((arn) => [arn, newKey()])) } });
const answers: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: Record<string, any> }> = [];
const responder = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    answers.push({ method: req.method!, url: req.url!, headers: req.headers, body: JSON.parse(body) as Record<string, any> });
    res.end();
  });
});
let responseUrl: string;
let restore: () => void;
let bundleDir: string;
let bundledHandler: Handler;

beforeAll(async () => {
  bundleDir = await mkdtemp(join(tmpdir(), 'pm-api-public-keys-'));
  const outfile = join(bundleDir, 'index.mjs');
  await build({ entryPoints: [join(PROJECT_ROOT, HANDLER)], outfile, ...esbuildOptions() });
  bundledHandler = ((await import(pathToFileURL(outfile).href)) as { handler: Handler }).handler;
  restore = setEnv({ ...kmsEnv(aws, await aws.listen()), SERVICE_KMS_KEY_ID: undefined, SERVICE_PUBLIC_KEYS: undefined });
  await new Promise<void>((r) => responder.listen(0, '127.0.0.1', r));
  responseUrl = `http://127.0.0.1:${(responder.address() as AddressInfo).port}/cloudformation-response?X-Amz-Signature=abc`;
});
afterAll(async () => {
  restore();
  await rm(bundleDir, { recursive: true, force: true });
  await aws.close();
  await new Promise<void>((r) => responder.close(() => r()));
});

const request = (RequestType: 'Create' | 'Update' | 'Delete', KeyIds: unknown): CloudFormationCustomResourceEvent =>
  ({
    RequestType,
    ServiceToken: 'arn:aws:lambda:eu-west-1:111122223333:function:reader',
    ResponseURL: responseUrl,
    StackId: 'arn:aws:cloudformation:eu-west-1:111122223333:stack/PmApi-prod/guid',
    RequestId: `request-${answers.length}`,
    LogicalResourceId: 'ServicePublicKeysKeys',
    ResourceType: 'Custom::ServicePublicKeys',
    ResourceProperties: { ServiceToken: 'arn:aws:lambda:eu-west-1:111122223333:function:reader', KeyIds },
    ...(RequestType === 'Create' ? {} : { PhysicalResourceId: 'service-public-keys', OldResourceProperties: { KeyIds: [aws.keyArn] } }),
  }) as CloudFormationCustomResourceEvent;

describe.each([
  ['as the tests import it', () => sourceHandler],
  ['as the stack bundles it', () => bundledHandler],
])('Custom::ServicePublicKeys, its function %s (against a KMS stand-in; CloudFormation’s response URL served by the test)', (_how, handlerOf) => {
  /** Invokes the function and returns the answer it PUT. */
  async function invoke(event: CloudFormationCustomResourceEvent) {
    const before = answers.length;
    await handlerOf()(event);
    expect(answers).toHaveLength(before + 1);
    return answers.at(-1)!;
  }

  it('Create reads the signing key and then the retired one; the Keys attribute verifies tokens both signed, and nothing else', async () => {
    aws.calls.length = 0;
    const answer = await invoke(request('Create', [aws.keyArn, 'old']));
    expect([answer.method, answer.url, answer.headers['content-type']]).toEqual(['PUT', '/cloudformation-response?X-Amz-Signature=abc', undefined]);
    expect(answer.body).toEqual({
      Status: 'SUCCESS',
      PhysicalResourceId: 'service-public-keys',
      StackId: 'arn:aws:cloudformation:eu-west-1:111122223333:stack/PmApi-prod/guid',
      RequestId: expect.stringMatching(/^request-\d+$/),
      LogicalResourceId: 'ServicePublicKeysKeys',
      Data: { Keys: expect.any(String) },
    });
    expect(aws.calls).toEqual(['TrentService.GetPublicKey', 'TrentService.GetPublicKey']);
    const keys = publicServiceKeys(answer.body.Data.Keys as string);
    expect([keys.kid, [...keys.verifyKeys.keys()], keys.sign]).toEqual([aws.KEY_ID, [aws.KEY_ID, 'old'], undefined]);
    const claims = { tu: 'api' as const, ws: 'ws-1', sub: 'member-1', scope: 'notes:read', jti: 'token-1' };
    for (const keyId of [aws.keyArn, 'old']) {
      expect(await verifyJwtWith(keys, await signJwtWith(await kmsSigningKeys(keyId, kmsClient()), claims))).toMatchObject({ sub: 'member-1' });
    }
  });

  it('Update reads them again under the same physical id; Delete answers without a call', async () => {
    const updated = await invoke(request('Update', [aws.keyArn]));
    expect([updated.body.Status, updated.body.PhysicalResourceId]).toEqual(['SUCCESS', 'service-public-keys']);
    expect([...publicServiceKeys(updated.body.Data.Keys as string).verifyKeys.keys()]).toEqual([aws.KEY_ID]);
    aws.calls.length = 0;
    const deleted = await invoke(request('Delete', [aws.keyArn]));
    expect(deleted.body).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'service-public-keys' });
    expect(deleted.body).not.toHaveProperty('Data');
    expect(aws.calls).toEqual([]);
  });

  it('with as many retired keys as a deploy may keep, the answer takes under 3 KB of CloudFormation’s 4 KB and the Keys under half of Lambda’s 4 KB environment', async () => {
    const answer = await invoke(request('Create', [aws.keyArn, ...retiredArns]));
    expect(answer.body.Status).toBe('SUCCESS');
    const keys = answer.body.Data.Keys as string;
    expect([...publicServiceKeys(keys).verifyKeys.keys()]).toEqual([aws.KEY_ID, ...retiredArns.map((arn) => arn.split('/')[1])]);
    expect(Buffer.byteLength(keys)).toBeLessThan(2048);
    expect(Buffer.byteLength(JSON.stringify(answer.body))).toBeLessThan(3072);
  });

  it('a key KMS refuses, or no key ids, fails the resource with the reason (the stack operation does not wait for an hour)', async () => {
    const refused = await invoke(request('Create', [aws.keyArn, 'no-such-key']));
    expect(refused.body).toEqual({
      Status: 'FAILED',
      Reason: 'unexpected TrentService.GetPublicKey',
      PhysicalResourceId: 'ServicePublicKeysKeys-failed',
      StackId: 'arn:aws:cloudformation:eu-west-1:111122223333:stack/PmApi-prod/guid',
      RequestId: expect.any(String),
      LogicalResourceId: 'ServicePublicKeysKeys',
    });
    const empty = await invoke(request('Update', []));
    expect(empty.body).toMatchObject({ Status: 'FAILED', Reason: 'KeyIds must be a non-empty list of KMS key ids', PhysicalResourceId: 'service-public-keys' });
  });
});
