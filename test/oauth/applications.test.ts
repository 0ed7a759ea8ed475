// {app_url}/oauth2/applications and the admin CLI's `app` commands.
import { spawnSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, createApp, exchange, newClient, rsaKeyPair } from './support.ts';
import { appCommands } from '../../local/admin/apps.ts';
import { UsageError } from '../../local/admin/command.ts';
import { PROJECT_ROOT } from '../../local/paths.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('applications over HTTP', () => {
  it('POST → 201 {clientId, type: serverToServer, name, scopes, defaultScopes, keys: [], createdAt} with a Location; GET, list and DELETE follow', async () => {
    const ws = await newWorkspace();
    const res = await call(app, 'POST', '/oauth2/applications', {
      token: ws.token,
      body: { name: '  Billing sync ', scopes: ['entities:read', 'entities:write'], defaultScopes: ['entities:read'] },
    });
    expect(res.status, res.text).toBe(201);
    const created = {
      clientId: expect.stringMatching(UUID),
      type: 'serverToServer',
      name: 'Billing sync',
      scopes: ['entities:read', 'write:entities'],
      defaultScopes: ['entities:read'],
      keys: [],
      createdAt: expect.stringMatching(ISO),
    };
    expect(res.json).toEqual(created);
    expect(res.headers.get('location')).toBe(`${app.url}/oauth2/applications/${res.json.clientId}`);
    expect(res.json).not.toHaveProperty('clientSecret');

    const got = await call(app, 'GET', `/oauth2/applications/${res.json.clientId}`, { token: ws.token });
    expect(got.status).toBe(200);
    expect(got.json).toEqual(res.json);
    const second = await createApp(app, ws, { name: 'Second', scopes: ['notes:read'] });
    const list = await call(app, 'GET', '/oauth2/applications', { token: ws.token });
    expect(list.json).toEqual({ data: [res.json, expect.objectContaining({ clientId: second, defaultScopes: ['notes:read'] })] });

    expect((await call(app, 'DELETE', `/oauth2/applications/${res.json.clientId}`, { token: ws.token })).status).toBe(204);
    expectError(await call(app, 'GET', `/oauth2/applications/${res.json.clientId}`, { token: ws.token }), 'resource.notFound', {
      detail: `No application "${res.json.clientId}" in this workspace.`,
    });
    expectError(await call(app, 'DELETE', `/oauth2/applications/${res.json.clientId}`, { token: ws.token }), 'resource.notFound');
    expect((await call(app, 'GET', '/oauth2/applications', { token: ws.token })).json.data.map((a: { clientId: string }) => a.clientId)).toEqual([second]);
  });

  it('default scopes omitted → all the allowed scopes', async () => {
    const ws = await newWorkspace();
    const res = await call(app, 'POST', '/oauth2/applications', { token: ws.token, body: { name: 'A', scopes: ['notes:read', 'notes:write'] } });
    expect(res.json).toMatchObject({ scopes: ['notes:read', 'notes:write'], defaultScopes: ['notes:read', 'notes:write'] });
  });

  it.each([
    ['name missing', { scopes: ['entities:read'] }, '/name'],
    ['name blank', { name: '   ', scopes: ['entities:read'] }, '/name'],
    ['name too long', { name: 'n'.repeat(256), scopes: ['entities:read'] }, '/name'],
    ['scopes missing', { name: 'A' }, '/scopes'],
    ['scopes empty', { name: 'A', scopes: [] }, '/scopes'],
    ['an unknown scope', { name: 'A', scopes: ['entities:read', 'admin'] }, '/scopes/1'],
    ['scopes a string', { name: 'A', scopes: 'entities:read' }, '/scopes'],
    ['a scope named twice', { name: 'A', scopes: ['entities:read', 'notes:read', 'entities:read'] }, '/scopes/2'],
    ['a scope named twice, once by its alias', { name: 'A', scopes: ['write:entities', 'entities:write'] }, '/scopes/1'],
    ['a default scope named twice', { name: 'A', scopes: ['notes:read'], defaultScopes: ['notes:read', 'notes:read'] }, '/defaultScopes/1'],
    ['a default scope not allowed', { name: 'A', scopes: ['entities:read'], defaultScopes: ['notes:read'] }, '/defaultScopes/0'],
    ['an unknown property (a client secret)', { name: 'A', scopes: ['entities:read'], clientSecret: 's' }, '/clientSecret'],
  ])('%s → 400 request.invalid at the pointer, and nothing is created', async (_name, body, at) => {
    const ws = await newWorkspace();
    const res = await call(app, 'POST', '/oauth2/applications', { token: ws.token, body });
    expectError(res, 'request.invalid', { source: { pointer: at } });
    expect((await call(app, 'GET', '/oauth2/applications', { token: ws.token })).json).toEqual({ data: [] });
  });

  it('unknown scope detail names it and the valid ones', async () => {
    const ws = await newWorkspace();
    const res = await call(app, 'POST', '/oauth2/applications', { token: ws.token, body: { name: 'A', scopes: ['admin'] } });
    expectError(res, 'request.invalid', {
      detail:
        "'admin' is not a scope; the scopes are entities:read, write:entities, entities:delete, notes:read, notes:write, notes:delete, webhooks:read, webhooks:write, webhooks:delete, members:read, members:pii:read, users:pii:read, teams:read, teams:write, teams:delete, fields:write.",
      source: { pointer: '/scopes/0' },
    });
  });

  it('only an API token of an admin member: a maker → 403 auth.accessDenied on every application route; none → 401', async () => {
    const ws = await newWorkspace();
    const maker = await ws.member({ role: 'maker' });
    const client = await newClient(app, ws);
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/oauth2/applications', { name: 'A', scopes: ['entities:read'] }],
      ['GET', '/oauth2/applications'],
      ['GET', `/oauth2/applications/${client.clientId}`],
      ['DELETE', `/oauth2/applications/${client.clientId}`],
      ['POST', `/oauth2/applications/${client.clientId}/keys`, { publicKey: rsaKeyPair().publicPem }],
      ['DELETE', `/oauth2/applications/${client.clientId}/keys/${client.keyId}`],
    ];
    for (const [method, path, body] of routes) {
      expectError(await call(app, method, path, { token: maker.token, body }), 'auth.accessDenied', {
        detail: 'This operation needs an API token of an admin member of the workspace.',
      });
      expectError(await call(app, method, path, { body }), 'auth.invalid');
    }
    // Nothing changed: the application still has its key and mints tokens.
    expect((await exchange(app, client.assertion())).status).toBe(200);
  });

  it("a token delegates only what it carries: an admin token's scopes bound the applications it registers and the keys it adds", async () => {
    const ws = await newWorkspace();
    const narrow = await ws.member({ role: 'admin', scopes: ['entities:read', 'write:entities'] });
    const wide = await newClient(app, ws, { scopes: ['entities:read', 'notes:write', 'webhooks:write'], defaultScopes: ['entities:read'] });
    const register = (scopes: string[]) => call(app, 'POST', '/oauth2/applications', { token: narrow.token, body: { name: 'Mine', scopes } });
    expectError(await register(['entities:read', 'notes:write', 'members:pii:read']), 'auth.accessDenied', {
      detail: 'Registering an application allowed these scopes needs the scopes notes:write and members:pii:read, which the token does not carry.',
    });
    expectError(
      await call(app, 'POST', `/oauth2/applications/${wide.clientId}/keys`, { token: narrow.token, body: { publicKey: rsaKeyPair().publicPem } }),
      'auth.accessDenied',
      {
        detail: `Adding a key to application ${wide.clientId} (its holder acts with the application's scopes) needs the scopes notes:write and webhooks:write, which the token does not carry.`,
      },
    );
    // Nothing was created: only the wide application, with its one key.
    const listed = await call(app, 'GET', '/oauth2/applications', { token: narrow.token });
    expect(listed.json.data.map((a: { clientId: string; keys: unknown[] }) => [a.clientId, a.keys.length])).toEqual([[wide.clientId, 1]]);
    // Within its scopes (an alias names the same scope), it registers; and it may always take access away.
    const own = await register(['entities:read', 'entities:write']);
    expect(own.status, own.text).toBe(201);
    const key = await call(app, 'POST', `/oauth2/applications/${own.json.clientId}/keys`, { token: narrow.token, body: { publicKey: rsaKeyPair().publicPem } });
    expect(key.status, key.text).toBe(201);
    expect((await call(app, 'DELETE', `/oauth2/applications/${wide.clientId}/keys/${wide.keyId}`, { token: narrow.token })).status).toBe(204);
    expect((await call(app, 'DELETE', `/oauth2/applications/${wide.clientId}`, { token: narrow.token })).status).toBe(204);
  });

  it('a malformed or absurd client id in the path → 404 resource.notFound, never a 500', async () => {
    const ws = await newWorkspace();
    for (const id of ['x', 'APP%23x', 'a'.repeat(2000), '%00', '..%2F..']) {
      expectError(await call(app, 'GET', `/oauth2/applications/${id}`, { token: ws.token }), 'resource.notFound');
      expectError(await call(app, 'DELETE', `/oauth2/applications/${id}/keys/${id}`, { token: ws.token }), 'resource.notFound');
    }
  });
});

