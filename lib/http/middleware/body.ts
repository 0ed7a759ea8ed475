// The request body, checked before anything reads it: no content coding the service would have to
// undo, UTF-8 text only (decoded strictly: a byte sequence that is not UTF-8 is refused, never
// replaced), a JSON body sent as application/json and no other charset, within the size limit; a route
// that takes no body refuses one. Form bodies are decoded the same way and left to their handler; the
// token endpoints' refusals are OAuth errors (RFC 6749), never the envelope, and the pages' are pages.
import { isUtf8 as isUtf8Bytes } from 'node:buffer';
import { OAuthError } from '../../auth/oauth-errors.ts';
import { clip } from '../../domain/clip.ts';
import { lostInParsing } from '../../domain/input.ts';
import { PREFLIGHT_PATH, type Route } from '../../routes.ts';
import { ApiError } from '../errors.ts';
import { repeatedHeader, type ApiMiddleware, type ApiRequest } from '../request.ts';

/** JSON bodies above this are refused before parsing (DynamoDB items are ≤ 400 KB anyway). */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

/** A media type's essence (lower-case) and its parameters (names lower-case, quotes removed). */
function parseMediaType(contentType: string): { type: string; params: Map<string, string> } {
  const [type, ...rest] = contentType.split(';');
  const params = new Map<string, string>();
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq === -1) continue;
    params.set(
      p.slice(0, eq).trim().toLowerCase(),
      p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    );
  }
  return { type: type!.trim().toLowerCase(), params };
}

/**
 * `application/json` only: another JSON type names other semantics (application/merge-patch+json is
 * RFC 7396's merge, which PATCH here is not), and the specification asks for application/json.
 */
function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && parseMediaType(contentType).type === 'application/json';
}

const isUtf8 = (charset: string) => /^utf-?8$/i.test(charset);

/** Why a body cannot be read; the caller renders it as its route's refusal. */
class BodyRefused extends Error {
  constructor(
    readonly reason: string,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'BodyRefused';
  }
}

/** A UTF-16 code unit with no partner: text no UTF-8 byte sequence can encode. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * The body's text. A body delivered base64-encoded (local/gateway.ts does so for one that is not UTF-8)
 * is decoded strictly here, so invalid bytes are refused rather than replaced by U+FFFD.
 */
function decodeBody(body: string | null, isBase64Encoded: boolean): string {
  if (body === null) return '';
  if (!isBase64Encoded) {
    if (LONE_SURROGATE.test(body)) throw new BodyRefused('body not UTF-8', 'The request body is not valid UTF-8 text.');
    return body;
  }
  // A native check of the bytes, not a strict TextDecoder built at import for the rare base64 body.
  const bytes = Buffer.from(body, 'base64');
  if (!isUtf8Bytes(bytes)) throw new BodyRefused('body not UTF-8', 'The request body is not valid UTF-8 text.');
  return bytes.toString('utf8');
}

/** The body's size in bytes as the client sent it. */
const byteLength = (body: string | null, isBase64Encoded: boolean) =>
  body === null ? 0 : isBase64Encoded ? Buffer.from(body, 'base64').length : Buffer.byteLength(body);

/** Refuses any content coding but `identity`: the service decodes none (a compressed body is not read as if it were plain). */
function checkContentEncoding(value: string | undefined): void {
  if (value === undefined) return;
  const codings = value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean);
  if (codings.every((c) => c === 'identity')) return;
  throw new BodyRefused(
    'content encoding',
    `The request body has Content-Encoding ${JSON.stringify(value.slice(0, 100))}; the service decodes no content coding: send the body uncompressed, without Content-Encoding.`,
  );
}

