// The local gateway builds the same REST API proxy event API Gateway gives Lambda.
import { request } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, expectError, startApp, type TestApp } from '../support/app.ts';

const seen: Array<{ operationId: string; event: APIGatewayProxyEvent }> = [];
let app: TestApp;

beforeAll(async () => {
  app = await startApp({
    loadHandler: async (route) => async (event) => {
      seen.push({ operationId: route.operationId, event });
      // ?quotes=N: a body of N quote characters, whose escaping doubles it in Lambda's response.
      const quotes = Number(event.queryStringParameters?.quotes ?? 0);
      return {
        statusCode: 200,
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': event.requestContext.requestId },
        body: quotes ? '"'.repeat(quotes) : JSON.stringify({ ok: true }),
      };
    },
    doubles: true,
  });
});
afterAll(() => app.close());
beforeEach(() => {
  seen.length = 0;
});

const only = () => {
  expect(seen).toHaveLength(1);
  return seen[0]!;
};

describe('local gateway → API Gateway REST proxy event', () => {
  it('repeated query keys such as fields[] keep every value; the single map keeps the last', async () => {
    const res = await call(app, 'GET', '/v2/entities?fields[]=name&fields%5B%5D=status&type=feature&q=a%26b+c');
    expect(res.status).toBe(200);
    const { operationId, event } = only();
    expect(operationId).toBe('listEntities');
    expect(event.multiValueQueryStringParameters).toEqual({ 'fields[]': ['name', 'status'], type: ['feature'], q: ['a&b c'] });
    expect(event.queryStringParameters).toEqual({ 'fields[]': 'status', type: 'feature', q: 'a&b c' });
    expect(event).toMatchObject({
      httpMethod: 'GET',
      resource: '/v2/entities',
      path: '/v2/entities',
      pathParameters: null,
      body: null,
      isBase64Encoded: false,
    });
  });

  it('query keys and header names spelled like built-in properties (__proto__, constructor, hasOwnProperty) arrive as plain keys', async () => {
    const res = await call(app, 'GET', '/v2/entities?constructor=a&__proto__=b&hasOwnProperty=c&constructor=d', {
      // (fetch drops a header named __proto__; the query carries that spelling)
      headers: { constructor: 'x', valueOf: 'z' } as unknown as Record<string, string>,
    });
    expect(res.status, res.text).toBe(200);
    const { event } = only();
    expect(Object.entries(event.multiValueQueryStringParameters!)).toEqual([
      ['constructor', ['a', 'd']],
      ['__proto__', ['b']],
      ['hasOwnProperty', ['c']],
    ]);
    expect(Object.entries(event.queryStringParameters!)).toEqual([
      ['constructor', 'd'],
      ['__proto__', 'b'],
      ['hasOwnProperty', 'c'],
    ]);
    const headers = Object.entries(event.multiValueHeaders).filter(([k]) => ['constructor', 'valueof'].includes(k.toLowerCase()));
    expect(headers.sort()).toEqual([
      ['constructor', ['x']],
      ['valueOf', ['z']],
    ]);
  });

  it('no query string → both query maps null', async () => {
    await call(app, 'GET', '/v2/entities');
    expect(only().event).toMatchObject({ queryStringParameters: null, multiValueQueryStringParameters: null });
  });

  it("a query name or value that is not percent-encoded UTF-8 → 400 naming the parameter, handler never called (but a page's); valid escapes arrive decoded", async () => {
    for (const [query, name] of [
      ['name=%FF', 'name'],
      ['name=caf%E9', 'name'],
      ['name=%C0%AF', 'name'],
      ['name=%ED%A0%80', 'name'],
      ['type=feature&name=100%', 'name'],
      ['q%zz=1', 'q%zz'],
    ]) {
      expectError(await call(app, 'GET', `/v2/entities?${query}`), 'request.invalid', {
        detail: `Query parameter '${name}' is not valid percent-encoding of UTF-8.`,
        source: { parameter: name },
      });
    }
    expect(seen).toEqual([]);
    expect((await call(app, 'GET', '/v2/entities?name=caf%C3%A9+%E2%82%AC')).status).toBe(200);
    expect(only().event.queryStringParameters).toEqual({ name: 'café €' });
    // A page renders its own errors: its query reaches its function, read as API Gateway reads it.
    seen.length = 0;
    expect((await call(app, 'GET', '/?pageCursor=%FF')).status).toBe(200);
    expect(only()).toMatchObject({ operationId: 'homePage', event: { queryStringParameters: { pageCursor: '\uFFFD' } } });
    // So do the OAuth endpoints, whose refusals are RFC 6749 and RFC 7591 error bodies, never the envelope.
    for (const [path, operationId] of [
      ['/oauth/token', 'oauthToken'],
      ['/oauth2/token', 'issueToken'],
      ['/oauth/revoke', 'revokeToken'],
      ['/oauth/register', 'registerClient'],
    ]) {
      seen.length = 0;
      expect((await call(app, 'POST', `${path}?x=%FF`)).status).toBe(200);
      expect(only()).toMatchObject({ operationId, event: { queryStringParameters: { x: '\uFFFD' } } });
    }
  });

  it('percent-encoded paths reach the handler still encoded, as REST APIs deliver them', async () => {
    await call(app, 'GET', '/v2/entities/abc%20d%2Fef/score');
    const { operationId, event } = only();
    expect(operationId).toBe('getCustomerScore');
    expect(event.path).toBe('/v2/entities/abc%20d%2Fef/score');
    expect(event.pathParameters).toEqual({ id: 'abc%20d%2Fef' });
    expect(event.requestContext).toMatchObject({ resourcePath: '/v2/entities/{id}/score', httpMethod: 'GET', stage: 'local' });
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('literal path segments win over parameters', async () => {
    await call(app, 'GET', '/v2/entities/configurations');
    await call(app, 'GET', '/v2/entities/configurations/feature');
    await call(app, 'GET', '/v2/entities/9b2b6f9e-4a51-4ef4-9d3c-0d7c2b5d1e11');
    expect(seen.map((s) => [s.operationId, s.event.pathParameters])).toEqual([
      ['listEntityConfigurations', null],
      ['getEntityConfiguration', { type: 'feature' }],
      ['getEntity', { id: '9b2b6f9e-4a51-4ef4-9d3c-0d7c2b5d1e11' }],
    ]);
  });

  it('a UTF-8 body arrives as text; a binary body arrives base64-encoded', async () => {
    await call(app, 'POST', '/v2/entities', { body: { data: { name: 'é' } } });
    await call(app, 'POST', '/v2/entities', { body: Buffer.from([0xff, 0x00, 0x7b]), headers: { 'content-type': 'application/json' } });
    await call(app, 'POST', '/v2/entities', { body: Buffer.from('plain'), headers: { 'content-type': 'application/octet-stream' } });
    expect(seen.map((s) => [s.event.body, s.event.isBase64Encoded])).toEqual([
      ['{"data":{"name":"é"}}', false],
      [Buffer.from([0xff, 0x00, 0x7b]).toString('base64'), true],
      [Buffer.from('plain').toString('base64'), true],
    ]);
  });

  it('headers keep their names; repeated headers are all in multiValueHeaders and the last in headers', async () => {
    // fetch folds repeated headers into one line; node:http sends each value on its own line.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${app.url}/v2/notes`, { headers: { 'X-Thing': ['one', 'two'], Authorization: 'Bearer abc' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    const { event } = only();
    const name = Object.keys(event.multiValueHeaders).find((k) => k.toLowerCase() === 'x-thing')!;
    expect(event.multiValueHeaders[name]).toEqual(['one', 'two']);
    expect(event.headers[name]).toBe('two');
    expect(event.headers[Object.keys(event.headers).find((k) => k.toLowerCase() === 'authorization')!]).toBe('Bearer abc');
  });

  it.each([
    ['an unknown path', 'GET', '/v2/nope'],
    ['a trailing slash', 'GET', '/v2/entities/'],
    ['an empty parameter segment', 'GET', '/v2/entities//score'],
  ])('%s → 404 route.notFound, handler never called', async (_name, method, path) => {
    const res = await call(app, method, path);
    expectError(res, 'route.notFound', { detail: 'No route matches this method and path.' });
    expect(seen).toHaveLength(0);
  });

  it.each([
    ['a known path with another method', 'DELETE', '/v2/entities', 'GET, POST, OPTIONS'],
    ['HEAD, which no path takes', 'HEAD', '/v2/entities/abc', 'GET, PATCH, DELETE, OPTIONS'],
    ['the root with another method', 'DELETE', '/', 'GET'],
    ['OPTIONS on a path browser clients may not call', 'OPTIONS', '/oauth2/applications', 'GET, POST'],
    // Where a parameter's path serves a method, the Allow has it: DELETE …/link/{entityId} is …/{targetType}/{targetId}'s.
    ['a literal path with a parameter sibling', 'GET', '/v2/notes/n1/relationships/link/e1', 'PUT, DELETE, OPTIONS'],
  ])('%s → 405 request.methodNotAllowed with Allow, handler never called', async (_name, method, path, allow) => {
    const res = await call(app, method, path);
    expect([res.status, res.headers.get('allow'), res.headers.get('access-control-allow-origin')]).toEqual([405, allow, '*']);
    if (method !== 'HEAD') expectError(res, 'request.methodNotAllowed', { detail: `This path does not take ${method}; it takes ${allow}.` });
    expect(seen).toHaveLength(0);
  });

  it.each([
    ['DELETE', '/v2/notes/n1/relationships/link/e1', 'deleteNoteRelationship', { id: 'n1', targetType: 'link', targetId: 'e1' }],
    ['PUT', '/v2/notes/n1/relationships/link/e1', 'setNoteLink', { id: 'n1', entityId: 'e1' }],
    ['DELETE', '/v2/entities/search', 'deleteEntity', { id: 'search' }],
  ])('%s %s: API Gateway picks the most specific path that has the method → %s', async (method, path, operationId, params) => {
    const res = await call(app, method, path);
    expect(res.status).toBe(200);
    const { event } = only();
    expect([seen[0]!.operationId, event.pathParameters]).toEqual([operationId, params]);
  });

  it("a result over Lambda's 6 MB response limit, its body's escaping counted → the default 5xx in the envelope, as API Gateway answers", async () => {
    // 3 MiB of quotes is 6 MiB once escaped in the response, with the status and headers over the limit.
    const over = await call(app, 'GET', `/v2/entities?quotes=${3 * 1024 * 1024}`);
    expectError(over, 'internal.serverError');
    const under = await call(app, 'GET', `/v2/entities?quotes=${3 * 1024 * 1024 - 1024}`);
    expect([under.status, under.text.length]).toEqual([200, 3 * 1024 * 1024 - 1024]);
  });

  it('a body sent in chunks arrives whole; a request without Content-Length or Transfer-Encoding arrives with none', async () => {
    const { port } = new URL(app.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ port, method: 'POST', path: '/v2/entities', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      for (const part of ['{"data":', '{"type":"product",', '"fields":{"name":"Chunked"}}}']) req.write(part);
      req.end();
    });
    expect(status).toBe(200);
    expect([only().event.headers['Transfer-Encoding'], only().event.body]).toEqual(['chunked', '{"data":{"type":"product","fields":{"name":"Chunked"}}}']);
    seen.length = 0;
    expect((await call(app, 'GET', '/v2/entities')).status).toBe(200);
    expect([only().event.body, only().event.isBase64Encoded]).toEqual([null, false]);
  });

  it('a client that breaks off in the middle of its body: the handler is never called, and the gateway serves the next request', async () => {
    const { port } = new URL(app.url);
    await new Promise<void>((resolve) => {
      const req = request({ port, method: 'POST', path: '/v2/entities', headers: { 'content-type': 'application/json', 'content-length': '100' } });
      req.on('error', () => resolve());
      req.write('{"data":', () => setTimeout(() => req.destroy(), 50));
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toHaveLength(0);
    expect((await call(app, 'GET', '/v2/entities')).status).toBe(200);
    expect(only().operationId).toBe('listEntities');
  });

  it('a body over the 10 MiB payload limit → 413, handler never called', async () => {
    const res = await call(app, 'POST', '/v2/entities', { body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20), headers: { 'content-type': 'application/json' } });
    expectError(res, 'request.tooLarge');
    expect(seen).toHaveLength(0);
  });
});
