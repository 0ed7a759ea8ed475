// The spec's status/code/title table, once, as data. Everything else looks codes up here.
export const ERROR_TABLE = {
  'request.invalid': { status: 400, title: 'Request schema invalid' },
  'request.malformed': { status: 400, title: 'Request malformed' },
  'auth.invalid': { status: 401, title: 'Invalid authentication' },
  'auth.accessDenied': { status: 403, title: 'Access denied' },
  'resource.notFound': { status: 404, title: 'Resource not found' },
  'route.notFound': { status: 404, title: 'Route not found' },
  'request.timeout': { status: 408, title: 'Request timeout' },
  // Extension (api-contract.md): creating a note link that already exists.
  'conflict.uniqueViolation': { status: 409, title: 'Conflict' },
  // Extension: a body over the size limit (the spec gives no code for it).
  'request.tooLarge': { status: 413, title: 'Request too large' },
  'rate.limitExceeded': { status: 429, title: 'Rate limit exceeded' },
  'internal.serverError': { status: 500, title: 'Internal server error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_TABLE;

export interface ErrorSource {
  pointer?: string;
  parameter?: string;
}

export const MAX_DETAIL = 1000;
export const MAX_TITLE = 255;

/** A client-visible failure with a stable code; only the envelope middleware renders it. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly source: ErrorSource | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { source?: ErrorSource; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
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

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError;

/** `{ pointer }` for a path into the JSON body, e.g. ['data', 'fields', 'name'] → /data/fields/name (RFC 6901). */
export function pointer(path: ReadonlyArray<string | number>): ErrorSource {
  return { pointer: path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('') };
}
