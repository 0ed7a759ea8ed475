// docs/operations.md §4 as an operator runs it: the admin CLI with --table (no local endpoint,
// region and credentials from the AWS environment) and --kms-key-id issues a token the stack's
// KMS key signed. The "deployed" table is DynamoDB Local reached through the SDK's standard
// AWS_ENDPOINT_URL_DYNAMODB; KMS is faked on its wire protocol (there is no emulator).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken, readBearerRecords } from '#lib/store/credentials.ts';
import { fakeAws } from './fake-aws.ts';
import { PROJECT_ROOT } from '../../infra/bundling.ts';

// Each CLI run is a fresh tsx process: seconds on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const aws = fakeAws();
let kmsEndpoint: string;

beforeAll(async () => {
  kmsEndpoint = await aws.listen();
});
afterAll(() => aws.close());

/** Runs the CLI asynchronously: the fake KMS lives in this process and must keep answering. */
async function admin(...args: string[]): Promise<{ status: number | null; json: any; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AWS_ENDPOINT_URL_DYNAMODB: process.env.DYNAMODB_ENDPOINT,
    AWS_ENDPOINT_URL_KMS: kmsEndpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'operator',
    AWS_SECRET_ACCESS_KEY: 'operator',
  };
  // As on an operator's machine: nothing local configured.
  for (const k of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'SERVICE_KEY_FILE', 'SERVICE_KMS_KEY_ID', 'SERVICE_PUBLIC_KEYS']) delete env[k];
  const child = spawn(join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), ['local/admin.ts', ...args], { cwd: PROJECT_ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, json: stdout ? JSON.parse(stdout) : undefined, stderr };
}

describe('admin CLI against a deployed table', () => {
  it('workspace, admin member and a KMS-signed token with --table and --kms-key-id', async () => {
    const table = ['--table', process.env.TABLE_NAME!];
    const ws = await admin('workspace', 'create', '--name', 'Deployed Co', ...table);
    expect(ws.status, ws.stderr).toBe(0);
    const email = `ops-${Date.now()}@example.com`;
    const member = await admin('member', 'add', '--workspace', ws.json.id, '--email', email, '--role', 'admin', ...table);
    expect(member.status, member.stderr).toBe(0);

    const issued = await admin('token', 'issue', '--workspace', ws.json.id, '--email', email, ...table, '--kms-key-id', aws.keyArn);
    expect(issued.status, issued.stderr).toBe(0);
    const token = issued.json.token as string;
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: aws.KEY_ID, typ: 'JWT' });
    const { payload } = await jwtVerify(token, aws.publicKey, { algorithms: ['ES256'], issuer: 'pm-api' });
    expect(payload).toMatchObject({ tu: 'api', ws: ws.json.id, sub: member.json.id, jti: issued.json.id });
    expect(aws.calls).toEqual(['TrentService.GetPublicKey', 'TrentService.Sign']);

    // Stored in the table the CLI was pointed at, as a hash only.
    const { credential } = await readBearerRecords(issued.json.id, ws.json.id, member.json.id);
    expect(credential).toMatchObject({ kind: 'api', workspaceId: ws.json.id, hash: hashToken(token) });
  });

  it('without a key, token issue fails with a message naming both sources', async () => {
    const ws = await admin('workspace', 'create', '--name', 'No key Co', '--table', process.env.TABLE_NAME!);
    const email = `ops-${Date.now()}@example.com`;
    await admin('member', 'add', '--workspace', ws.json.id, '--email', email, '--role', 'admin', '--table', process.env.TABLE_NAME!);
    const issued = await admin('token', 'issue', '--workspace', ws.json.id, '--email', email, '--table', process.env.TABLE_NAME!);
    expect(issued.status).toBe(1);
    expect(issued.stderr.trim()).toBe('token issue failed: No service key configured: set SERVICE_KEY_FILE (local) or SERVICE_KMS_KEY_ID (deployed)');
  });
});
