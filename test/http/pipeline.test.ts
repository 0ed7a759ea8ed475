// The Middy pipeline every handler shares, observed over HTTP through the local gateway: request
// id, the error envelope for every code reachable at this layer, auth and scopes, body parsing,
// timeout, and 500s that reveal nothing. Cores here are test doubles of handler logic;
// the pipeline, the token store and DynamoDB Local are real.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import type { ResponseBody } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { errorEnvelope } from '#lib/http/envelope.ts';
import { ApiError } from '#lib/http/errors.ts';
import { api, type ApiHandler } from '#lib/http/pipeline.ts';
import { headerMap, type ApiRequest } from '#lib/http/request.ts';
import { log } from '#lib/log.ts';
import { ROUTES, type OperationId, type Route } from '#lib/routes.ts';
import { call, challengeOf, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

/** A response named for a test's declaration, read as any body. */
const ANY_BODY: ResponseBody<z.ZodMiniUnknown> = { responseSchema: 'OpenApiDocument' };

type Behaviour = (req: ApiRequest) => Promise<{ status: 200; body: unknown } | { status: 201 | 204 }>;
let behaviour: Behaviour = async (req) => ({ status: 200, body: { echo: req.body ?? null, params: req.params, member: req.principal?.email ?? null } });

const routeById = (operationId: OperationId): Route => ROUTES.find((route) => route.operationId === operationId)!;

/** A test double's declaration: its route's path parameters as text, any query, any JSON body, any 200 body. */
function doubleOf(operationId: OperationId) {
  const route = routeById(operationId);
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return {
    params: z.strictObject(Object.fromEntries(names.map((n) => [n, z.string()]))),
    query: z.looseObject({}),
    ...(route.body === 'json' ? { body: z.unknown() } : {}),
    ...(route.body === 'form' ? { form: z.unknown() } : {}),
    responses: { 200: ANY_BODY, 201: null, 204: null },
  };
}

const handlers = new Map<string, ApiHandler>();
const handlerFor = (operationId: OperationId) => {
  let h = handlers.get(operationId);
  const route = routeById(operationId);
  if (!h) handlers.set(operationId, (h = (route.auth === 'none' ? api : authedApi)(route, doubleOf(operationId), (req) => behaviour(req))));
  return h;
};

let app: TestApp;
let ws: TestWorkspace;
beforeAll(async () => {
  app = await startApp({ loadHandler: async (route) => handlerFor(route.operationId), doubles: true });
  ws = await newWorkspace();
});
afterAll(() => app.close());
const defaultBehaviour = behaviour;
afterEach(() => {
  behaviour = defaultBehaviour;
});

const ID = '9b2b6f9e-4a51-4ef4-9d3c-0d7c2b5d1e11';

describe('request id', () => {
  it('every response carries X-Request-Id; success and error alike; the envelope id equals it', async () => {
    const ok = await call(app, 'GET', `/v2/entities/${ID}`, { token: ws.token });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await call(app, 'GET', `/v2/entities/${ID}`);
    expectError(bad, 'auth.invalid');
    expect(bad.json.id).toBe(bad.headers.get('x-request-id'));
    expect(bad.json.id).not.toBe(ok.headers.get('x-request-id'));
  });
});

describe('authentication and scopes (from the route table)', () => {
  it('no credentials → 401 auth.invalid with the Bearer challenge', async () => {
    const res = await call(app, 'GET', `/v2/entities/${ID}/score`);
    expectError(res, 'auth.invalid', { detail: /Authorization header is missing/ });
    expect(challengeOf(res)).toBe('Bearer');
  });

  it('a scheme other than Bearer → 401', async () => {
    expectError(await call(app, 'GET', `/v2/entities/${ID}/score`, { headers: { authorization: `Basic ${ws.token}` } }), 'auth.invalid');
  });

  it('Authorization sent as two fields → 401 saying so, though each is a live token; one field with a comma in it is one malformed value', async () => {
    const twice = await call(app, 'GET', `/v2/entities/${ID}/score`, { headers: { authorization: [`Bearer ${ws.token}`, `Bearer ${ws.token}`] } });
    expectError(twice, 'auth.invalid', { detail: 'The Authorization header was sent 2 times; send one "Bearer <token>".' });
    expect(challengeOf(twice)).toBe('Bearer');
    const joined = await call(app, 'GET', `/v2/entities/${ID}/score`, { headers: { authorization: `Bearer ${ws.token}, Bearer ${ws.token}` } });
    expectError(joined, 'auth.invalid', { detail: 'The Authorization header is not of the form "Bearer <token>".' });
  });

  it('a token lacking the route scope → 403 auth.accessDenied naming the scope', async () => {
    const viewer = await ws.member({ role: 'viewer' });
    const read = await call(app, 'GET', `/v2/entities/${ID}/score`, { token: viewer.token });
    expect(read.status).toBe(200);
    const write = await call(app, 'POST', '/v2/entities', { token: viewer.token, body: { data: {} } });
    expectError(write, 'auth.accessDenied', { detail: "This operation needs the scope 'write:entities', which the token does not carry." });
  });

  it('a token narrowed to notes:read may not read entities', async () => {
    const narrow = await ws.member({ role: 'maker', scopes: ['notes:read'] });
    expectError(await call(app, 'GET', `/v2/entities/${ID}/score`, { token: narrow.token }), 'auth.accessDenied');
    expect((await call(app, 'GET', '/v2/notes', { token: narrow.token })).status).toBe(200);
  });

  it("admin routes need an admin member's API token", async () => {
    const maker = await ws.member({ role: 'maker' });
    expectError(await call(app, 'GET', '/oauth2/applications', { token: maker.token }), 'auth.accessDenied');
    expect((await call(app, 'GET', '/oauth2/applications', { token: ws.token })).status).toBe(200);
  });

  it('a deactivated member → 401 on the next request', async () => {
    const m = await ws.member({ role: 'maker', active: false });
    expectError(await call(app, 'GET', '/v2/notes', { token: m.token }), 'auth.invalid', { detail: /deactivated/ });
  });

  it('the principal names the caller', async () => {
    const res = await call(app, 'GET', `/v2/entities/${ID}`, { token: ws.token });
    expect(res.json).toEqual({ echo: null, params: { id: ID }, member: ws.admin.email });
  });
});

describe('which routes carry the bearer check: their row decides, and a handler made the other way refuses to load', () => {
  const core = async () => ({ status: 200 as const, body: {} });
  it('an authenticated route made by api() (no bearer check) refuses to load', () => {
    expect(() => api(routeById('listMembers'), doubleOf('listMembers'), core)).toThrow(
      'listMembers (functions/members/list.ts) does not fit its row in lib/routes.ts: auth: the route says members:read, its handler is made by api()',
    );
  });
  it('a route without authentication made by authedApi() refuses to load', () => {
    expect(() => authedApi(routeById('getAuthorizationServerMetadata'), doubleOf('getAuthorizationServerMetadata'), core)).toThrow(
      'getAuthorizationServerMetadata (functions/authorization/metadata.ts) does not fit its row in lib/routes.ts: auth: the route says none, its handler is made by authedApi()',
    );
  });
  it("an Idempotency-Key on a route without authentication refuses to load: a claim is a member's", () => {
    expect(() => api(routeById('registerClient'), { ...doubleOf('registerClient'), headers: { idempotencyKey: true } }, core)).toThrow(
      /: Idempotency-Key without authentication$/,
    );
  });
});

describe('body parsing on routes that take a body', () => {
  it('{bad json → 400 request.malformed', async () => {
    const res = await call(app, 'POST', '/v2/entities', { token: ws.token, body: '{bad json', headers: { 'content-type': 'application/json' } });
    expectError(res, 'request.malformed', { detail: /^The request body is not valid JSON: / });
  });

  it('a non-JSON Content-Type → 400 request.malformed', async () => {
    const res = await call(app, 'POST', '/v2/entities', { token: ws.token, body: '{}', headers: { 'content-type': 'text/plain' } });
    expectError(res, 'request.malformed', { detail: 'Content-Type must be application/json (got "text/plain").' });
    expectError(await call(app, 'POST', '/v2/entities', { token: ws.token, body: '{}' }), 'request.malformed');
  });

  it('Content-Type sent as two fields → 400 request.malformed saying so, though each names JSON', async () => {
    const res = await call(app, 'POST', '/v2/entities', { token: ws.token, body: '{}', headers: { 'content-type': ['application/json', 'application/json'] } });
    expectError(res, 'request.malformed', { detail: 'The Content-Type header was sent 2 times; send it once.' });
  });

  it('an empty body → 400 request.malformed', async () => {
    expectError(
      await call(app, 'PATCH', `/v2/entities/${ID}`, { token: ws.token, body: '', headers: { 'content-type': 'application/json' } }),
      'request.malformed',
      {
        detail: 'The request body is empty; a JSON document is required.',
      },
    );
  });

  it('application/json with a charset is JSON; other JSON types (merge-patch+json names other semantics) → 400 request.malformed', async () => {
    const res = await call(app, 'POST', '/v2/entities', { token: ws.token, body: '{"a":1}', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(res.json.echo).toEqual({ a: 1 });
    for (const type of ['application/vnd.api+json', 'application/merge-patch+json'])
      expectError(await call(app, 'POST', '/v2/entities', { token: ws.token, body: '{"a":2}', headers: { 'content-type': type } }), 'request.malformed', {
        detail: `Content-Type must be application/json (got "${type}").`,
      });
  });

  it('a base64-encoded event body is decoded before parsing', async () => {
    const handler = handlerFor('createEntity');
    const event = {
      httpMethod: 'POST',
      path: '/v2/entities',
      resource: '/v2/entities',
      headers: { Authorization: `Bearer ${ws.token}`, 'Content-Type': 'application/json' },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      body: Buffer.from('{"name":"é"}').toString('base64'),
      isBase64Encoded: true,
      requestContext: { requestId: 'b64-request' },
    } as unknown as APIGatewayProxyEvent;
    const res = await handler(event, { getRemainingTimeInMillis: () => 10_000 } as Context);
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['X-Request-Id']).toBe('b64-request');
    expect(JSON.parse(res.body).echo).toEqual({ name: 'é' });
  });

  it('a JSON body over 256 KiB → 413 request.tooLarge', async () => {
    const res = await call(app, 'POST', '/v2/entities', { token: ws.token, body: { data: 'x'.repeat(300 * 1024) } });
    expectError(res, 'request.tooLarge');
  });

  it('a body on a route that takes none → 400 request.malformed, the core never runs', async () => {
    let ran = false;
    behaviour = async () => {
      ran = true;
      return { status: 204 };
    };
    const res = await call(app, 'DELETE', `/v2/entities/${ID}`, { token: ws.token, body: '{"data":{}}', headers: { 'content-type': 'application/json' } });
    expectError(res, 'request.malformed', { detail: 'DELETE /v2/entities/{id} takes no request body; send the request without one.' });
    expect(ran).toBe(false);
  });
});

/** A direct invocation with the event API Gateway would build, for bodies fetch cannot send. */
async function invoke(operationId: OperationId, headers: Record<string, string>, body: string, isBase64Encoded: boolean) {
  const route = routeById(operationId);
  const event = {
    httpMethod: route.method,
    path: route.path,
    resource: route.path,
    headers,
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    body,
    isBase64Encoded,
    requestContext: { requestId: 'direct-request' },
  } as unknown as APIGatewayProxyEvent;
  const res = await handlerFor(operationId)(event, { getRemainingTimeInMillis: () => 10_000 } as Context);
  return { status: res.statusCode, json: JSON.parse(res.body) };
}

describe('body decoding: UTF-8 only, no content coding, no other charset', () => {
  const json = (bytes: Buffer) => call(app, 'POST', '/v2/entities', { token: ws.token, body: bytes, headers: { 'content-type': 'application/json' } });
  const wrap = (...inner: Array<string | number[]>) =>
    Buffer.concat([Buffer.from('{"name":"'), ...inner.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))), Buffer.from('"}')]);

  it.each([
    ['a lone 0xFF byte', [0xff]],
    ['a truncated two-byte sequence', [0xc3]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('invalid UTF-8 (%s) → 400 request.malformed, the core never runs', async (_name, bytes) => {
    let ran = false;
    behaviour = async () => {
      ran = true;
      return { status: 201 };
    };
    expectError(await json(wrap('ok ', bytes, ' ok')), 'request.malformed', { detail: 'The request body is not valid UTF-8 text.' });
    expect(ran).toBe(false);
  });

  it('valid multi-byte UTF-8 (é, 漢, an emoji) arrives intact', async () => {
    const res = await json(wrap('é 漢 😀'));
    expect(res.status, res.text).toBe(200);
    expect(res.json.echo).toEqual({ name: 'é 漢 😀' });
  });

  it('a byte-order mark is not silently dropped: the body is not JSON', async () => {
    expectError(await json(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')])), 'request.malformed', {
      detail: /^The request body is not valid JSON: /,
    });
  });

  it('an event whose text body holds a lone surrogate (no UTF-8 can encode one) → 400 request.malformed', async () => {
    const res = await invoke('createEntity', { Authorization: `Bearer ${ws.token}`, 'Content-Type': 'application/json' }, '{"name":"\ud800"}', false);
    expect(res).toEqual({ status: 400, json: errorEnvelope('direct-request', 'request.malformed', 'The request body is not valid UTF-8 text.') });
  });

  it.each(['utf-16', 'UTF-16LE', 'iso-8859-1', 'latin1', 'us-ascii', '"windows-1252"', ''])(
    'Content-Type charset=%s → 400 request.malformed naming it',
    async (charset) => {
      const res = await call(app, 'POST', '/v2/entities', {
        token: ws.token,
        body: '{"a":1}',
        headers: { 'content-type': `application/json; charset=${charset}` },
      });
      expectError(res, 'request.malformed', {
        detail: `The request body must be UTF-8; Content-Type declares charset=${JSON.stringify(charset.replace(/"/g, ''))}.`,
      });
    },
  );

  it.each(['utf-8', 'UTF-8', '"utf-8"', 'utf8'])('Content-Type charset=%s is UTF-8', async (charset) => {
    const res = await call(app, 'POST', '/v2/entities', {
      token: ws.token,
      body: '{"a":1}',
      headers: { 'content-type': `application/json;charset=${charset}` },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.echo).toEqual({ a: 1 });
  });

  it.each(['gzip', 'br', 'deflate', 'compress', 'zstd', 'x-custom', 'identity, gzip', 'GZIP'])(
    'Content-Encoding: %s on a plain JSON body → 400 request.malformed saying so',
    async (coding) => {
      const res = await call(app, 'POST', '/v2/entities', {
        token: ws.token,
        body: '{"a":1}',
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
      });
      expectError(res, 'request.malformed', {
        detail: `The request body has Content-Encoding ${JSON.stringify(coding)}; the service decodes no content coding: send the body uncompressed, without Content-Encoding.`,
      });
    },
  );

  it('Content-Encoding: gzip on a really gzipped body is refused too (the service decodes no coding)', async () => {
    const { gzipSync } = await import('node:zlib');
    const res = await call(app, 'POST', '/v2/entities', {
      token: ws.token,
      body: gzipSync('{"a":1}'),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expectError(res, 'request.malformed', { detail: /^The request body has Content-Encoding "gzip"/ });
  });

  it('Content-Encoding: identity is no coding at all', async () => {
    const res = await call(app, 'POST', '/v2/entities', {
      token: ws.token,
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    });
    expect(res.json.echo).toEqual({ a: 1 });
  });

  describe('on the token endpoint the same refusals are OAuth errors (RFC 6749), never the envelope', () => {
    const FORM = 'application/x-www-form-urlencoded';
    const oauth = (description: string) => ({ error: 'invalid_request', error_description: description });

    it('Content-Encoding: gzip → invalid_request saying so', async () => {
      const res = await call(app, 'POST', '/oauth2/token', { body: 'grant_type=x&assertion=y', headers: { 'content-type': FORM, 'content-encoding': 'gzip' } });
      expect([res.status, res.json]).toEqual([
        400,
        oauth('The request body has Content-Encoding "gzip"; the service decodes no content coding: send the body uncompressed, without Content-Encoding.'),
      ]);
    });

    it('invalid UTF-8 bytes in the form → invalid_request', async () => {
      const res = await call(app, 'POST', '/oauth2/token', { body: Buffer.from([0x61, 0x3d, 0xff]), headers: { 'content-type': FORM } });
      expect([res.status, res.json]).toEqual([400, oauth('The request body is not valid UTF-8 text.')]);
    });

    it('a base64-encoded event body that is not UTF-8 → invalid_request', async () => {
      const res = await invoke('issueToken', { 'Content-Type': FORM }, Buffer.from([0x61, 0x3d, 0xc0, 0xaf]).toString('base64'), true);
      expect(res).toEqual({ status: 400, json: oauth('The request body is not valid UTF-8 text.') });
    });
  });
});

describe('path parameters', () => {
  it('are percent-decoded for the handler', async () => {
    const res = await call(app, 'GET', '/v2/entities/a%20b%2Fc', { token: ws.token });
    expect(res.json.params).toEqual({ id: 'a b/c' });
  });

  it('invalid percent-encoding → 400 request.invalid with source.parameter', async () => {
    const res = await call(app, 'GET', '/v2/entities/%E0%A4%A', { token: ws.token });
    expectError(res, 'request.invalid', { source: { parameter: 'id' }, detail: "Path parameter 'id' is not valid percent-encoding." });
  });

  it('invalid percent-encoding from a caller without credentials, or without the scope, is refused as such first (401, 403)', async () => {
    expectError(await call(app, 'GET', '/v2/entities/%C0%AF/score'), 'auth.invalid');
    const viewer = await ws.member({ role: 'viewer' });
    expectError(await call(app, 'DELETE', '/v2/notes/%ZZ', { token: viewer.token }), 'auth.accessDenied');
  });
});

describe('errors raised by handlers', () => {
  it('an ApiError becomes the envelope with its detail and source', async () => {
    behaviour = async () => {
      throw new ApiError('resource.notFound', `No entity ${ID} in this workspace.`, { source: { parameter: 'id' } });
    };
    const res = await call(app, 'GET', `/v2/entities/${ID}`, { token: ws.token });
    expectError(res, 'resource.notFound', { detail: `No entity ${ID} in this workspace.`, source: { parameter: 'id' } });
  });

  it('anything unexpected → 500 internal.serverError with nothing internal in the body; the cause is logged as JSON', async () => {
    // What Powertools writes: errors go to stderr.
    const lines: string[] = [];
    const capture = (chunk: string | Uint8Array) =>
      lines.push(
        ...String(chunk)
          .split('\n')
          .filter((l) => l.startsWith('{')),
      ) > 0;
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    const level = log.getLevelName();
    try {
      behaviour = async () => {
        // Inside the invocation: Powertools sets the configured level (silent here) again as each one starts.
        log.setLogLevel('ERROR');
        throw new Error('connection to db-internal.secret:5432 refused');
      };
      const res = await call(app, 'GET', `/v2/entities/${ID}`, { token: ws.token });
      expectError(res, 'internal.serverError', { detail: 'The server failed unexpectedly; quote the id when reporting it.' });
      expect(res.text).not.toMatch(/db-internal|secret|stack|at /);
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.message === 'unexpected error');
      expect(logged).toMatchObject({
        level: 'ERROR',
        requestId: res.json.id,
        operationId: 'getEntity',
        workspaceId: ws.workspaceId,
        error: { name: 'Error', message: 'connection to db-internal.secret:5432 refused' },
      });
      expect(logged.error.stack).toMatch(/pipeline\.test\.ts/);
      expect(lines.join('\n')).not.toContain(ws.token);
    } finally {
      vi.restoreAllMocks();
      log.setLogLevel(level);
    }
  });

  it('a handler past the request budget → 408 request.timeout', async () => {
    const budget = process.env.REQUEST_TIMEOUT_MS;
    process.env.REQUEST_TIMEOUT_MS = '300';
    try {
      behaviour = () => new Promise((resolve) => setTimeout(() => resolve({ status: 200, body: {} }), 3000));
      const started = Date.now();
      const res = await call(app, 'GET', `/v2/entities/${ID}`, { token: ws.token });
      expectError(res, 'request.timeout', { detail: 'The request took too long and was terminated.' });
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      process.env.REQUEST_TIMEOUT_MS = budget;
    }
  });
});

describe('envelope limits', () => {
  it('detail is clipped to 1000 characters and title stays the table title', () => {
    const env = errorEnvelope('id-1', 'request.invalid', 'x'.repeat(5000));
    expect(env.errors[0].detail).toHaveLength(1000);
    expect(env).toEqual({ id: 'id-1', errors: [{ code: 'request.invalid', title: 'Request schema invalid', detail: 'x'.repeat(999) + '…' }] });
  });
});

describe('headerMap: a single-valued header is told apart by the fields the gateway delivers', () => {
  it('Authorization, Content-Type and Idempotency-Key in several fields are counted; a list header (If-Match) is joined; a comma inside one field is one value', () => {
    const { headers, repeated } = headerMap({
      headers: { Authorization: 'Bearer b', 'If-Match': '"2"', 'Idempotency-Key': 'k, j', Accept: '*/*' },
      multiValueHeaders: {
        Authorization: ['Bearer a', 'Bearer b'],
        'If-Match': ['"1"', '"2"'],
        'Idempotency-Key': ['k, j'],
        'content-type': ['application/json'],
        'Content-Type': ['application/json'],
      },
    });
    expect(Object.fromEntries(repeated)).toEqual({ authorization: 2, 'content-type': 2 });
    expect(Object.fromEntries(headers)).toEqual({
      authorization: 'Bearer a, Bearer b',
      'if-match': '"1", "2"',
      'idempotency-key': 'k, j',
      'content-type': 'application/json, application/json',
      accept: '*/*',
    });
  });
});
