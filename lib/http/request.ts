import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Principal } from '../auth/principal.ts';
import { InvalidInput } from '../domain/errors.ts';
import { acceptedVersions } from '../domain/etag.ts';
import { IDEMPOTENCY_HEADER, idempotencyKey, requestFingerprint, targetFingerprint } from '../domain/idempotency.ts';
import type { Route } from '../routes.ts';
import type { Claim } from '../store/idempotency.ts';
import type { ReadAhead } from '../store/preread.ts';

/** Query parameters as API Gateway delivers them (already percent-decoded), repeated keys kept. */
export class Query {
  private readonly values: Map<string, string[]>;

  constructor(event: Pick<APIGatewayProxyEvent, 'queryStringParameters' | 'multiValueQueryStringParameters'>) {
    this.values = new Map();
    const multi = event.multiValueQueryStringParameters ?? {};
    for (const [k, v] of Object.entries(multi)) if (v) this.values.set(k, [...v]);
    for (const [k, v] of Object.entries(event.queryStringParameters ?? {})) {
      if (v !== undefined && !this.values.has(k)) this.values.set(k, [v]);
    }
  }

  /** The last value of a parameter (API Gateway's single-value rule), or undefined. */
  get(name: string): string | undefined {
    return this.values.get(name)?.at(-1);
  }

