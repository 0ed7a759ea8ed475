// docs/operations.md §4 as an operator runs it: the admin CLI with --table (no local endpoint,
// region and credentials from the AWS environment) and --kms-key-id issues a token the stack's
// KMS key signed. The "deployed" table is DynamoDB Local reached through the SDK's standard
// AWS_ENDPOINT_URL_DYNAMODB; KMS is faked on its wire protocol (there is no emulator).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSubscription } from '#lib/events/subscription-create.ts';
import { hashToken, readBearerRecords } from '#lib/store/credentials.ts';
import { createWorkspace } from '#lib/store/workspaces.ts';
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
    AWS_ENDPOINT_URL_SECRETS_MANAGER: kmsEndpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'operator',
    AWS_SECRET_ACCESS_KEY: 'operator',
  };
  // As on an operator's machine: nothing local configured.
  for (const k of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'SERVICE_KEY_FILE', 'SERVICE_KMS_KEY_ID', 'SERVICE_PUBLIC_KEYS', 'SERVICE_SECRET_ID']) delete env[k];
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

  it('export and restore with --table; a file holding a webhook needs the service secret (--secret-id), read before anything is written', async () => {
    const table = ['--table', process.env.TABLE_NAME!, '--admin-email', 'ops@example.com'];
    const withHook = await createWorkspace('Deployed hooks');
    await createSubscription(
      { workspaceId: withHook.id, scopes: new Set(['entities:read']) },
      { name: 'receiver', events: ['product.created'], url: 'https://93.184.216.34/hooks', version: 1, authorization: undefined },
    );
    const plain = await createWorkspace('Deployed plain');
    const dir = await mkdtemp(join(tmpdir(), 'admin-deployed-'));
    try {
      const files = { hook: join(dir, 'hook.jsonl.gz'), plain: join(dir, 'plain.jsonl.gz') };
      for (const [file, ws] of [
        [files.hook, withHook.id],
        [files.plain, plain.id],
      ] as const) {
        const exported = await admin('export', '--workspace', ws, '--out', file, '--table', process.env.TABLE_NAME!);
        expect(exported.status, exported.stderr).toBe(0);
      }
      // The restore ends by issuing its admin a token: without the key that signs, refused before anything is written.
      const noKey = await admin('restore', '--in', files.plain, ...table);
      expect([noKey.status, noKey.stderr.trim().split('\n').at(-1)]).toEqual([
        1,
        'restore failed: No service key configured: set SERVICE_KEY_FILE (local) or SERVICE_KMS_KEY_ID (deployed)',
      ]);
      const plainRestored = await admin('restore', '--in', files.plain, ...table, '--kms-key-id', aws.keyArn);
      expect([plainRestored.status, plainRestored.json?.counts?.webhook, plainRestored.json?.resumed], plainRestored.stderr).toEqual([0, 0, false]);
      expect(aws.calls).not.toContain('secretsmanager.GetSecretValue');

      const noSecret = await admin('restore', '--in', files.hook, '--name', 'Deployed hooks (again)', ...table, '--kms-key-id', aws.keyArn);
      expect([noSecret.status, noSecret.stderr.trim().split('\n').at(-1)]).toEqual([
        1,
        'restore failed: No service secret configured: set SERVICE_KEY_FILE (local) or SERVICE_SECRET_ID (deployed)',
      ]);

      const restored = await admin(
        'restore',
        '--in',
        files.hook,
        '--name',
        'Deployed hooks (again)',
        ...table,
        '--kms-key-id',
        aws.keyArn,
        '--secret-id',
        'cursor-secret',
      );
      // Not a continuation: the refused run had begun nothing.
      expect([restored.status, restored.json?.counts?.webhook, restored.json?.resumed], restored.stderr).toEqual([0, 1, false]);
      expect(aws.calls).toContain('secretsmanager.GetSecretValue');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
