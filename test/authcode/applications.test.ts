// Authorization-code applications at {app_url}/oauth2/applications and in the admin CLI, member
// passwords in the admin CLI, and the RFC 8414 metadata document.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '#lib/auth/passwords.ts';
import { getMemberPasswordHash } from '#lib/store/sign-in.ts';
import { authorizationCode, exchangeCode, withPassword } from './support.ts';
import { PROJECT_ROOT } from '../../local/paths.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const create = (token: string, body: unknown) => call(app, 'POST', '/oauth2/applications', { token, body });

describe('authorizationCode applications over HTTP', () => {
  it('a confidential client: 201 with a clientSecret shown once; GET and list never show it again', async () => {
    const ws = await newWorkspace();
    const res = await create(ws.token, {
      type: 'authorizationCode',
      name: 'Roadmap Sync',
      scopes: ['entities:read', 'notes:read'],
      redirectUris: ['https://roadmap.example.com/cb', 'http://127.0.0.1:8765/cb'],
    });
    expect(res.status, res.text).toBe(201);
    const view = {
      clientId: expect.stringMatching(UUID),
      type: 'authorizationCode',
      name: 'Roadmap Sync',
      scopes: ['entities:read', 'notes:read'],
      defaultScopes: ['entities:read', 'notes:read'],
      redirectUris: ['https://roadmap.example.com/cb', 'http://127.0.0.1:8765/cb'],
      public: false,
      createdAt: expect.stringMatching(ISO),
    };
    expect(res.json).toEqual({ ...view, clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const got = await call(app, 'GET', `/oauth2/applications/${res.json.clientId}`, { token: ws.token });
    expect(got.json).toEqual(view);
    expect((await call(app, 'GET', '/oauth2/applications', { token: ws.token })).json.data).toEqual([view]);
  });

  it('a public client: no secret', async () => {
    const ws = await newWorkspace();
    const res = await create(ws.token, {
      type: 'authorizationCode',
      name: 'SPA',
      scopes: ['entities:read'],
      redirectUris: ['https://spa.example.com/'],
      public: true,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ type: 'authorizationCode', public: true });
    expect(res.json).not.toHaveProperty('clientSecret');
  });

  it('type absent → serverToServer, exactly as before plus its type; redirectUris or public on it are refused', async () => {
    const ws = await newWorkspace();
    const res = await create(ws.token, { name: 'S2S', scopes: ['entities:read'] });
    expect(res.json).toEqual({
      clientId: expect.stringMatching(UUID),
      type: 'serverToServer',
      name: 'S2S',
      scopes: ['entities:read'],
      defaultScopes: ['entities:read'],
      keys: [],
      createdAt: expect.stringMatching(ISO),
    });
    expectError(await create(ws.token, { name: 'S2S', scopes: ['entities:read'], redirectUris: ['https://a.example/cb'] }), 'request.invalid', {
      source: { pointer: '/redirectUris' },
    });
    expectError(await create(ws.token, { type: 'serverToServer', name: 'S2S', scopes: ['entities:read'], public: true }), 'request.invalid', {
      source: { pointer: '/public' },
    });
  });

  it.each([
    ['no redirect URIs', { redirectUris: [] }, '/redirectUris'],
    ['redirectUris missing', { redirectUris: undefined }, '/redirectUris'],
    ['http on a public host', { redirectUris: ['https://ok.example/cb', 'http://app.example.com/cb'] }, '/redirectUris/1'],
    ['a fragment', { redirectUris: ['https://app.example.com/cb#x'] }, '/redirectUris/0'],
    ['a custom scheme', { redirectUris: ['myapp://callback'] }, '/redirectUris/0'],
    ['a relative URI', { redirectUris: ['/cb'] }, '/redirectUris/0'],
    ['a duplicate', { redirectUris: ['https://a.example/cb', 'https://a.example/cb'] }, '/redirectUris/1'],
    ['eleven URIs', { redirectUris: Array.from({ length: 11 }, (_, i) => `https://a.example/cb${i}`) }, '/redirectUris'],
    ['an unknown type', { type: 'implicit' }, '/type'],
    ['public not a boolean', { public: 'yes' }, '/public'],
  ])('%s → 400 request.invalid with the pointer; nothing registered', async (_name, change, pointer) => {
    const ws = await newWorkspace();
    const body = Object.fromEntries(
      Object.entries({ type: 'authorizationCode', name: 'A', scopes: ['entities:read'], redirectUris: ['https://a.example/cb'], ...change }).filter(
        ([, v]) => v !== undefined,
      ),
    );
    expectError(await create(ws.token, body), 'request.invalid', { source: { pointer } });
    expect((await call(app, 'GET', '/oauth2/applications', { token: ws.token })).json.data).toEqual([]);
  });

  it('the redirect URI refusal says which rule', async () => {
    const ws = await newWorkspace();
    expectError(
      await create(ws.token, { type: 'authorizationCode', name: 'A', scopes: ['entities:read'], redirectUris: ['http://app.example.com/cb'] }),
      'request.invalid',
      {
        detail:
          "'/redirectUris/0' is 'http://app.example.com/cb', which uses http on a host that is not a loopback address (127.0.0.1, [::1], localhost); use https.",
        source: { pointer: '/redirectUris/0' },
      },
    );
  });

  it('public keys are for server-to-server applications only', async () => {
    const ws = await newWorkspace();
    const res = await create(ws.token, { type: 'authorizationCode', name: 'A', scopes: ['entities:read'], redirectUris: ['https://a.example/cb'] });
    const { generateKeyPairSync } = await import('node:crypto');
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expectError(await call(app, 'POST', `/oauth2/applications/${res.json.clientId}/keys`, { token: ws.token, body: { publicKey: pem } }), 'request.invalid', {
      detail: 'Applications of type authorizationCode authenticate with a client secret or PKCE; public keys are for serverToServer applications.',
    });
  });

  it("another workspace's application is 404, as every application route", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const res = await create(ws.token, { type: 'authorizationCode', name: 'A', scopes: ['entities:read'], redirectUris: ['https://a.example/cb'] });
    expectError(await call(app, 'GET', `/oauth2/applications/${res.json.clientId}`, { token: other.token }), 'resource.notFound');
    expectError(await call(app, 'DELETE', `/oauth2/applications/${res.json.clientId}`, { token: other.token }), 'resource.notFound');
  });
});

describe('admin CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pm-authcode-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const admin = (args: string[], input?: string) =>
    spawnSync(join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), ['local/admin.ts', ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      ...(input !== undefined ? { input } : {}),
    });

  it('app create --type authorizationCode --redirect-uri U --redirect-uri U2 [--public]', async () => {
    const ws = await newWorkspace();
    const confidential = admin([
      'app',
      'create',
      '--workspace',
      ws.workspaceId,
      '--name',
      'CLI app',
      '--scopes',
      'entities:read notes:read',
      '--type',
      'authorizationCode',
      '--redirect-uri',
      'https://a.example/cb',
      '--redirect-uri',
      'http://localhost:9000/cb',
    ]);
    expect(confidential.status, confidential.stderr).toBe(0);
    expect(JSON.parse(confidential.stdout)).toMatchObject({
      type: 'authorizationCode',
      redirectUris: ['https://a.example/cb', 'http://localhost:9000/cb'],
      public: false,
      clientSecret: expect.any(String),
    });
    const pub = admin([
      'app',
      'create',
      '--workspace',
      ws.workspaceId,
      '--name',
      'SPA',
      '--scopes',
      'entities:read',
      '--type',
      'authorizationCode',
      '--redirect-uri',
      'https://spa.example/',
      '--public',
    ]);
    expect(pub.status, pub.stderr).toBe(0);
    expect(JSON.parse(pub.stdout)).toMatchObject({ public: true });
    expect(JSON.parse(pub.stdout)).not.toHaveProperty('clientSecret');
    const bad = admin([
      'app',
      'create',
      '--workspace',
      ws.workspaceId,
      '--name',
      'Bad',
      '--scopes',
      'entities:read',
      '--type',
      'authorizationCode',
      '--redirect-uri',
      'http://evil.example/cb',
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("'/redirectUris/0' is 'http://evil.example/cb', which uses http on a host that is not a loopback address");
  });

  it('member password set reads the password from stdin or --password-file, never argv; the member can then sign in', async () => {
    const ws = await newWorkspace();
    const { member } = await ws.member();
    const viaStdin = admin(['member', 'password', 'set', '--workspace', ws.workspaceId, '--email', member.email], 'a passphrase from stdin\n');
    expect(viaStdin.status, viaStdin.stderr).toBe(0);
    expect(JSON.parse(viaStdin.stdout)).toEqual({ id: member.id, email: member.email, passwordSet: true });
    expect(await verifyPassword('a passphrase from stdin', await getMemberPasswordHash(ws.workspaceId, member.id))).toBe(true);

    const file = join(dir, 'pw.txt');
    writeFileSync(file, 'a passphrase from a file\n');
    expect(admin(['member', 'password', 'set', '--workspace', ws.workspaceId, '--email', member.email, '--password-file', file]).status).toBe(0);
    expect(await verifyPassword('a passphrase from a file', await getMemberPasswordHash(ws.workspaceId, member.id))).toBe(true);

    const argv = admin(['member', 'password', 'set', '--workspace', ws.workspaceId, '--email', member.email, '--password', 'an argv password']);
    expect(argv.status).toBe(2);
    expect(argv.stderr).toContain('--password is not accepted');
    const short = admin(['member', 'password', 'set', '--workspace', ws.workspaceId, '--email', member.email], 'short\n');
    expect(short.status).toBe(2);
    expect(short.stderr).toContain('A password needs at least 12 characters.');
    const nobody = admin(['member', 'password', 'set', '--workspace', ws.workspaceId, '--email', 'nobody@example.com'], 'long enough password\n');
    expect(nobody.status).toBe(2);
    expect(nobody.stderr).toContain('No member nobody@example.com');
    // The password from the file is still the one in force.
    expect(await verifyPassword('a passphrase from a file', await getMemberPasswordHash(ws.workspaceId, member.id))).toBe(true);
  });
});

describe('RFC 8414 metadata', () => {
  it('GET /.well-known/oauth-authorization-server → the document with issuer {app_url}, cacheable, no auth', async () => {
    const res = await call(app, 'GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      issuer: app.url,
      authorization_endpoint: `${app.url}/oauth/authorize`,
      token_endpoint: `${app.url}/oauth/token`,
      revocation_endpoint: `${app.url}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('the endpoints it names work: a code flows through them', async () => {
    const ws = await newWorkspace();
    const member = await withPassword((await ws.member()).member);
    const res = await create(ws.token, { type: 'authorizationCode', name: 'A', scopes: ['entities:read'], redirectUris: ['https://a.example/cb'] });
    const client = { clientId: res.json.clientId, clientSecret: res.json.clientSecret, redirectUri: 'https://a.example/cb' };
    const code = await authorizationCode(app, client, member);
    expect((await exchangeCode(app, client, code)).status).toBe(200);
  });
});
