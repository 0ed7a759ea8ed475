// A small stand-in for API Gateway: turns each HTTP request into the REST API proxy event Lambda
// receives, calls the same handler module the stack deploys, and writes its result back. Unmatched
// routes, oversize bodies and malformed HTTP (whatever Node's parser refuses) are answered here in
// the error envelope with a request id, as the deployed gateway responses answer them.
import { randomUUID } from 'node:crypto';
import { createServer, maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { config, LAMBDA_EXTRA_MS } from '#lib/config.ts';
import { clip } from '#lib/domain/clip.ts';
import { EDGE_CORS_HEADERS } from '#lib/http/cors.ts';
import { EDGE_DETAILS, errorEnvelope, methodNotAllowedDetail } from '#lib/http/envelope.ts';
import { ERROR_TABLE, type ErrorCode, type ErrorSource } from '#lib/http/errors.ts';
import { log } from '#lib/log.ts';
import { matchRoute, refusedWith, refusesInItsOwnTerms, type Route, type RouteMatch } from '#lib/routes.ts';

/** API Gateway's payload limit. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Lambda's limit on a synchronous invocation's response (6 MB): the handler's result as JSON, its
 * body a JSON string inside it, so escaping can double the body's bytes. Over it Lambda fails the
 * invocation and API Gateway answers its default 5xx; the gateway does the same, so a test meets
 * the limit here before a deployment does (lib/http/pagination.ts keeps pages under it).
 */
export const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

/** Whether Lambda would refuse `result`; a body too short to reach the limit, however escaped (6 bytes per UTF-16 unit at most), is not counted. */
function overResponseLimit(result: APIGatewayProxyResult): boolean {
  if (result.body.length * 6 + 64 * 1024 < MAX_RESPONSE_BYTES) return false;
  return Buffer.byteLength(JSON.stringify(result)) > MAX_RESPONSE_BYTES;
}

const PROJECT_ROOT = join(import.meta.dirname, '..');

export type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type HandlerLoader = (route: Route) => Promise<Handler>;
const loaded = new Map<string, Promise<Handler>>();

/** Imports the route's handler module once (the same module the stack bundles). */
export function loadHandler(route: Route): Promise<Handler> {
  let h = loaded.get(route.handler);
  if (!h) {
    h = import(pathToFileURL(join(PROJECT_ROOT, route.handler)).href).then((m: { handler?: Handler }) => {
      if (typeof m.handler !== 'function') throw new Error(`${route.handler} exports no handler`);
      return m.handler;
    });
    loaded.set(route.handler, h);
    h.catch(() => loaded.delete(route.handler));
  }
  return h;
}

/** Query string → API Gateway's two maps (keys and values decoded; the last value wins in the single map). */
export function queryMaps(rawQuery: string) {
  // Null-prototype maps: a parameter named `constructor` or `__proto__` is a key like any other.
  const single = Object.create(null) as Record<string, string>;
  const multi = Object.create(null) as Record<string, string[]>;
  for (const [k, v] of new URLSearchParams(rawQuery)) {
    single[k] = v;
    (multi[k] ??= []).push(v);
  }
  const empty = Object.keys(single).length === 0;
  return { queryStringParameters: empty ? null : single, multiValueQueryStringParameters: empty ? null : multi };
}

/**
 * The first query parameter whose name or value is not valid percent-encoded UTF-8 (`%FF`, `%zz`, a
 * lone `%`), named as sent. URLSearchParams would read it as U+FFFD or as typed, so a client's
 * `name=caf%E9` would silently match nothing and an OAuth `state` come back altered.
 */
export function undecodableQueryParameter(rawQuery: string): string | undefined {
  for (const pair of rawQuery.split('&')) {
    const [name = '', value = ''] = pair.split(/=(.*)/s);
    try {
      decodeURIComponent(name.replaceAll('+', ' '));
      decodeURIComponent(value.replaceAll('+', ' '));
    } catch {
      return name;
    }
  }
  return undefined;
}

/**
 * Headers with their original names (the first spelling of a repeated header names it); the single
 * map keeps the last value, as API Gateway does. `names`: lower-case name → that spelling.
 */
export function headerMaps(rawHeaders: string[]) {
  const single = Object.create(null) as Record<string, string>;
  const multi = Object.create(null) as Record<string, string[]>;
  const names = new Map<string, string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    const lower = name.toLowerCase();
    let existing = names.get(lower);
    if (existing === undefined) names.set(lower, (existing = name));
    (multi[existing] ??= []).push(value);
    single[existing] = value;
  }
  return { headers: single, multiValueHeaders: multi, names };
}

