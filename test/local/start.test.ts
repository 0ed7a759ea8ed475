// `npm start` as a user runs it: DynamoDB Local with data on disk, the table, the demo workspace,
// .local/dev.json, the gateway on its port; webhooks delivered to a loopback receiver by the in-process
// workers; the admin CLI against it; Ctrl-C stops everything.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, JAVA_MISSING, portInUse } from '../../local/dynamodb-local.ts';
import { PROJECT_ROOT } from '../../local/paths.ts';
import { startReceiver } from '../events/receiver.ts';

const TSX = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
let dir: string;
let port: number;
let ddbPort: number;

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PM_LOCAL_DIR: dir, PORT: String(port), DYNAMODB_PORT: String(ddbPort), LOG_LEVEL: 'silent' };
  for (const k of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'SERVICE_KEY_FILE', 'PUBLIC_APP_URL', 'PUBLIC_BASE_URL', 'PUBLIC_WEB_URL', 'RATE_LIMIT_PER_SECOND'])
    delete env[k];
  return env;
}

async function start(): Promise<{ child: ChildProcess; stdout: () => string }> {
  const child = spawn(TSX, ['local/start.ts'], { cwd: PROJECT_ROOT, env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const deadline = Date.now() + 60_000;
  while (!out.includes('Ctrl-C stops everything.')) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}: ${err}`);
    if (Date.now() > deadline) throw new Error(`npm start not ready in 60 s: ${out} ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, stdout: () => out };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGINT');
  return exited;
}