  all(name: string): string[] {
    return this.values.get(name) ?? [];
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  names(): string[] {
    return [...this.values.keys()];
  }

  /** All pairs in order of first appearance, for rebuilding a URL (links.next). */
  entries(): Array<[string, string]> {
    return [...this.values].flatMap(([k, vs]) => vs.map((v): [string, string] => [k, v]));
  }
}

/**
 * The headers that carry one value, never a list (RFC 9110 §5.3: only a list header may be sent as
 * several fields): Authorization (§11.6.2), Content-Type (§8.3) and Idempotency-Key (an Item in its
 * draft). Sent more than once, each is refused by what reads it, with this advice. A list header
 * (If-Match, Content-Encoding, Accept) may be split over several fields; those are joined.
 */
const SINGLE_VALUED = {
  authorization: { name: 'Authorization', advice: 'send one "Bearer <token>"' },
  'content-type': { name: 'Content-Type', advice: 'send it once' },
  'idempotency-key': { name: IDEMPOTENCY_HEADER, advice: 'send it once' },
} as const;

export type SingleValuedHeader = keyof typeof SINGLE_VALUED;

/**
 * Headers looked up case-insensitively (lower-case names), repeated fields joined as HTTP does, and
 * the single-valued headers that came as several fields, with how many: told apart by the fields
 * the gateway delivers (`multiValueHeaders`), so a comma inside one value is never read as two.
 */
export function headerMap(event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>): {
  headers: Map<string, string>;
  repeated: Map<SingleValuedHeader, number>;
} {
  const headers = new Map<string, string>();
  const repeated = new Map<SingleValuedHeader, number>();
  for (const [k, v] of Object.entries(event.multiValueHeaders ?? {})) {
    if (!v?.length) continue;
    const name = k.toLowerCase();
    const before = headers.get(name);
    headers.set(name, before === undefined ? v.join(', ') : `${before}, ${v.join(', ')}`);
    if (!Object.hasOwn(SINGLE_VALUED, name)) continue;
    // Fields of one name may come under several spellings of it (API Gateway keeps each as sent).
    const copies = (before === undefined ? 0 : (repeated.get(name as SingleValuedHeader) ?? 1)) + v.length;
    if (copies > 1) repeated.set(name as SingleValuedHeader, copies);
  }
  for (const [k, v] of Object.entries(event.headers ?? {})) {
    if (v !== undefined && !headers.has(k.toLowerCase())) headers.set(k.toLowerCase(), v);
  }
  return { headers, repeated };
}

/** Why the request's single-valued header `name` cannot be read (it came as several fields), or undefined when it can. */
export function repeatedHeader(req: Pick<ApiRequest, 'repeatedHeaders'>, name: SingleValuedHeader): string | undefined {
  const copies = req.repeatedHeaders.get(name);
  if (copies === undefined) return undefined;
  const { name: spelled, advice } = SINGLE_VALUED[name];
  return `The ${spelled} header was sent ${copies} times; ${advice}.`;
}

/** What a handler core receives: everything the pipeline established about the request. */
export interface ApiRequest {
  event: APIGatewayProxyEvent;
  context: Context;
  route: Route;
  requestId: string;
  /** Path parameters, percent-decoded (one that is not valid percent-encoding as sent: `undecodableParam` names it). */
  params: Record<string, string>;
  undecodableParam?: string | undefined;
  query: Query;
  headers: Map<string, string>;
  /** The single-valued headers sent as several fields, with how many (headerMap); repeatedHeader() words their refusal. */
  repeatedHeaders: Map<SingleValuedHeader, number>;
  /** Set by the auth middleware on every route whose auth is not 'none'. */
  principal: Principal | undefined;
  /** The items the route prefetches (lib/http/prefetch.ts), read with the credential (lib/store/preread.ts). */
  preread: ReadAhead | undefined;
  /** The parsed JSON body on routes with `body: 'json'`. */
  body: unknown;
  /** The decoded body text on routes with `body: 'form'` (their handler parses it). */
  rawBody: string | undefined;
  /** The declared schemas' outputs (lib/http/middleware/validate.ts); the core receives them typed. */
  input: { params: unknown; query: unknown; body: unknown };
  /** The function's logger (lib/log.ts), which carries this request's keys until the invocation ends. */
  log: Logger;
  /** Headers every response of this request carries (rate-limit counters, ...). */
  responseHeaders: Record<string, string>;
  /** Set by the pipeline; with `claim`, what the handler passes to the store's writes (a WriteScope, lib/store/idempotency.ts). */
  deadline?: number;
  /** The Idempotency-Key's claim, on a route that takes one and a request that sent one. */
  claim?: Claim | undefined;
}

export interface ApiResult {
  status: number;
  /** JSON-serialised; on routes whose response is `html`, the page itself (a string). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Set-Cookie values (the pages' session cookies): one header each. */
  cookies?: string[];
}

export type ApiResponse = APIGatewayProxyResult;

/** The Lambda context as our middlewares see it: lib/http/middleware/frame.ts adds `api`. */
export type ApiContext = Context & { api: ApiRequest };

/** A middleware of the pipeline (lib/http/pipeline.ts). */
export type ApiMiddleware = MiddlewareObj<APIGatewayProxyEvent, ApiResponse, Error, ApiContext>;

/**
 * The request id of a Middy request, also when the frame never set one up (a malformed event):
 * then the gateway's id, else Lambda's own, so every part of one error response agrees.
 */
export function requestIdOf(request: Request<APIGatewayProxyEvent, ApiResponse, Error, ApiContext>): string {
  const api = request.context.api as ApiRequest | undefined;
  return api?.requestId ?? (request.event.requestContext?.requestId || request.context.awsRequestId);
}

/** The claim of a POST the client made retry-safe with an Idempotency-Key (lib/store/idempotency.ts), or undefined without one. */
export function idempotencyClaim(req: ApiRequest): Claim | undefined {
  const key = idempotencyKey(idempotencyHeader(req));
  if (key === undefined) return undefined;
  const p = principalOf(req);
  const op = req.route.operationId;
  return {
    ws: p.workspaceId,
    scope: claimScope(p.memberId, op),
    key,
    fingerprint: requestFingerprint(op, req.params, req.body),
    target: targetFingerprint(op, req.params),
  };
}

/** The Idempotency-Key as sent; one sent more than once is refused. */
export function idempotencyHeader(req: Pick<ApiRequest, 'headers' | 'repeatedHeaders'>): string | undefined {
  const repeated = repeatedHeader(req, 'idempotency-key');
  if (repeated) throw new InvalidInput(repeated, { parameter: IDEMPOTENCY_HEADER });
  return req.headers.get(IDEMPOTENCY_HEADER.toLowerCase());
}

/** Whose key and for what: a key names a request of one member on one operation. */
export const claimScope = (memberId: string, operationId: string) => `${memberId}/${operationId}`;

/** The versions the request's If-Match accepts (lib/domain/etag.ts), or undefined for any. */
export const ifMatchOf = (req: ApiRequest): string[] | undefined => acceptedVersions(req.headers.get('if-match') ?? undefined);

/** The principal of an authenticated route (the pipeline guarantees it there). */
export function principalOf(req: ApiRequest): Principal {
  if (!req.principal) throw new Error(`Route ${req.route.operationId} has no principal`);
  return req.principal;
}