const BINARY_TYPES = /^(application\/octet-stream|image\/|audio\/|video\/|application\/(zip|pdf))/i;

/**
 * A body is passed as text unless it is not UTF-8 or declared binary; then base64, so the function
 * sees its bytes. Deployed, the stack declares no binary media types and API Gateway passes every
 * body as text (docs/operations.md, "What API Gateway changes").
 */
export function encodeBody(bytes: Buffer, contentType: string | undefined): { body: string | null; isBase64Encoded: boolean } {
  if (bytes.length === 0) return { body: null, isBase64Encoded: false };
  const text = bytes.toString('utf8');
  const binary = (contentType && BINARY_TYPES.test(contentType)) || !Buffer.from(text, 'utf8').equals(bytes);
  return binary ? { body: bytes.toString('base64'), isBase64Encoded: true } : { body: text, isBase64Encoded: false };
}

export function buildEvent(
  req: { method: string; url: string; rawHeaders: string[]; body: Buffer; sourceIp?: string },
  route: Route,
  pathParameters: Record<string, string>,
  requestId: string,
): APIGatewayProxyEvent {
  const q = req.url.indexOf('?');
  const rawPath = q === -1 ? req.url : req.url.slice(0, q);
  const rawQuery = q === -1 ? '' : req.url.slice(q + 1);
  const { headers, multiValueHeaders, names } = headerMaps(req.rawHeaders);
  const contentTypeName = names.get('content-type');
  const contentType = contentTypeName === undefined ? undefined : headers[contentTypeName];
  const now = Date.now();
  return {
    resource: route.path,
    path: rawPath,
    httpMethod: req.method,
    headers,
    multiValueHeaders,
    ...queryMaps(rawQuery),
    pathParameters: Object.keys(pathParameters).length ? pathParameters : null,
    stageVariables: null,
    ...encodeBody(req.body, contentType),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: req.method,
      identity: { sourceIp: req.sourceIp ?? '127.0.0.1', userAgent: headers['user-agent'] ?? null } as APIGatewayProxyEvent['requestContext']['identity'],
      path: rawPath,
      stage: 'local',
      requestId,
      requestTimeEpoch: now,
      resourceId: 'local',
      resourcePath: route.path,
    },
  };
}

/** The invocation's context; a class, so a request makes one object rather than one closure per method. */
class LocalContext implements Context {
  readonly callbackWaitsForEmptyEventLoop = false;
  readonly functionName: string;
  readonly functionVersion = '$LATEST';
  readonly invokedFunctionArn: string;
  readonly memoryLimitInMB = '1024';
  readonly awsRequestId: string;
  readonly logGroupName: string;
  readonly logStreamName = 'local';
  readonly #deadline: number;

  constructor(route: Route, requestId: string) {
    this.#deadline = Date.now() + config.requestTimeoutMs + LAMBDA_EXTRA_MS;
    this.functionName = route.operationId;
    this.invokedFunctionArn = `arn:aws:lambda:local:000000000000:function:${route.operationId}`;
    this.awsRequestId = requestId;
    this.logGroupName = `/local/${route.operationId}`;
  }