function admin(...args: string[]) {
  const out = spawnSync(TSX, ['local/admin.ts', ...args], { cwd: PROJECT_ROOT, env: baseEnv(), encoding: 'utf8' });
  return { status: out.status, json: out.stdout ? JSON.parse(out.stdout) : undefined, stderr: out.stderr };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pm-start-'));
  port = await freePort();
  ddbPort = await freePort();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npm start', () => {
  it('serves the API, writes dev.json, works with the admin CLI, keeps data across restarts, and stops on Ctrl-C', async () => {
    const first = await start();
    let facts: Record<string, string>;
    try {
      facts = JSON.parse(await readFile(join(dir, 'dev.json'), 'utf8'));
      // Wherever the state lives, git ignores it: it holds the service's private key and an admin token.
      expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe('# Written by npm start: the service key and tokens stay out of git.\n*\n');
      expect(facts).toMatchObject({
        baseUrl: `http://localhost:${port}/v2`,
        appUrl: `http://localhost:${port}`,
        adminEmail: 'admin@example.com',
        workspaceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        adminToken: expect.stringMatching(/^ey[\w-]+\.[\w-]+\.[\w-]+$/),
      });
      expect(first.stdout()).toContain(facts.adminToken!);
      // The banner's example, pasted into a shell in the project's directory, reads this stack's dev.json (PM_LOCAL_DIR).
      const example = /^ {2}(curl -s .*)$/m.exec(first.stdout())?.[1];
      expect(example).toContain(join(dir, 'dev.json'));
      const pasted = spawnSync('sh', ['-c', example!], { cwd: PROJECT_ROOT, encoding: 'utf8' });
      expect([pasted.status, Object.keys(JSON.parse(pasted.stdout) as object)]).toEqual([0, ['data', 'links']]);

      const nope = await fetch(`${facts.baseUrl}/nope`);
      const body = await nope.json();
      expect(nope.status).toBe(404);
      expect(body).toEqual({
        id: nope.headers.get('x-request-id'),
        errors: [{ code: 'route.notFound', title: 'Route not found', detail: 'No route matches this method and path.' }],
      });

      // Webhooks: the stream and delivery workers run in-process, and loopback receivers are allowed.
      const receiver = await startReceiver();
      try {
        const headers = { authorization: `Bearer ${facts.adminToken}`, 'content-type': 'application/json' };
        const post = async (path: string, data: unknown) => {
          const res = await fetch(`${facts.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify({ data }) });
          const json = (await res.json()) as { data: { id: string; signingSecret?: string } };
          expect(res.status, JSON.stringify(json)).toBe(201);
          return json.data;
        };
        const subscription = await post('/webhooks', {
          fields: { name: 'local receiver', events: [{ eventType: 'product.created' }], notification: { url: receiver.url, version: 1 } },
        });
        receiver.useSecret(subscription.signingSecret!);
        const product = await post('/entities', { type: 'product', fields: { name: 'Hooked' } });
        const delivered = await receiver.waitFor((d) => d.length > 0, 60_000);
        expect(delivered.map((r) => [r.eventType, r.data.id, r.verified])).toEqual([['product.created', product.id, true]]);
      } finally {
        await receiver.kill();
      }

      // The admin CLI works against the running stack, JSON out.
      const ws = admin('workspace', 'create', '--name', 'Acme');
      expect(ws.status).toBe(0);
      expect(ws.json).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Acme' });
      const member = admin('member', 'add', '--workspace', ws.json.id, '--email', 'Pat@Example.com', '--role', 'viewer');
      expect(member.json).toEqual({ id: expect.any(String), email: 'pat@example.com', role: 'viewer', active: true });
      const dup = admin('member', 'add', '--workspace', ws.json.id, '--email', 'pat@example.com');
      expect([dup.status, dup.stderr.trim()]).toEqual([2, 'member add: pat@example.com is already a member of this workspace']);
      const token = admin('token', 'issue', '--workspace', ws.json.id, '--email', 'pat@example.com');
      expect(token.json).toEqual({
        id: expect.any(String),
        token: expect.any(String),
        scopes: ['entities:read', 'notes:read', 'webhooks:read', 'members:read', 'members:pii:read', 'users:pii:read', 'teams:read'],
      });
      const tooMuch = admin('token', 'issue', '--workspace', ws.json.id, '--email', 'pat@example.com', '--scopes', 'write:entities');
      expect([tooMuch.status, tooMuch.stderr.trim()]).toEqual([2, 'token issue: A viewer may not hold write:entities']);
      expect(admin('token', 'revoke', '--workspace', ws.json.id, '--id', token.json.id).json).toEqual({ id: token.json.id, revoked: true });
      expect(admin('member', 'deactivate', '--workspace', ws.json.id, '--email', 'pat@example.com').json).toEqual({
        id: member.json.id,
        email: 'pat@example.com',
        active: false,
      });
      // The demo workspace holds the loopback receiver above: the CLI holds export and restore files to
      // the rule the local server created it under, so what export writes, restore takes.
      const file = join(dir, 'demo.jsonl.gz');
      const exported = admin('export', '--workspace', facts.workspaceId!, '--out', file);
      expect([exported.status, exported.json?.counts?.webhook], exported.stderr).toEqual([0, 1]);
      const restored = admin('restore', '--in', file, '--name', 'Demo again');
      expect([restored.status, restored.json?.counts?.webhook], restored.stderr).toEqual([0, 1]);
      // A value that lost its quotes is refused, not cut to its first word.
      const unquoted = admin('workspace', 'create', '--name', 'Two', 'Words');
      expect([unquoted.status, unquoted.json, unquoted.stderr]).toEqual([
        2,
        undefined,
        `workspace create: 'Words' is not part of the command: quote a value that holds spaces (--name "Two Words")\n  workspace create --name N\n`,
      ]);
      const unknown = admin('widget', 'frob');
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toMatch(/^Unknown command: widget frob\nUsage: npm run --silent admin -- <command>/);
    } finally {
      expect(await stop(first.child)).toBe(0);
    }
    expect(await portInUse(port)).toBe(false);
    expect(await portInUse(ddbPort)).toBe(false);

    // Data survives a restart: the same demo workspace and token.
    const second = await start();
    try {
      const again = JSON.parse(await readFile(join(dir, 'dev.json'), 'utf8'));
      expect(again.workspaceId).toBe(facts.workspaceId);
      expect(again.adminToken).toBe(facts.adminToken);
      expect(second.stdout()).not.toContain('(new demo workspace)');
    } finally {
      expect(await stop(second.child)).toBe(0);
    }
  }, 300_000); // two starts, a webhook delivery and a dozen CLI processes, beside the rest of the suite on 2 cores

  it('without Java: one clear sentence and a non-zero exit', () => {
    const env = { ...baseEnv(), JAVA_HOME: join(dir, 'no-java-here') };
    const out = spawnSync(TSX, ['local/start.ts'], { cwd: PROJECT_ROOT, env, encoding: 'utf8' });
    expect(out.status).toBe(1);
    expect(out.stderr.trim()).toBe(JAVA_MISSING);
  }, 60_000);

  it('the admin CLI says how to start the stack when DynamoDB is not running', () => {
    const out = admin('workspace', 'create', '--name', 'x');
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/DynamoDB is not reachable at http:\/\/127\.0\.0\.1:\d+; start the local stack with `npm start`/);
    // A deployed stack's key or secret named against the local table would be ignored: refused.
    const misplaced = admin('workspace', 'create', '--name', 'x', '--secret-id', 'arn:aws:secretsmanager:eu-west-1:1:secret:s');
    expect([misplaced.status, misplaced.stderr.trim()]).toEqual([
      2,
      "workspace create: --secret-id goes with --table (a deployed table); the local table's key file (.local/service-key.json) serves both",
    ]);
  }, 60_000);
});