describe('keys over HTTP', () => {
  it('POST keys → 201 {id, fingerprint, bits, createdAt}; GET lists it without the PEM; DELETE → 204, then 404', async () => {
    const ws = await newWorkspace();
    const clientId = await createApp(app, ws, { name: 'A', scopes: ['entities:read'] });
    const res = await call(app, 'POST', `/oauth2/applications/${clientId}/keys`, { token: ws.token, body: { publicKey: rsaKeyPair(3072).publicPem } });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(UUID),
      fingerprint: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      bits: 3072,
      createdAt: expect.stringMatching(ISO),
    });
    expect((await call(app, 'GET', `/oauth2/applications/${clientId}`, { token: ws.token })).json.keys).toEqual([res.json]);
    expect((await call(app, 'DELETE', `/oauth2/applications/${clientId}/keys/${res.json.id}`, { token: ws.token })).status).toBe(204);
    expectError(await call(app, 'DELETE', `/oauth2/applications/${clientId}/keys/${res.json.id}`, { token: ws.token }), 'resource.notFound', {
      detail: `No key "${res.json.id}" on application ${clientId}.`,
    });
    expect((await call(app, 'GET', `/oauth2/applications/${clientId}`, { token: ws.token })).json.keys).toEqual([]);
  });

  it.each([
    [
      'a private key',
      () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      /^This is a private key\./,
    ],
    [
      'an EC key',
      () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      /^The public key is an EC key; only RSA keys \(RS256\) are accepted\.$/,
    ],
    ['a 1024-bit key', () => rsaKeyPair(1024).publicPem, /^The RSA key has 1024 bits; at least 2048 are required\.$/],
    ['garbage', () => 'hello', /^The public key is not PEM/],
  ])('%s → 400 request.invalid at /publicKey with a detail saying which; no key stored', async (_name, make, detail) => {
    const ws = await newWorkspace();
    const clientId = await createApp(app, ws, { name: 'A', scopes: ['entities:read'] });
    const res = await call(app, 'POST', `/oauth2/applications/${clientId}/keys`, { token: ws.token, body: { publicKey: make() } });
    expectError(res, 'request.invalid', { detail, source: { pointer: '/publicKey' } });
    expect((await call(app, 'GET', `/oauth2/applications/${clientId}`, { token: ws.token })).json.keys).toEqual([]);
  });

  it('publicKey missing or not a string → 400 request.invalid at /publicKey', async () => {
    const ws = await newWorkspace();
    const clientId = await createApp(app, ws, { name: 'A', scopes: ['entities:read'] });
    expectError(await call(app, 'POST', `/oauth2/applications/${clientId}/keys`, { token: ws.token, body: {} }), 'request.invalid', {
      source: { pointer: '/publicKey' },
    });
    expectError(await call(app, 'POST', `/oauth2/applications/${clientId}/keys`, { token: ws.token, body: { publicKey: 7 } }), 'request.invalid', {
      source: { pointer: '/publicKey' },
    });
  });

  it('the same key twice on one application (even re-encoded as PKCS#1) → 409 conflict.uniqueViolation', async () => {
    const ws = await newWorkspace();
    const clientId = await createApp(app, ws, { name: 'A', scopes: ['entities:read'] });
    const key = rsaKeyPair();
    const id = await addKey(app, ws, clientId, key.publicPem);
    // The same key in PKCS#1 form: normalisation makes it the same fingerprint.
    const pkcs1 = createPublicKey(key.publicPem).export({ type: 'pkcs1', format: 'pem' }).toString();
    const res = await call(app, 'POST', `/oauth2/applications/${clientId}/keys`, { token: ws.token, body: { publicKey: pkcs1 } });
    expectError(res, 'conflict.uniqueViolation', {
      detail: `This key is already registered on the application as key ${id}.`,
      source: { pointer: '/publicKey' },
    });
  });

  it('at most 5 keys per application, also under 8 concurrent uploads', async () => {
    const ws = await newWorkspace();
    const clientId = await createApp(app, ws, { name: 'A', scopes: ['entities:read'] });
    await addKey(app, ws, clientId, rsaKeyPair().publicPem);
    const pems = Array.from({ length: 8 }, () => rsaKeyPair().publicPem);
    const results = await Promise.all(
      pems.map((publicKey) => call(app, 'POST', `/oauth2/applications/${clientId}/keys`, { token: ws.token, body: { publicKey } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    for (const r of results.filter((x) => x.status !== 201)) {
      expectError(r, 'request.invalid', {
        detail: 'The application already holds 5 keys, the most it may; remove one first.',
        source: { pointer: '/publicKey' },
      });
    }
    expect((await call(app, 'GET', `/oauth2/applications/${clientId}`, { token: ws.token })).json.keys).toHaveLength(5);
  });
});

describe('admin CLI: app commands', () => {
  const run = (name: string, options: Record<string, string | true>) => appCommands.find((c) => c.name === name)!.run(options);

  it('app create / key add / get / list / key remove / delete, with the rules of the HTTP API', async () => {
    const ws = await newWorkspace();
    const dir = mkdtempSync(join(tmpdir(), 'pm-app-cli-'));
    try {
      const created = (await run('app create', {
        workspace: ws.workspaceId,
        name: 'CLI app',
        scopes: 'entities:read notes:read',
        'default-scopes': 'entities:read',
      })) as any;
      expect(created).toMatchObject({ name: 'CLI app', scopes: ['entities:read', 'notes:read'], defaultScopes: ['entities:read'], keys: [] });
      const pemFile = join(dir, 'pub.pem');
      writeFileSync(pemFile, rsaKeyPair().publicPem);
      const key = (await run('app key add', { workspace: ws.workspaceId, 'client-id': created.clientId, 'pem-file': pemFile })) as any;
      expect(key).toEqual({ id: expect.stringMatching(UUID), fingerprint: expect.any(String), bits: 2048, createdAt: expect.any(String) });
      expect(await run('app get', { workspace: ws.workspaceId, 'client-id': created.clientId })).toEqual({ ...created, keys: [key] });
      expect(await run('app list', { workspace: ws.workspaceId })).toEqual({ data: [{ ...created, keys: [key] }] });
      // The HTTP API sees what the CLI made.
      expect((await call(app, 'GET', `/oauth2/applications/${created.clientId}`, { token: ws.token })).json.keys).toEqual([key]);

      writeFileSync(join(dir, 'priv.pem'), rsaKeyPair().privateKey.export({ type: 'pkcs8', format: 'pem' }));
      await expect(run('app key add', { workspace: ws.workspaceId, 'client-id': created.clientId, 'pem-file': join(dir, 'priv.pem') })).rejects.toThrow(
        /^This is a private key\./,
      );
      await expect(run('app key add', { workspace: ws.workspaceId, 'client-id': created.clientId, 'pem-file': join(dir, 'missing.pem') })).rejects.toThrow(
        UsageError,
      );
      await expect(run('app create', { workspace: ws.workspaceId, name: 'X', scopes: 'entities:read bogus' })).rejects.toThrow("'bogus' is not a scope");

      expect(await run('app key remove', { workspace: ws.workspaceId, 'client-id': created.clientId, 'key-id': key.id })).toEqual({
        clientId: created.clientId,
        keyId: key.id,
        removed: true,
      });
      expect(await run('app delete', { workspace: ws.workspaceId, 'client-id': created.clientId })).toEqual({ clientId: created.clientId, deleted: true });
      await expect(run('app get', { workspace: ws.workspaceId, 'client-id': created.clientId })).rejects.toThrow(
        `No application "${created.clientId}" in this workspace.`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the real CLI process: `app create` prints one JSON object; a mistake exits 2 with a message on stderr', () => {
    const cli = (...args: string[]) =>
      spawnSync(join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), ['local/admin.ts', ...args], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
    return newWorkspace().then((ws) => {
      const ok = cli('app', 'create', '--workspace', ws.workspaceId, '--name', 'From CLI', '--scopes', 'entities:read');
      expect(ok.status, ok.stderr).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ clientId: expect.stringMatching(UUID), name: 'From CLI', scopes: ['entities:read'] });
      const bad = cli('app', 'create', '--workspace', ws.workspaceId, '--name', 'X');
      expect(bad.status).toBe(2);
      expect(bad.stderr).toBe('app create: --scopes is required\n');
    });
  });
});
