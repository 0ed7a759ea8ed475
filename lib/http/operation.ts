// An operation's declaration: the schemas of its path and query parameters, its body and each
// success response. The handler module passes it to api() (lib/http/pipeline.ts), which validates
// every request with it (lib/http/middleware/validate.ts); the OpenAPI generator
// (lib/http/openapi.ts) reads the same object from the handler module, so what is validated is what
// is documented. A handler's bundle holds only the request schemas its own declaration names: what
// it answers (responses, refusal bodies, callbacks) it names (lib/domain/schemas/responses.ts), and
// only the generator reads those schemas.
import type * as z from 'zod/mini';
import type { ErrorCode } from './errors.ts';
import type { ApiResult } from './request.ts';
import type { BodyOf, ResponseBody } from '../domain/schemas/responses.ts';

export type Schema = z.ZodMiniType;

/** The success statuses the routes answer with (202: the MCP endpoint took notifications only; 303: a page route's redirect, its Location the answer). */
export type SuccessStatus = 200 | 201 | 202 | 204 | 303;

/** Statuses of the refusals whose body is not the envelope (RFC 6749's, or a page). */
export type RefusalStatus = 400 | 401 | 403 | 429;

/** A request the service makes because of an operation (a webhook notification). */
export interface Callback {
  readonly name: string;
  /** Runtime expression of the URL (OpenAPI 3.1 4.8.18), e.g. `{$request.body#/data/fields/notification/url}`. */
  readonly url: string;
  readonly summary: string;
  readonly headers: ReadonlyArray<{ name: string; required: boolean; description: string; pattern?: string }>;
  readonly body: ResponseBody;
  /** What the receiver's answers mean: one it took, and one it refused. */
  readonly answers: Readonly<Record<'2XX' | '4XX', string>>;
}

export interface Operation {
  /** Path parameters (an object schema keyed by the route's `{names}`), when the path has any. */
  readonly params?: Schema;
  /** Query parameters: an object schema listing every parameter the operation defines; absent = none. */
  readonly query?: Schema;
  /** The JSON body (routes with `body: 'json'`). */
  readonly body?: Schema;
  /**
   * The query is read by the core, not by the validation: the authorization endpoint answers a bad
   * request with a page or a redirect (RFC 6749 4.1.2.1), the CORS preflight sees the query of the
   * request it precedes. `query`, when given, then only documents it.
   */
  readonly queryReadByCore?: true;
  /** The form body (routes with `body: 'form'`): its handler parses it, so that refusals keep that route's own error format. */
  readonly form?: Schema;
  /** The body of its refusals when that is not the error envelope (the token endpoints answer RFC 6749's). */
  readonly refusal?: ResponseBody;
  /** The statuses those refusals take; 400 when not given. */
  readonly refusalStatuses?: readonly RefusalStatus[];
  /**
   * Each success status with its body's schema, by name (lib/domain/schemas/responses.ts); null for
   * no body (204, 303). Only the statuses are read at run time.
   */
  readonly responses: Readonly<Partial<Record<SuccessStatus, ResponseBody | null>>>;
  /**
   * The HTML pages it answers (routes with `response: 'html'`), by status, each with what it shows
   * (404: the member pages' one page for whatever the member may not see).
   * A page route's core answers the pages' own result (lib/http/authorization-pages.ts).
   */
  readonly pages?: Readonly<Partial<Record<200 | RefusalStatus | 404, string>>>;
  /** What the service POSTs to a URL the request names (OpenAPI callbacks: webhook notifications). */
  readonly callback?: Callback;
  /**
   * Conditional and retry-safe requests: `idempotencyKey`, a create that takes Idempotency-Key;
   * `ifMatch`, a change that honours If-Match (412 request.preconditionFailed); `etag`, a read whose
   * 200 carries the ETag those take (lib/domain/etag.ts).
   */
  readonly headers?: { readonly idempotencyKey?: true; readonly ifMatch?: true; readonly etag?: true };
  /** Error codes the operation answers beyond those its route and declaration imply (lib/http/openapi.ts derives those). */
  readonly errors?: readonly ErrorCode[];
  /** An operation of ours that Productboard's API has not: the rule it answers, the document's description (and `x-extension`). */
  readonly extension?: string;
}

type OutputOr<S, Else> = S extends Schema ? z.output<S> : Else;

/** What the validation made of a request: the declared schemas' outputs. */
export interface Input<O extends Operation> {
  params: OutputOr<O['params'], Record<string, never>>;
  query: OutputOr<O['query'], Record<string, never>>;
  body: OutputOr<O['body'], undefined>;
}

/** What a core may answer: one of the declared statuses with a body of its schema. */
type Declared<O extends Operation> = {
  [S in keyof O['responses'] & SuccessStatus]: (O['responses'][S] extends ResponseBody ? { body: BodyOf<O['responses'][S]> } : { body?: undefined }) & {
    status: S;
    headers?: Record<string, string>;
  };
}[keyof O['responses'] & SuccessStatus];

/** A page route's core answers its pages' results (status, the page, cookies); every other core, a declared response. */
export type Result<O extends Operation> = O extends { pages: object } ? ApiResult : Declared<O>;