  getRemainingTimeInMillis(): number {
    return Math.max(0, this.#deadline - Date.now());
  }

  done(): void {}
  fail(): void {}
  succeed(): void {}
}

function sendEnvelope(res: ServerResponse, code: ErrorCode, requestId: string, detail: string, headers: Record<string, string> = {}, source?: ErrorSource) {
  const body = JSON.stringify(errorEnvelope(requestId, code, detail, source));
  res.writeHead(ERROR_TABLE[code].status, {
    'Content-Type': 'application/json',
    'X-Request-Id': requestId,
    'Cache-Control': 'no-store',
    ...EDGE_CORS_HEADERS,
    ...headers,
  });
  res.end(body);
}

const sendEdgeError = (res: ServerResponse, code: keyof typeof EDGE_DETAILS, requestId: string) => sendEnvelope(res, code, requestId, EDGE_DETAILS[code]);

/** The envelope as a whole HTTP/1.1 response, for a socket whose request Node could not parse; the connection closes. */
export function rawEnvelope(code: ErrorCode, detail: string, requestId: string = randomUUID()): string {
  const body = JSON.stringify(errorEnvelope(requestId, code, detail));
  const status = ERROR_TABLE[code].status;
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Cache-Control: no-store',
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

/** What Node's HTTP parser refused (its `clientError`), in the envelope's terms. */
export function clientErrorEnvelope(err: Error & { code?: string; reason?: string }): { code: ErrorCode; detail: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'request.headersTooLarge',
        detail: `The request line and headers are larger than ${maxHeaderSize} bytes: shorten the URL (query string) or the headers.`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request.timeout', detail: 'The request was not received in time.' };
    default:
      return { code: 'request.malformed', detail: `The request is not valid HTTP/1.1${err.reason ? ` (${err.reason})` : ''}.` };
  }
}

/**
 * Node's `clientError`: answered with the envelope where the socket can still take it (what Node
 * would otherwise answer bare). What Node could not parse may follow a request still being handled
 * on the same connection (bytes after its body): that request's answer goes first, in order
 * (RFC 9112 §9.3.2), and the refusal after it.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { code, detail } = clientErrorEnvelope(err);
  const refuse = () => (socket.writable ? socket.end(rawEnvelope(code, detail)) : socket.destroy());
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  // A request whose body was cut short by the bytes is the one refused; one received whole is answered first.
  if (inFlight && !inFlight.writableFinished && inFlight.req.complete) {
    inFlight.once('finish', refuse);
    return;
  }
  refuse();
}

/**
 * Response headers that API Gateway's REST API does not pass on from a Lambda proxy integration
 * under their own name: it sends them as `x-amzn-Remapped-<name>`. WWW-Authenticate is one, so a
 * function's 401 challenge reaches a deployed client renamed; the gateway renames it too, so the
 * tests meet what such a client meets (README, "Errors": the MCP client's discovery by the
 * well-known URL, RFC 9728 section 3, does not depend on it).
 */
const REMAPPED_HEADERS = new Set(['www-authenticate']);

/** A header's name as API Gateway passes it on from a proxy integration. */
const asPassedOn = (name: string): string => (REMAPPED_HEADERS.has(name.toLowerCase()) ? `x-amzn-Remapped-${name}` : name);

function writeResult(res: ServerResponse, result: APIGatewayProxyResult) {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[asPassedOn(k)] = String(v);
  for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) headers[asPassedOn(k)] = v.map(String);
  res.writeHead(result.statusCode, headers);
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

const NO_BODY = Buffer.alloc(0);

/**
 * The body, or why there is none to pass on: over the payload limit, or the client broke off (a
 * malformed chunk: `clientError` answers it). Read from the stream's events: its async iterator
 * costs several microseconds more a request, bodiless ones included.
 */
function readBody(req: IncomingMessage): Promise<Buffer | 'tooLarge' | 'aborted'> | Buffer {
  // Neither header: the request has no body (RFC 9112 §6.3); the stream is drained for the next request on the connection.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    req.resume();
    return NO_BODY;
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: Buffer | 'tooLarge' | 'aborted') => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD_BYTES) {
        // The rest is read and dropped; the 413 closes the connection (handle).
        req.resume();
        return settle('tooLarge');
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    const onError = () => settle('aborted');
    // Closed before its end: the client broke off.
    const onClose = () => settle(req.complete ? Buffer.concat(chunks, size) : 'aborted');
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/**
 * Routes served beside the route table, never deployed (a benchmark's baseline): a request they
 * match gets their handler, behind the route row they name (its auth and scopes).
 */
export type ExtraRoutes = (method: string, rawPath: string) => { match: RouteMatch; handler: Handler } | undefined;

/**
 * The request target as a path and query: the absolute form (`GET http://host/v2/… HTTP/1.1`), which a
 * server must accept (RFC 9112 §3.2.2), is read as its path and query.
 */
function originForm(target: string): string {
  if (!/^https?:\/\//i.test(target)) return target;
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return target;
  }
}

export async function handle(req: IncomingMessage, res: ServerResponse, load: HandlerLoader = loadHandler, extra?: ExtraRoutes): Promise<void> {
  const requestId = randomUUID();
  const method = req.method ?? 'GET';
  const url = originForm(req.url ?? '/');
  const rawPath = url.split('?')[0]!;
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    // Node would answer a bare 400 (its requireHostHeader); API Gateway routes by Host.
    req.resume();
    return sendEnvelope(res, 'request.malformed', requestId, 'An HTTP/1.1 request needs a Host header.');
  }
  const bench = extra?.(method, rawPath);
  const match = bench?.match ?? matchRoute(method, rawPath);
  if (!match) {
    req.resume();
    // A path the table has, with another method: 405 and what it takes, as the stack's ANY methods answer (infra/route-area.ts).
    const allow = refusedWith(method, rawPath);
    if (allow) return sendEnvelope(res, 'request.methodNotAllowed', requestId, methodNotAllowedDetail(method, allow), { Allow: allow });
    return sendEdgeError(res, 'route.notFound', requestId);
  }
  // A page, or an OAuth endpoint, answers its errors in its own terms, which only its function
  // renders: its query is read leniently, as API Gateway reads it.
  const undecodable = refusesInItsOwnTerms(match.route) ? undefined : undecodableQueryParameter(url.slice(rawPath.length + 1));
  if (undecodable !== undefined) {
    req.resume();
    const name = clip(undecodable);
    return sendEnvelope(res, 'request.invalid', requestId, `Query parameter '${name}' is not valid percent-encoding of UTF-8.`, {}, { parameter: name });
  }
  const body = await readBody(req);
  if (body === 'aborted') return;
  if (body === 'tooLarge') {
    res.setHeader('Connection', 'close');
    return sendEdgeError(res, 'request.tooLarge', requestId);
  }
  const event = buildEvent({ method, url, rawHeaders: req.rawHeaders, body, sourceIp: req.socket.remoteAddress }, match.route, match.params, requestId);
  try {
    const handler = bench?.handler ?? (await load(match.route));
    const result = await handler(event, new LocalContext(match.route, requestId));
    if (overResponseLimit(result)) {
      log.error('response over the Lambda limit', { requestId, operationId: match.route.operationId, limit: MAX_RESPONSE_BYTES });
      return sendEdgeError(res, 'internal.serverError', requestId);
    }
    writeResult(res, result);
  } catch (err) {
    // What API Gateway answers when the integration fails: the default 5xx response.
    log.error('handler failed outside its pipeline', { requestId, operationId: match.route.operationId, error: err });
    sendEdgeError(res, 'internal.serverError', requestId);
  }
}

/** The local gateway; tests may pass their own loader to observe the events it builds, benchmarks extra routes. */
export function createGateway(options: { loadHandler?: HandlerLoader; extraRoutes?: ExtraRoutes } = {}): Server {
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    handle(req, res, options.loadHandler, options.extraRoutes).catch((err) => {
      log.error('gateway failure', { error: err });
      if (!res.headersSent) sendEdgeError(res, 'internal.serverError', randomUUID());
      else res.destroy();
    });
  });
  // Node's default maxHeadersCount keeps about the first thousand headers and drops the rest without a word: an
  // If-Match or Idempotency-Key after them would go unseen. Their total stays bounded by maxHeaderSize (431).
  server.maxHeadersCount = 0;
  server.on('clientError', answerClientError);
  // An Expect other than 100-continue, which Node would answer with a bare 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    sendEnvelope(
      res,
      'request.malformed',
      randomUUID(),
      `The expectation ${JSON.stringify(String(req.headers.expect).slice(0, 100))} cannot be met; only 100-continue is supported.`,
    );
  });
  // CONNECT (a proxy tunnel) names no route; without this Node would close the socket silently.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(rawEnvelope('route.notFound', EDGE_DETAILS['route.notFound']));
  });
  return server;
}
