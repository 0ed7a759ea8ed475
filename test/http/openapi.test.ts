// The OpenAPI document: generated from the route table and the handlers' declarations, committed as
// docs/openapi.json, served at GET {base_url}/openapi.json, and clean under Redocly's lint.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import type { ResponseBody } from '#lib/domain/schemas/responses.ts';
import { SCOPES } from '#lib/domain/scopes.ts';
import { DOCUMENT_BROTLI_BASE64 } from '#lib/http/openapi-embedded.ts';
import { LOCAL_APP_URL, atAppUrl } from '#lib/http/openapi-urls.ts';
import { api } from '#lib/http/pipeline.ts';
import { createEntity, getEntity, PREFLIGHT_PATH, ROUTES } from '#lib/routes.ts';
import { documentedOperations, openApiDocument } from '../../scripts/openapi-document.ts';
import { call, startApp, type TestApp } from '../support/app.ts';

/** A response named for a test's declaration, read as any body. */
const ANY_BODY: ResponseBody<z.ZodMiniUnknown> = { responseSchema: 'OpenApiDocument' };

type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, any>; servers: unknown };

let doc: Doc;
let committed: Doc;
let app: TestApp;
beforeAll(async () => {
  doc = (await openApiDocument()) as Doc;
  committed = JSON.parse(await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
  app = await startApp();
});
afterAll(() => app.close());

const op = (path: string, method: string) => doc.paths[path]![method]!;

describe('OpenAPI document (the route table and each handler’s declaration)', () => {
  it('docs/openapi.json is up to date (npm run openapi)', () => {
    expect(committed).toEqual(doc);
  });

  it('the copy the serving function embeds (lib/http/openapi-embedded.ts) is docs/openapi.json (npm run openapi)', () => {
    expect(JSON.parse(brotliDecompressSync(Buffer.from(DOCUMENT_BROTLI_BASE64, 'base64')).toString('utf8'))).toEqual(committed);
  });

  it('has exactly one operation per route, each read from its handler module, with its scope', async () => {
    expect((await documentedOperations()).map((o) => o.route.operationId)).toEqual(ROUTES.map((r) => r.operationId));
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    // The CORS preflight is the browsers' business, not an operation of the API.
    expect(ops.map((o) => o.operationId).sort()).toEqual(
      ROUTES.filter((r) => r.path !== PREFLIGHT_PATH)
        .map((r) => r.operationId)
        .sort(),
    );
    expect(op('/v2/entities/{id}/score', 'get').security).toEqual([{ BearerAuth: [] }, { OAuth2: ['entities:read'] }]);
    expect(op('/oauth2/applications', 'post').security).toEqual([{ BearerAuth: [] }]);
    // OpenAPI names no roles: an admin route says in its description who may call it.
    const adminRoutes = ROUTES.filter((r) => r.auth === 'admin');
    expect(adminRoutes.length).toBeGreaterThan(0);
    for (const r of adminRoutes)
      expect(op(r.path, r.method.toLowerCase()).description, r.operationId).toMatch(/^Needs an API token of an admin member of the workspace/);
    expect(op('/v2/entities/{id}/score', 'get').description ?? '').not.toContain('admin member');
    expect(op('/oauth2/token', 'post').security).toEqual([]);
    expect(op('/v2/openapi.json', 'get').security).toEqual([]);
  });

  it('query parameters are the declared ones, with schemas; repeatable ones are exploded arrays', () => {
    const params = op('/v2/entities', 'get').parameters as Array<Record<string, any>>;
    expect(params.map((p) => `${p.in}:${p.name}`)).toEqual([
      'query:type',
      'query:type[]',
      'query:fields[]',
      'query:name',
      'query:owner[id]',
      'query:owner[email]',
      'query:status[id]',
      'query:status[name]',
      'query:teams[id]',
      'query:teams[name]',
      'query:archived',
      'query:parent[id]',
      'query:metadata[source][system]',
      'query:metadata[source][recordId]',
      'query:pageCursor',
      'query:limit',
    ]);
    expect(params.find((p) => p.name === 'teams[id]')).toMatchObject({
      description: 'Keeps the entities assigned to this team (not with teams[name])',
      schema: { type: 'string', format: 'uuid' },
    });
    expect(params.find((p) => p.name === 'type[]')).toEqual({
      name: 'type[]',
      in: 'query',
      required: false,
      schema: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/EntityType' } },
      style: 'form',
      explode: true,
    });
    expect(params.find((p) => p.name === 'limit')).toMatchObject({ schema: { type: 'integer', minimum: 1, maximum: 100 } });
    expect(op('/v2/entities/{id}', 'get').parameters.map((p: any) => `${p.in}:${p.name}:${p.required}`)).toEqual(['path:id:true', 'query:fields[]:false']);
  });

  it('request bodies and success responses are the declared schemas, named components', () => {
    expect(op('/v2/entities', 'post').requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateEntityBody' } } },
    });
    expect(op('/v2/entities', 'post').responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/EntityReferenceResponse' });
    const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
    const budget = {
      'X-RateLimit-Limit': header('X-RateLimit-Limit'),
      'X-RateLimit-Remaining': header('X-RateLimit-Remaining'),
      'X-RateLimit-Reset': header('X-RateLimit-Reset'),
    };
    expect(op('/v2/entities/{id}', 'delete').responses['204']).toEqual({
      description: 'Done; no body',
      headers: { 'X-Request-Id': header('X-Request-Id'), ...budget },
    });
    // Conditional and retry-safe requests: the ETag a read answers, the If-Match a change takes (412), the Idempotency-Key of a create.
    expect(op('/v2/notes/{id}', 'get').responses['200'].headers.ETag).toMatchObject({ schema: { type: 'string' } });
    expect(op('/v2/notes/{id}', 'patch').parameters.map((p: any) => `${p.in}:${p.name}`)).toContain('header:If-Match');
    expect(op('/v2/notes/{id}', 'patch').responses['412'].description).toBe('request.preconditionFailed: Precondition failed');
    expect(op('/v2/notes', 'post').parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual(['header:Idempotency-Key']);
    // A 401 answers before the token names a budget; a 403 of the scope check comes after it.
    expect(Object.keys(op('/v2/entities/{id}/score', 'get').responses['401'].headers)).toEqual(['X-Request-Id']);
    expect(op('/v2/entities/{id}/score', 'get').responses['403'].headers).toMatchObject(budget);
    // An unauthenticated route spends no budget: no budget headers.
    expect(op('/v2/openapi.json', 'get').responses['200'].headers).toEqual({ 'X-Request-Id': header('X-Request-Id') });
    expect(doc.components.schemas.Entity.discriminator.mapping.feature).toBe('#/components/schemas/Feature');
    expect(op('/oauth2/token', 'post').requestBody.content['application/x-www-form-urlencoded'].schema).toEqual({
      $ref: '#/components/schemas/JwtBearerGrant',
    });
  });

  it('every error status a route can give, each with the envelope narrowed to that status’s codes', () => {
    const statuses = (path: string, method: string) => Object.keys(op(path, method).responses).sort();
    expect(statuses('/v2/entities', 'post')).toEqual(['201', '400', '401', '403', '404', '408', '413', '429', '431', '500']);
    expect(statuses('/v2/entities', 'get')).toEqual(['200', '400', '401', '403', '408', '413', '429', '431', '500']);
    expect(statuses('/v2/notes/{id}/relationships', 'post')).toEqual(['201', '400', '401', '403', '404', '408', '409', '413', '429', '431', '500']);
    expect(statuses('/v2/openapi.json', 'get')).toEqual(['200', '400', '408', '413', '429', '431', '500']);
    expect(op('/v2/entities', 'post').responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error400' });
    expect(doc.components.schemas.Error400.properties.errors.items.properties.code).toEqual({ type: 'string', enum: ['request.invalid', 'request.malformed'] });
    expect(doc.components.schemas.Error404.properties.errors.items.properties.code.enum).toEqual(['resource.notFound', 'route.notFound']);
    // The token endpoint's refusals are RFC 6749's body, not the envelope.
    expect(op('/oauth2/token', 'post').responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OAuthError' });
    expect(statuses('/oauth2/token', 'post')).toEqual(['200', '400', '408', '413', '429', '431', '500']);
  });

  it('security schemes: bearer tokens, and the OAuth 2.0 authorization code flow at {app_url} with every scope', () => {
    expect(doc.components.securitySchemes.OAuth2.flows.authorizationCode).toMatchObject({
      authorizationUrl: `${LOCAL_APP_URL}/oauth/authorize`,
      tokenUrl: `${LOCAL_APP_URL}/oauth/token`,
    });
    expect(doc.components.securitySchemes.OAuth2.flows.authorizationCode.refreshUrl).toBe(`${LOCAL_APP_URL}/oauth/token`);
    expect(Object.keys(doc.components.securitySchemes.OAuth2.flows.authorizationCode.scopes)).toEqual([...SCOPES]);
    expect(doc.components.securitySchemes.OAuth2.flows.authorizationCode.scopes['write:entities']).toBe('Create and modify entities');
  });

  it('the authorization code flow: forms from their schemas, pages as text/html, RFC 6749 refusals, the query of the authorization endpoint', () => {
    const token = op('/oauth/token', 'post');
    expect(token.requestBody.content['application/x-www-form-urlencoded'].schema).toEqual({ $ref: '#/components/schemas/TokenRequestForm' });
    expect(doc.components.schemas.TokenRequestForm.oneOf.map((g: any) => g.$ref)).toEqual([
      '#/components/schemas/AuthorizationCodeGrantForm',
      '#/components/schemas/RefreshTokenGrantForm',
    ]);
    expect(doc.components.schemas.TokenRequestForm.discriminator.propertyName).toBe('grant_type');
    expect(Object.keys(token.responses)).toEqual(['200', '400', '401', '408', '413', '429', '431', '500']);
    expect(token.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OAuthErrorBody' });
    expect(token.security).toEqual([{}, { OAuthClientBasic: [] }]);
    const authorize = op('/oauth/authorize', 'get');
    expect(authorize.responses['200'].content).toEqual({ 'text/html': { schema: { type: 'string' } } });
    expect(Object.keys(authorize.responses)).toEqual(['200', '303', '400', '408', '413', '429', '431', '500']);
    expect(authorize.parameters.map((p: any) => p.name)).toEqual([
      'response_type',
      'client_id',
      'redirect_uri',
      'scope',
      'state',
      'code_challenge',
      'code_challenge_method',
      'resource',
    ]);
    expect(op('/oauth/sign-in', 'post').responses['401'].content).toHaveProperty('text/html');
    expect(op('/.well-known/oauth-authorization-server', 'get').responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/AuthorizationServerMetadata',
    });
  });

  it('webhooks: the create body and answers from their schemas, the notification as a callback', () => {
    const create = op('/v2/webhooks', 'post');
    expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateWebhookBody' });
    expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookReferenceResponse' });
    const callback = create.callbacks.webhookNotification['{$request.body#/data/fields/notification/url}'].post;
    expect(callback.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookNotificationBody' });
    expect(callback.parameters.map((p: any) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'authorization']);
    expect(op('/v2/webhooks', 'get').parameters.map((p: any) => p.name)).toEqual(['pageCursor', 'limit']);
    expect(op('/v2/webhooks/{webhookId}', 'get').parameters).toEqual([
      { name: 'webhookId', in: 'path', required: true, schema: { type: 'string', format: 'uuid', pattern: expect.any(String) } },
    ]);
  });

  it('a declaration that does not fit its route refuses to load', () => {
    expect(() => api(getEntity, { responses: { 200: ANY_BODY } }, async () => ({ status: 200, body: {} }))).toThrow(
      /path parameters: the route has \{id\}, the declaration \{\}/,
    );
    expect(() => api(createEntity, { responses: { 201: ANY_BODY } }, async () => ({ status: 201, body: {} }))).toThrow(/body: the route says json/);
  });
});

describe('GET {base_url}/openapi.json', () => {
  it('answers docs/openapi.json without credentials, with the deployment’s own addresses', async () => {
    const res = await call(app, 'GET', '/v2/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual(atAppUrl(committed, app.url));
    expect(res.json.servers).toEqual([{ url: app.url, description: '{app_url}; {base_url} is {app_url}/v2' }]);
    // Only the addresses differ from the committed document.
    expect(atAppUrl(committed, LOCAL_APP_URL)).toEqual(committed);
  });

  it('takes no query parameter', async () => {
    const res = await call(app, 'GET', '/v2/openapi.json?format=yaml');
    expect(res.status).toBe(400);
    expect(res.json.errors[0]).toMatchObject({ code: 'request.invalid', source: { parameter: 'format' } });
  });
});

describe('the lint (Redocly, redocly.yaml)', () => {
  it('docs/openapi.json has no problems', async () => {
    const bin = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'redocly');
    // The JSON report on stdout; stderr carries only Redocly's notices (its Node 20 deprecation banner).
    const { stdout } = await promisify(execFile)(bin, ['lint', 'docs/openapi.json', '--config', 'redocly.yaml', '--format', 'json'], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const report = JSON.parse(stdout) as { totals: Record<string, number>; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 60_000);
});
