// The code the stack deploys is an esbuild bundle of the TypeScript the other tests import: ESM,
// minified, `#lib/*` imports resolved, CommonJS dependencies behind a createRequire banner, no module
// aliased (infra/bundling.ts). Here every route is bundled with the stack's own options and the local
// gateway serves requests from those bundles against DynamoDB Local through the SDK's document
// client, so a bundle that cannot load or run fails here, not in AWS. They run on the deployed key
// source (KMS + Secrets Manager through their SDK clients, faked over HTTP).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { InvalidInput } from '#lib/domain/errors.ts';
import { parseInput } from '#lib/domain/input.ts';
import { CreateEntityBody } from '#lib/domain/schemas/entity-writes.ts';
import { CreateNoteBody } from '#lib/domain/schemas/note-writes.ts';
import * as RESPONSES from '#lib/domain/schemas/response-schemas.ts';
import { TOOLS } from '#lib/http/mcp/server.ts';
import { ROUTES, type Route } from '#lib/routes.ts';
import { WORKERS } from '#lib/workers.ts';
import { fakeAws, kmsEnv, setEnv } from './fake-aws.ts';
import { stackBundling, CREDENTIAL_SOURCES_NEVER_LOADED, esbuildOptions, PROJECT_ROOT } from '../../infra/bundling.ts';
import type { Handler } from '../../local/gateway.ts';
import { callTool, expectToolError, mcpClient, seedProduct } from '../mcp/support.ts';
import { call, newWorkspace, startApp, type TestApp } from '../support/app.ts';

// A bundle's first import parses ~1 MB of minified code: slow on a loaded machine, not wrong.
vi.setConfig({ testTimeout: 120_000 });

let dir: string;
let app: TestApp;
const served = new Set<string>();
/** Each bundled function's input files (esbuild's metafile), by function id. */
const inputsOf = new Map<string, string[]>();
// The key of every test but the last, which counts its own fake's calls.
const awsForAll = fakeAws('5678abcd-12ab-34cd-56ef-1234567890ab');
let restoreEnv: (() => void) | undefined;