function checkJsonContentType(contentType: string | undefined): void {
  if (!isJsonMediaType(contentType)) {
    throw new BodyRefused('content type', `Content-Type must be application/json (got ${JSON.stringify(contentType ?? 'none')}).`);
  }
  const charset = parseMediaType(contentType!).params.get('charset');
  if (charset !== undefined && !isUtf8(charset)) {
    throw new BodyRefused('charset', `The request body must be UTF-8; Content-Type declares charset=${JSON.stringify(charset.slice(0, 50))}.`);
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw new BodyRefused('empty', 'The request body is empty; a JSON document is required.');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new BodyRefused('not JSON', `The request body is not valid JSON: ${(err as Error).message}.`);
  }
}

/** The Content-Type as sent; one sent more than once declares no one type. */
function contentType(api: ApiRequest): string | undefined {
  const repeated = repeatedHeader(api, 'content-type');
  if (repeated) throw new BodyRefused('content type', repeated);
  return api.headers.get('content-type');
}

/** Reads the body of a route that takes one into `api.body` (JSON) or `api.rawBody` (form). */
function readBody(route: Route, api: ApiRequest): void {
  const { body, isBase64Encoded } = api.event;
  checkContentEncoding(api.headers.get('content-encoding'));
  if (route.body === 'form') {
    contentType(api);
    api.rawBody = decodeBody(body, isBase64Encoded);
    return;
  }
  api.body = jsonBody(api);
}

/**
 * Bodies already parsed by peekJsonBody, so a route with a prefetch parses its body once (the body
 * middleware takes the same text with the same headers; a refusal is not kept: it is taken again).
 */
const parsed = new WeakMap<ApiRequest, { value: unknown }>();

/** The JSON body, or the refusal of a body that is not one within the limit. */
function jsonBody(api: ApiRequest): unknown {
  const done = parsed.get(api);
  if (done) return done.value;
  const { body, isBase64Encoded } = api.event;
  checkJsonContentType(contentType(api));
  if (byteLength(body, isBase64Encoded) > MAX_JSON_BODY_BYTES) {
    throw new ApiError('request.tooLarge', `The request body is larger than ${MAX_JSON_BODY_BYTES} bytes.`);
  }
  const text = decodeBody(body, isBase64Encoded);
  const value = parseJson(text);
  const lost = lostInParsing(text);
  if (lost) throw lost;
  parsed.set(api, { value });
  return value;
}

/**
 * The JSON body as this middleware will read it, or undefined where it will refuse it — for what
 * runs before it (lib/http/prefetch.ts), which must never answer for the body: refusals stay here.
 */
export function peekJsonBody(api: ApiRequest): unknown {
  try {
    checkContentEncoding(api.headers.get('content-encoding'));
    return jsonBody(api);
  } catch {
    return undefined;
  }
}

/**
 * A body refusal in the route's terms: RFC 6749's invalid_request on the token endpoints' forms
 * (OAuthError renders it as the JWT bearer grant's TokenError would, and JSON routes' bundles then
 * carry no TokenError); elsewhere the API's error, which a page's shell renders as its error page.
 */
function refusal(route: Route, err: BodyRefused): Error {
  return route.body === 'form' && route.response !== 'html'
    ? new OAuthError('invalid_request', err.detail, err.reason)
    : new ApiError('request.malformed', err.detail);
}

/** Checks and parses the request body for callers who may call the route. */
export function body(route: Route): ApiMiddleware {
  return {
    before: (request) => {
      const api = request.context.api;
      if (!route.body) {
        // Nothing a client sends is silently ignored: a body where the route takes none (a GET with
        // a chunked body, a DELETE with JSON) is refused, whatever the gateway passed on.
        if (!api.event.body) return;
        // The preflight's row serves every path (`*`): it names the one sent to.
        const path = route.path === PREFLIGHT_PATH ? clip(api.event.path, 100) : route.path;
        throw new ApiError('request.malformed', `${route.method} ${path} takes no request body; send the request without one.`);
      }
      try {
        readBody(route, api);
      } catch (err) {
        throw err instanceof BodyRefused ? refusal(route, err) : err;
      }
    },
  };
}
