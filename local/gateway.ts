// A small stand-in for API Gateway: turns each HTTP request into the REST API proxy event Lambda
// receives, calls the same handler module the stack deploys, and writes its result back. Unmatched
// routes and oversize bodies are answered here, as the deployed gateway responses answer them.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { config, LAMBDA_EXTRA_MS } from '#lib/config.ts';
import { EDGE_DETAILS, errorEnvelope } from '#lib/http/envelope.ts';
import type { ErrorCode } from '#lib/http/errors.ts';
import { log } from '#lib/log.ts';
import { matchRoute, type Route } from '#lib/routes.ts';

/** API Gateway's payload limit. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

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
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(rawQuery)) {
    single[k] = v;
    (multi[k] ??= []).push(v);
  }
  const empty = Object.keys(single).length === 0;
  return { queryStringParameters: empty ? null : single, multiValueQueryStringParameters: empty ? null : multi };
}

/** Headers with their original names; the single map keeps the last value, as API Gateway does. */
export function headerMaps(rawHeaders: string[]) {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    const existing = Object.keys(multi).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
    (multi[existing] ??= []).push(value);
    single[existing] = value;
  }
  return { headers: single, multiValueHeaders: multi };
}

const BINARY_TYPES = /^(application\/octet-stream|image\/|audio\/|video\/|application\/(zip|pdf))/i;

/** A body is passed as text unless it is not UTF-8 or declared binary; then base64, as API Gateway does. */
export function encodeBody(bytes: Buffer, contentType: string | undefined): { body: string | null; isBase64Encoded: boolean } {
  if (bytes.length === 0) return { body: null, isBase64Encoded: false };
  const text = bytes.toString('utf8');
  const binary = (contentType && BINARY_TYPES.test(contentType)) || !Buffer.from(text, 'utf8').equals(bytes);
  return binary ? { body: bytes.toString('base64'), isBase64Encoded: true } : { body: text, isBase64Encoded: false };
}

export function buildEvent(req: { method: string; url: string; rawHeaders: string[]; body: Buffer; sourceIp?: string }, route: Route, pathParameters: Record<string, string>, requestId: string): APIGatewayProxyEvent {
  const q = req.url.indexOf('?');
  const rawPath = q === -1 ? req.url : req.url.slice(0, q);
  const rawQuery = q === -1 ? '' : req.url.slice(q + 1);
  const { headers, multiValueHeaders } = headerMaps(req.rawHeaders);
  const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
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

function lambdaContext(route: Route, requestId: string): Context {
  const deadline = Date.now() + config.requestTimeoutMs + LAMBDA_EXTRA_MS;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: route.operationId,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${route.operationId}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/local/${route.operationId}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function sendEnvelope(res: ServerResponse, code: ErrorCode & keyof typeof EDGE_DETAILS, status: number, requestId: string) {
  const body = JSON.stringify(errorEnvelope(requestId, code, EDGE_DETAILS[code]));
  res.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-Id': requestId, 'Cache-Control': 'no-store' });
  res.end(body);
}

function writeResult(res: ServerResponse, result: APIGatewayProxyResult) {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) headers[k] = v.map(String);
  res.writeHead(result.statusCode, headers);
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'tooLarge'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) return 'tooLarge';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function handle(req: IncomingMessage, res: ServerResponse, load: HandlerLoader = loadHandler): Promise<void> {
  const requestId = randomUUID();
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const rawPath = url.split('?')[0]!;
  const match = matchRoute(method, rawPath);
  if (!match) {
    req.resume();
    return sendEnvelope(res, 'route.notFound', 404, requestId);
  }
  const body = await readBody(req);
  if (body === 'tooLarge') {
    res.setHeader('Connection', 'close');
    return sendEnvelope(res, 'request.tooLarge', 413, requestId);
  }
  const event = buildEvent({ method, url, rawHeaders: req.rawHeaders, body, sourceIp: req.socket.remoteAddress }, match.route, match.params, requestId);
  try {
    const handler = await load(match.route);
    writeResult(res, await handler(event, lambdaContext(match.route, requestId)));
  } catch (err) {
    // What API Gateway answers when the integration fails: the default 5xx response.
    log.error('handler failed outside its pipeline', { requestId, operationId: match.route.operationId, error: err });
    sendEnvelope(res, 'internal.serverError', 500, requestId);
  }
}

/** The local gateway; tests may pass their own loader to observe the events it builds. */
export function createGateway(options: { loadHandler?: HandlerLoader } = {}): Server {
  return createServer((req, res) => {
    handle(req, res, options.loadHandler).catch((err) => {
      log.error('gateway failure', { error: err });
      if (!res.headersSent) sendEnvelope(res, 'internal.serverError', 500, randomUUID());
      else res.destroy();
    });
  });
}