beforeAll(async () => {
  restoreEnv = setEnv(kmsEnv(awsForAll, await awsForAll.listen()));
  dir = await mkdtemp(join(tmpdir(), 'pm-api-bundles-'));
  // One build of every function: they all have the stack's options (infra/bundling.ts).
  const functions = [...ROUTES.map((r) => [r.operationId, r.handler]), ...WORKERS.map((w) => [w.id, w.handler])] as Array<[string, string]>;
  const { metafile } = await build({
    entryPoints: Object.fromEntries(functions.map(([id, handler]) => [id, join(PROJECT_ROOT, handler)])),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    ...esbuildOptions(),
  });
  for (const [file, output] of Object.entries(metafile?.outputs ?? {})) {
    const id = /([^/]+)\.mjs$/.exec(file)?.[1];
    // What a function carries: the inputs of which some code is in its file.
    if (id)
      inputsOf.set(
        id,
        Object.keys(output.inputs).filter((input) => output.inputs[input]!.bytesInOutput > 0),
      );
  }
  app = await startApp({
    loadHandler: async (route: Route) => {
      served.add(route.operationId);
      const mod = (await import(pathToFileURL(join(dir, `${route.operationId}.mjs`)).href)) as { handler: Handler };
      return mod.handler;
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
  restoreEnv?.();
  await awsForAll.close();
});

describe('deployed bundles (esbuild, the stack options) serve requests', () => {
  it('every route bundles to one self-contained ESM file with the createRequire banner', async () => {
    for (const r of ROUTES) {
      const code = await readFile(join(dir, `${r.operationId}.mjs`), 'utf8');
      expect(code.startsWith(stackBundling().banner), r.operationId).toBe(true);
      expect(code, r.operationId).not.toMatch(/from\s*["']#lib\//);
    }
  });

  it('no bundle carries the response schemas: they are for the OpenAPI document only (lib/domain/schemas/responses.ts)', async () => {
    const ids = Object.values(RESPONSES).map((schema) => z.globalRegistry.get(schema)?.id);
    expect(ids).toContain('NoteResponse');
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    const carried: string[] = [];
    for (const r of ROUTES) {
      const code = await readFile(join(dir, `${r.operationId}.mjs`), 'utf8');
      for (const id of ids) if (code.includes(`id:"${id}"`)) carried.push(`${r.operationId}: ${id}`);
    }
    expect(carried).toEqual([]);
  });

  it('no module is aliased: a function carries the modules the tests import (no stand-in), with the stack’s options', () => {
    expect(stackBundling()).not.toHaveProperty('esbuildArgs');
    expect(esbuildOptions()).not.toHaveProperty('alias');
    const inputs = [...inputsOf.values()].flat();
    expect(inputs.filter((f) => /\.bundled\./.test(f))).toEqual([]);
    // The verifying keys' two sources, both imported statically; only the configured one is called (lib/auth/service-key.ts).
    expect(inputsOf.get('createNote')).toEqual(
      expect.arrayContaining(['lib/auth/service-key-file.ts', 'lib/auth/service-public-keys.ts', 'lib/auth/service-key.ts']),
    );
    // A lazy import() of an SDK client's package keeps all of it (esbuild wraps the module): no
    // function carries a client's aggregated class, which names every command of its service.
    expect(inputs.filter((f) => /@aws-sdk\/client-[a-z-]+\/dist-es\/(KMS|SecretsManager|DynamoDB|SQS)\.js$/.test(f))).toEqual([]);
  });

  it('no function carries two copies of one package: each package is bundled from one install directory (package.json `overrides` keeps sanitize-html to one copy of `entities`)', () => {
    const twice: string[] = [];
    for (const [id, inputs] of inputsOf) {
      const dirsOf = new Map<string, Set<string>>();
      for (const input of inputs) {
        const [, dir, pkg] = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input) ?? [];
        if (dir && pkg) dirsOf.set(pkg, (dirsOf.get(pkg) ?? new Set()).add(dir));
      }
      for (const [pkg, dirs] of dirsOf) if (dirs.size > 1) twice.push(`${id}: ${pkg} from ${[...dirs].join(', ')}`);
    }
    expect(twice).toEqual([]);
    // The member pages that show members' HTML do carry the entity tables, once.
    expect(inputsOf.get('notePage')!.filter((f) => f.endsWith('/decode-data-html.js'))).toHaveLength(1);
  });

  it('every function carries the SDK’s DynamoDB document client, the event workers the SQS client, exactly the functions whose row says `signs` the KMS client, and exactly those whose row says `secret` the Secrets Manager client; the credential chain’s other sources are imported only dynamically, never at load', async () => {
    const ids = [...ROUTES.map((r) => r.operationId), ...WORKERS.map((w) => w.id)];
    const carrying = (pkg: RegExp) => ids.filter((id) => inputsOf.get(id)!.some((f) => pkg.test(f)));
    expect(carrying(/node_modules\/@aws-sdk\/lib-dynamodb\//).sort()).toEqual([...ids].sort());
    expect(carrying(/node_modules\/@aws-sdk\/client-sqs\//)).toEqual(expect.arrayContaining(['streamEvents', 'deliverWebhooks']));
    // The others verify with the public keys the stack read at deploy time (lib/auth/service-public-keys.ts);
    // the stack names the signing key to these functions only (infra/route-functions.ts).
    const signing = ROUTES.filter((r) => r.signs).map((r) => r.operationId);
    expect(signing).toEqual(['issueToken', 'oauthToken']);
    expect(carrying(/node_modules\/@aws-sdk\/client-kms\//).sort()).toEqual([...signing].sort());
    expect(carrying(/^lib\/auth\/service-key-kms\.ts$/).sort()).toEqual([...signing].sort());
    // The stack names the secret to these functions only, and grants them alone its read
    // (infra/route-functions.ts, infra/event-workers.ts): a function that reaches the secret without
    // its row saying so would fail on its first cursor, CSRF token or webhook secret.
    const readingSecret = [...ROUTES.filter((r) => r.secret).map((r) => r.operationId), ...WORKERS.filter((w) => w.secret).map((w) => w.id)];
    expect(readingSecret).toEqual(expect.arrayContaining(['listEntities', 'getEntity', 'createWebhook', 'signIn', 'mcp', 'entityPage', 'deliverWebhooks']));
    expect(carrying(/^lib\/auth\/service-secret\.ts$/).sort()).toEqual([...readingSecret].sort());
    expect(carrying(/node_modules\/@aws-sdk\/client-secrets-manager\//).sort()).toEqual([...readingSecret].sort());
    for (const id of ids) {
      const code = await readFile(join(dir, `${id}.mjs`), 'utf8');
      for (const external of CREDENTIAL_SOURCES_NEVER_LOADED) {
        const mentions = code.split(`"${external}"`).length - 1;
        const dynamic = code.split(`import("${external}")`).length - 1;
        expect([id, external, mentions], 'imported only by import()').toEqual([id, external, dynamic]);
      }
      // Nothing but Node's own modules is imported statically: every other package is in the bundle.
      const statics = [...code.matchAll(/(?:^|[;}])import[^("'`]*?from\s*"([^"]+)"/g)].map((m) => m[1]!);
      expect(
        statics.filter((m) => !m.startsWith('node:')),
        id,
      ).toEqual([]);
    }
  });

  it('only the page routes carry a page layout, each its own (lib/http/pages/page-shell.ts, lib/http/member-pages/shell.ts)', async () => {
    const withLayout: string[] = [];
    const withMemberLayout: string[] = [];
    for (const r of ROUTES) {
      const code = await readFile(join(dir, `${r.operationId}.mjs`), 'utf8');
      if (code.includes('.scope-title')) withLayout.push(r.operationId);
      if (code.includes('table.ranking')) withMemberLayout.push(r.operationId);
    }
    const pages = ROUTES.filter((r) => r.response === 'html');
    expect(withLayout.sort()).toEqual(
      pages
        .filter((r) => r.path.startsWith('/oauth/'))
        .map((r) => r.operationId)
        .sort(),
    );
    expect(withLayout).toHaveLength(3);
    expect(withMemberLayout.sort()).toEqual(
      pages
        .filter((r) => !r.path.startsWith('/oauth/'))
        .map((r) => r.operationId)
        .sort(),
    );
    expect(withMemberLayout).toHaveLength(8);
  });

  it('only the functions of routes that authenticate carry the bearer check and the request budget (lib/http/authenticated.ts)', async () => {
    const carriers: string[] = [];
    for (const r of ROUTES) {
      const code = await readFile(join(dir, `${r.operationId}.mjs`), 'utf8');
      // lib/http/middleware/auth.ts's admin refusal and lib/http/middleware/rate-limit.ts's budget owner.
      const bearer = code.includes('This operation needs an API token of an admin member of the workspace.');
      expect(code.includes("this member's API tokens"), r.operationId).toBe(bearer);
      if (bearer) carriers.push(r.operationId);
    }
    expect(carriers.sort()).toEqual(
      ROUTES.filter((r) => r.auth !== 'none')
        .map((r) => r.operationId)
        .sort(),
    );
    expect(carriers).toEqual(expect.arrayContaining(['createNote', 'mcp', 'listApplications']));
    expect(carriers).toEqual(
      expect.not.arrayContaining(['signIn', 'authorize', 'consent', 'registerClient', 'oauthToken', 'revokeToken', 'issueToken', 'corsPreflight']),
    );
  });

  it('a function carries its own row of lib/routes.ts and the few rows its modules name, not the table: only the preflight matches against every row', async () => {
    // lib/http/records.ts links to these four routes from the records it builds; the MCP tools name the rows they mirror;
    // the MCP path's 405 takes its Allow from that path's rows (lib/http/mcp/method-not-allowed.ts).
    const records = ['listEntityRelationships', 'listNoteRelationships', 'getEntityConfiguration', 'getNoteConfiguration'];
    const mcpPath = ['mcp', 'mcpGet', 'mcpDelete'];
    const namedBy = (id: string) =>
      new Set(id === 'mcp' ? [...records, ...TOOLS.map((t) => t.mirrors.operationId)] : mcpPath.includes(id) ? [...records, ...mcpPath] : records);
    const carriedBy = new Map<string, string[]>();
    for (const r of ROUTES) {
      const code = await readFile(join(dir, `${r.operationId}.mjs`), 'utf8');
      carriedBy.set(
        r.operationId,
        ROUTES.filter((o) => code.includes(`handler:"${o.handler}"`)).map((o) => o.operationId),
      );
    }
    expect(carriedBy.get('corsPreflight')).toEqual(ROUTES.map((r) => r.operationId));
    const beyond: string[] = [];
    for (const [id, carried] of carriedBy) {
      expect(carried, id).toContain(id);
      if (id !== 'corsPreflight') beyond.push(...carried.filter((o) => o !== id && !namedBy(id).has(o)).map((o) => `${id}: ${o}`));
    }
    expect(beyond).toEqual([]);
    expect(carriedBy.get('getNote')).toEqual(['getNote', 'listNoteRelationships']);
    expect(carriedBy.get('createNote')).toEqual(['createNote']);
  });

  it('every worker of lib/workers.ts bundles the same way and loads, exporting its handler', async () => {
    for (const w of WORKERS) {
      const code = await readFile(join(dir, `${w.id}.mjs`), 'utf8');
      expect(code.startsWith(stackBundling().banner), w.id).toBe(true);
      const mod = (await import(pathToFileURL(join(dir, `${w.id}.mjs`)).href)) as { handler?: unknown };
      expect(typeof mod.handler, w.id).toBe('function');
    }
  });

  it('create → read → score through the bundled handlers against DynamoDB Local (the SDK’s document client), links under {base_url}, another workspace gets 404', async () => {
    const ws = await newWorkspace();
    const created = await call(app, 'POST', '/v2/entities', { token: ws.token, body: { data: { type: 'product', fields: { name: 'Bundled product' } } } });
    expect(created.status).toBe(201);
    const id = created.json.data.id as string;
    expect(created.json.data.links.self).toBe(`${app.baseUrl}/entities/${id}`);

    const read = await call(app, 'GET', `/v2/entities/${id}`, { token: ws.token });
    expect([read.status, read.json.data.fields.name]).toEqual([200, 'Bundled product']);
    expect(read.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const score = await call(app, 'GET', `/v2/entities/${id}/score`, { token: ws.token });
    expect([score.status, score.json.data.links.self]).toEqual([200, `${app.baseUrl}/entities/${id}/score`]);

    const other = await newWorkspace();
    const foreign = await call(app, 'GET', `/v2/entities/${id}`, { token: other.token });
    expect([foreign.status, foreign.json.errors[0].code]).toEqual([404, 'resource.notFound']);

    expect([...served].sort()).toEqual(['createEntity', 'getCustomerScore', 'getEntity']);
  });

  it('bundled write routes refuse bad bodies as the source schemas do: validation does not depend on doc()', async () => {
    const ws = await newWorkspace();
    const refusals = [
      ['/v2/notes', CreateNoteBody, { data: { type: 'textNote', fields: { name: 'Bundled' }, relationships: [{ type: 'customer', target: {} }] } }],
      ['/v2/notes', CreateNoteBody, { data: { type: 'simple', fields: { name: 'Bundled', tags: 'x' } } }],
      ['/v2/entities', CreateEntityBody, { data: { type: 'product', fields: { name: 'P', status: { id: 'nope' } } } }],
      ['/v2/entities', CreateEntityBody, { data: { type: 'release', fields: { name: 'R', timeframe: { startDate: '2025-13-01', endDate: '2026-01-01' } } } }],
      ['/v2/entities', CreateEntityBody, { data: { type: 'user', fields: { name: 'U', email: 'not an address' } } }],
    ] as const;
    for (const [path, schema, body] of refusals) {
      const source = (() => {
        try {
          parseInput(schema, body, 'body');
        } catch (e) {
          return e as InvalidInput;
        }
      })();
      expect(source, path).toBeInstanceOf(InvalidInput);
      const bundled = await call(app, 'POST', path, { token: ws.token, body });
      expect([bundled.status, bundled.json.errors[0].code, bundled.json.errors[0].detail, bundled.json.errors[0].source], path).toEqual([
        400,
        'request.invalid',
        source!.detail,
        source!.location,
      ]);
    }
  });
});

describe('the bundled mcp function (the MCP SDK whole, as the tests run it)', () => {
  it("lists its tools, answers a tool call and refuses arguments that fail a tool's input schema", async () => {
    const ws = await newWorkspace('Bundled MCP');
    const seeded = await seedProduct(app, ws.token);
    const client = await mcpClient(app, { token: ws.token });
    try {
      const { tools } = await client.listTools();
      // The hierarchy's, the planning entities' and the notes' tools, in the server's order.
      expect(tools.map((t) => t.name)).toEqual([
        'get_customer_score',
        'rank_by_customer_score',
        'search_entities',
        'get_entity',
        'get_customer_demand',
        'rank_plan_by_customer_score',
        'list_releases_of_area',
        'list_objectives',
        'list_notes',
        'get_note',
        'create_note',
        'rate_link',
      ]);
      expect(tools.find((t) => t.name === 'create_note')!.inputSchema.required).toEqual(['name']);
      // Its input schemas keep their documentation (lib/domain/schemas/doc.ts).
      expect(JSON.stringify(tools.find((t) => t.name === 'search_entities')!.inputSchema)).toContain('"$ref":"#/definitions/EntityType"');
      const score = await callTool(client, 'get_customer_score', { entityId: seeded.features['Apple Pay'] });
      expect([score.isError, score.structuredContent.score, score.structuredContent.name]).toEqual([undefined, 5, 'Apple Pay']);
      expectToolError(
        await callTool(client, 'get_customer_score', { entityId: 'not-a-uuid' }),
        'request.invalid',
        "'/entityId' must be a UUID (got 'not-a-uuid').",
        { pointer: '/entityId' },
      );
    } finally {
      await client.close();
    }
    expect(served.has('mcp')).toBe(true);
  });
});

describe('deployed bundles with the KMS key source (KMS and Secrets Manager faked over HTTP: no emulator exists)', () => {
  const aws = fakeAws();
  let restore: (() => void) | undefined;

  beforeAll(async () => {
    restore = setEnv(kmsEnv(aws, await aws.listen()));
  });

  afterAll(async () => {
    restore?.();
    await aws.close();
  });

  it('a token signed by KMS Sign authenticates at bundled functions; their cursors are keyed by the Secrets Manager secret', async () => {
    const ws = await newWorkspace(); // issues the admin's API token through the KMS source
    expect(decodeProtectedHeader(ws.token)).toEqual({ alg: 'ES256', kid: aws.KEY_ID, typ: 'JWT' });
    await expect(jwtVerify(ws.token, aws.publicKey, { algorithms: ['ES256'] })).resolves.toBeDefined();

    for (const name of ['First', 'Second']) {
      const created = await call(app, 'POST', '/v2/entities', { token: ws.token, body: { data: { type: 'product', fields: { name } } } });
      expect(created.status).toBe(201);
    }
    const page1 = await call(app, 'GET', '/v2/entities?type=product&limit=1', { token: ws.token });
    expect([page1.status, page1.json.data.length]).toEqual([200, 1]);
    const next = page1.json.links.next as string;
    expect(next.startsWith(`${app.baseUrl}/entities?`)).toBe(true);
    const page2 = await call(app, 'GET', next.slice(app.url.length), { token: ws.token });
    expect([page2.status, page2.json.data.length]).toEqual([200, 1]);
    expect(page2.json.data[0].id).not.toBe(page1.json.data[0].id);

    // One Sign, for the token, in this process (its kid from the public keys in the environment, as a
    // deployed signer takes it); one secret load, the listEntities bundle's (createEntity's row does
    // not say `secret`). The bundles verify with the public keys in their environment, with no KMS
    // call; the file key is gone, so 201 and 200 above mean they verified against the KMS key's public half.
    const count = (target: string) => aws.calls.filter((c) => c === target).length;
    expect([count('TrentService.GetPublicKey'), count('secretsmanager.GetSecretValue'), count('TrentService.Sign')]).toEqual([0, 1, 1]);
    expect(aws.calls).toHaveLength(2);
  });
});
