// The service specification's status/code/title table, once, as data. Everything else looks
// codes up here. ApiError is the HTTP layer's own refusal; lib/http/error-map.ts turns the other
// layers' typed errors into it.
import type { InputLocation } from '../domain/errors.ts';
import type { ErrorCode } from '../domain/schemas/errors.ts';

export type { ErrorCode } from '../domain/schemas/errors.ts';
export { MAX_DETAIL, MAX_TITLE } from '../domain/schemas/errors.ts';

export const ERROR_TABLE = {
  'request.invalid': { status: 400, title: 'Request schema invalid' },
  'request.malformed': { status: 400, title: 'Request malformed' },
  'auth.invalid': { status: 401, title: 'Invalid authentication' },
  'auth.accessDenied': { status: 403, title: 'Access denied' },
  'resource.notFound': { status: 404, title: 'Resource not found' },
  'route.notFound': { status: 404, title: 'Route not found' },
  // Extension: a method the path does not take (RFC 9110 15.5.6; the answer says which in Allow).
  'request.methodNotAllowed': { status: 405, title: 'Method not allowed' },
  'request.timeout': { status: 408, title: 'Request timeout' },
  // Extension: the resource changed since the version If-Match names (RFC 9110 13.1.1).
  'request.preconditionFailed': { status: 412, title: 'Precondition failed' },
  // Extension (the specification has no conflict code): creating what exists already; Productboard's title.
  'conflict.uniqueViolation': { status: 409, title: 'Unique constraint violation' },
  // Extension: a body over the size limit (the specification gives no code for it).
  'request.tooLarge': { status: 413, title: 'Request too large' },
  'rate.limitExceeded': { status: 429, title: 'Rate limit exceeded' },
  // Extension: a request line (URL) and headers larger than the server reads (RFC 6585's 431).
  'request.headersTooLarge': { status: 431, title: 'Request header fields too large' },
  'internal.serverError': { status: 500, title: 'Internal server error' },
} as const satisfies Record<ErrorCode, { status: number; title: string }>;

/** The envelope's `source`: a JSON pointer into the body or a parameter name. */
export type ErrorSource = InputLocation;

/** A client-visible failure in the envelope's terms: code, detail, source and extra headers. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly source: ErrorSource | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, detail: string, options: { source?: ErrorSource; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_TABLE[code].status;
    this.title = ERROR_TABLE[code].title;
    this.detail = detail;
    this.source = options.source;
    this.headers = options.headers;
  }
}
