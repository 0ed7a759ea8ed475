// An operation's declaration: the schemas of its path and query parameters, its body and each
// success response. The handler module passes it to api() (lib/http/pipeline.ts), which validates
// every request with it (lib/http/middleware/validate.ts); the OpenAPI generator
// (lib/http/openapi.ts) reads the same object from the handler module, so what is validated is what
// is documented. A handler's bundle holds only the schemas its own declaration names.
import type * as z from 'zod/mini';
import type { ErrorCode } from './errors.ts';

export type Schema = z.ZodMiniType;

/** The success statuses the routes answer with. */
export type SuccessStatus = 200 | 201 | 204;

export interface Operation {
  /** Path parameters (an object schema keyed by the route's `{names}`), when the path has any. */
  readonly params?: Schema;
  /** Query parameters: an object schema listing every parameter the operation defines; absent = none. */
  readonly query?: Schema;
  /** The JSON body (routes with `body: 'json'`). */
  readonly body?: Schema;
  /** The form body (routes with `body: 'form'`): its handler parses it, so that refusals keep that route's own error format. */
  readonly form?: Schema;
  /** The body of its 400 refusals when that is not the error envelope (the token endpoint answers RFC 6749's). */
  readonly refusal?: Schema;
  /** Each success status with its body's schema; null for no body (204). */
  readonly responses: Readonly<Partial<Record<SuccessStatus, Schema | null>>>;
  /** Error codes the operation answers beyond those its route and declaration imply (lib/http/openapi.ts derives those). */
  readonly errors?: readonly ErrorCode[];
}

type OutputOr<S, Else> = S extends Schema ? z.output<S> : Else;

/** What the validation made of a request: the declared schemas' outputs. */
export interface Input<O extends Operation> {
  params: OutputOr<O['params'], Record<string, never>>;
  query: OutputOr<O['query'], Record<string, never>>;
  body: OutputOr<O['body'], undefined>;
}

/** What a core may answer: one of the declared statuses with a body of its schema. */
export type Result<O extends Operation> = {
  [S in keyof O['responses'] & SuccessStatus]: (O['responses'][S] extends Schema ? { body: z.input<O['responses'][S]> } : { body?: undefined }) & {
    status: S;
    headers?: Record<string, string>;
  };
}[keyof O['responses'] & SuccessStatus];
