// Malformed HTTP against the local gateway over raw sockets (node:net: fetch cannot send any of it).
// Whatever Node's parser refuses, and what it would answer bare (a missing Host, an unknown Expect,
// CONNECT), gets the error envelope with the request id as `id` and in X-Request-Id; the real
// handlers and DynamoDB Local sit behind it, and the gateway keeps serving afterwards.
import { maxHeaderSize } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TABLE, type ErrorCode } from '#lib/http/errors.ts';
import { call, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
let ws: TestWorkspace;
let host: string;
beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace();
  host = new URL(app.url).host;
});
afterAll(() => app.close());

interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** A chunked body, de-chunked (trailers ignored). */
function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) return out;
    const chunk = Buffer.from(rest.slice(eol + 2));
    out += chunk.subarray(0, size).toString('utf8');
    rest = chunk.subarray(size + 2).toString('utf8');
  }
}

/** Writes exactly these bytes and reads everything the server sends until it closes the connection, or 5 s pass. */
function everything(request: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

/**
 * The one response to these bytes, read until the server closes the connection (it does after a
 * refusal; well-formed requests here say Connection: close).
 */
async function raw(request: string | Buffer): Promise<RawResponse> {
  const text = await everything(request);
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
  const body = rest.join('\r\n\r\n');
  return { status: Number(statusLine.split(' ')[1]), headers, body: headers.get('transfer-encoding') === 'chunked' ? dechunk(body) : body };
}

/** The envelope, exactly: status, one error with the code's title, id = X-Request-Id, the connection closed. */
function expectEnvelope(res: RawResponse, code: ErrorCode, detail: string | RegExp) {
  expect(res.status, res.body).toBe(ERROR_TABLE[code].status);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const id = res.headers.get('x-request-id');
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const json = JSON.parse(res.body);
  expect(json).toEqual({ id, errors: [{ code, title: ERROR_TABLE[code].title, detail: expect.any(String) }] });
  expect(json.errors[0].detail).toMatch(detail);
}

const get = (target: string, headers: string[]) => `GET ${target} HTTP/1.1\r\n${[...headers, 'Connection: close'].join('\r\n')}\r\n\r\n`;

describe("what Node's HTTP parser refuses (clientError) → the envelope and a request id", () => {
  it('a CR inside a header value → 400 request.malformed, connection closed', async () => {
    const res = await raw(`GET /v2/entities HTTP/1.1\r\nHost: ${host}\r\nX-Evil: a\rb\r\n\r\n`);
    expectEnvelope(res, 'request.malformed', /^The request is not valid HTTP\/1\.1 \(.+\)\.$/);
    expect(res.headers.get('connection')).toBe('close');
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.body));
  });

  it('a bare LF splitting a header → 400 request.malformed', async () => {
    expectEnvelope(await raw(`GET /v2/entities HTTP/1.1\r\nHost: ${host}\r\nX-Evil: a\nInjected: b\r\n\r\n`), 'request.malformed', /not valid HTTP/);
  });

  it('Content-Length together with Transfer-Encoding (request smuggling) → 400 request.malformed naming it', async () => {
    const res = await raw(
      `POST /v2/entities HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    );
    expectEnvelope(res, 'request.malformed', /Transfer-Encoding can't be present with Content-Length/);
  });

  it('a garbage request line → 400 request.malformed', async () => {
    expectEnvelope(await raw('HELLO THERE\r\n\r\n'), 'request.malformed', /not valid HTTP/);
  });

  it('a malformed chunk size in a POST body → 400 request.malformed, and no 500 from the half-read request', async () => {
    const res = await raw(
      `POST /v2/entities HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${ws.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
    );
    expectEnvelope(res, 'request.malformed', /not valid HTTP/);
  });

  it(`a 16 KiB query string (request line over ${maxHeaderSize} bytes) → 431 request.headersTooLarge`, async () => {
    const res = await raw(get(`/v2/entities?name=${'a'.repeat(16 * 1024)}`, [`Host: ${host}`, `Authorization: Bearer ${ws.token}`]));
    expectEnvelope(
      res,
      'request.headersTooLarge',
      `The request line and headers are larger than ${maxHeaderSize} bytes: shorten the URL (query string) or the headers.`,
    );
  });

  it('a 20 KiB header → 431 request.headersTooLarge', async () => {
    expectEnvelope(await raw(get('/v2/entities', [`Host: ${host}`, `X-Big: ${'b'.repeat(20 * 1024)}`])), 'request.headersTooLarge', /larger than/);
  });
});

