import { ERROR_TABLE, MAX_DETAIL, MAX_TITLE, type ErrorCode, type ErrorSource } from './errors.ts';
import { clip } from '../domain/clip.ts';

interface ErrorItem {
  code: ErrorCode;
  title: string;
  detail: string;
  source?: ErrorSource;
}

interface ErrorResponse {
  id: string;
  errors: [ErrorItem, ...ErrorItem[]];
}

/** The service specification's ErrorResponse for one error; detail and title clipped to its limits. */
export function errorEnvelope(requestId: string, code: ErrorCode, detail: string, source?: ErrorSource): ErrorResponse {
  const item: ErrorItem = { code, title: clip(ERROR_TABLE[code].title, MAX_TITLE), detail: clip(detail, MAX_DETAIL) };
  if (source && (source.pointer !== undefined || source.parameter !== undefined)) item.source = source;
  return { id: requestId, errors: [item] };
}

/**
 * The detail of the edge's 405: a path the table has, with a method it does not take (`allow`, as
 * the Allow header lists them; lib/routes.ts allowHeader). Deployed, `method` is the gateway's
 * template variable for the request's method.
 */
export const methodNotAllowedDetail = (method: string, allow: string): string => `This path does not take ${method}; it takes ${allow}.`;

/** Default details for errors raised by the edge (gateway responses, the local gateway). */
export const EDGE_DETAILS = {
  'route.notFound': 'No route matches this method and path.',
  'rate.limitExceeded': 'Too many requests; retry after the time given in Retry-After.',
  'request.timeout': 'The request took too long and was terminated.',
  'internal.serverError': 'The server failed unexpectedly; quote the id when reporting it.',
  'auth.invalid': 'Missing or invalid credentials.',
  'auth.accessDenied': 'The credentials do not permit this operation.',
  'request.invalid': 'The request does not match the schema.',
  'request.tooLarge': 'The request body is too large.',
} as const satisfies Partial<Record<ErrorCode, string>>;