describe('many headers', () => {
  it('1 100 small headers (within the size limit) before If-Match: every one is read, so the stale version → 412 and nothing changes', async () => {
    const own = await newWorkspace();
    const created = await call(app, 'POST', '/v2/entities', { token: own.token, body: { data: { type: 'product', fields: { name: 'Kept' } } } });
    const id = created.json.data.id as string;
    const pad = Array.from({ length: 1_100 }, (_, i) => `X-Pad-${i}: b`);
    const body = JSON.stringify({ data: { fields: { name: 'Renamed' } } });
    const res = await raw(
      [
        `PATCH /v2/entities/${id} HTTP/1.1`,
        `Host: ${host}`,
        `Authorization: Bearer ${own.token}`,
        'Content-Type: application/json',
        ...pad,
        'If-Match: "stale"',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
    expect(res.status, res.body).toBe(412);
    expect(JSON.parse(res.body).errors[0].code).toBe('request.preconditionFailed');
    expect((await call(app, 'GET', `/v2/entities/${id}`, { token: own.token })).json.data.fields.name).toBe('Kept');
  });
});

describe('order on one connection', () => {
  it("bytes Node cannot parse after a create's body: the create's 201 first, then the 400 for the bytes", async () => {
    const own = await newWorkspace();
    const name = `Ordered ${Date.now()}`;
    const body = JSON.stringify({ data: { type: 'product', fields: { name } } });
    const text = await everything(
      `POST /v2/entities HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${own.token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}GARBAGE\r\n\r\n`,
    );
    const statuses = [...text.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((m) => Number(m[1]));
    expect(statuses, text).toEqual([201, 400]);
    expect(text.slice(text.lastIndexOf('HTTP/1.1 400'))).toContain('"code":"request.malformed"');
    const listed = await call(app, 'GET', `/v2/entities?type=product&name=${encodeURIComponent(name)}`, { token: own.token });
    expect(listed.json.data).toHaveLength(1);
  });

  it('a request target in absolute form (RFC 9112 §3.2.2) is read as its path', async () => {
    const res = await raw(get(`http://${host}/v2/entities?type=product`, [`Host: ${host}`, `Authorization: Bearer ${ws.token}`]));
    expect(res.status, res.body).toBe(200);
  });
});

describe('what Node would answer bare', () => {
  it('an HTTP/1.1 request without Host → 400 request.malformed', async () => {
    expectEnvelope(await raw('GET /v2/entities HTTP/1.1\r\nConnection: close\r\n\r\n'), 'request.malformed', 'An HTTP/1.1 request needs a Host header.');
  });

  it('an Expect other than 100-continue → 400 request.malformed naming it', async () => {
    const res = await raw(get('/v2/entities', [`Host: ${host}`, 'Expect: teapot']));
    expectEnvelope(res, 'request.malformed', 'The expectation "teapot" cannot be met; only 100-continue is supported.');
  });

  it('CONNECT → 404 route.notFound', async () => {
    expectEnvelope(await raw(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`), 'route.notFound', 'No route matches this method and path.');
  });
});

describe('a GET with a chunked body', () => {
  it('is refused by the pipeline (400 request.malformed), deployed and local alike: the route takes no body', async () => {
    const body = '{"data":{"types":["feature"]}}';
    const res = await raw(
      `GET /v2/entities HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${ws.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    expectEnvelope(res, 'request.malformed', 'GET /v2/entities takes no request body; send the request without one.');
  });

  it('without a body (zero chunks) it is an ordinary GET', async () => {
    const res = await raw(
      `GET /v2/entities HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${ws.token}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`,
    );
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ data: [], links: {} });
  });
});

it('after all of that the gateway still serves well-formed requests', async () => {
  await Promise.all([raw('HELLO\r\n\r\n'), raw(`GET /v2/entities HTTP/1.1\r\nHost: ${host}\r\nX: a\rb\r\n\r\n`)]);
  expect((await call(app, 'GET', '/v2/entities', { token: ws.token })).status).toBe(200);
  expectError(await call(app, 'GET', '/v2/nope', { token: ws.token }), 'route.notFound');
});
