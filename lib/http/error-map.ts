// The one mapping from the typed errors of the layers below (lib/domain/errors.ts,
// lib/store/errors.ts, lib/auth/errors.ts) to the error envelope. The switch on `code` is
// exhaustive: an error class added below and not mapped here fails the type check.
import { EDGE_DETAILS, errorEnvelope } from './envelope.ts';
import { ApiError } from './errors.ts';
import type { PageShell } from './pages/page-shell.ts';
import { isAuthError, type AuthError } from '../auth/errors.ts';
import { counted } from '../domain/counted.ts';
import { isDomainError, type DomainError } from '../domain/errors.ts';
import { isStoreError, type StoreError } from '../store/errors.ts';

type TypedError = DomainError | StoreError | AuthError;

function unmapped(err: never): never {
  throw new Error(`No envelope mapping for ${String((err as { code?: unknown }).code)}`);
}

/** A typed error in the envelope's terms. */
function toApiError(err: TypedError): ApiError {
  const cause = { cause: err };
  switch (err.code) {
    case 'ERR_INVALID_INPUT':
      return new ApiError('request.invalid', err.detail, { source: err.location, ...cause });
    case 'ERR_NOT_FOUND':
      return new ApiError('resource.notFound', err.detail, { source: err.location, ...cause });
    case 'ERR_PRECONDITION_FAILED':
      return new ApiError('request.preconditionFailed', err.detail, { source: { parameter: 'If-Match' }, ...cause });
    case 'ERR_CONFLICT':
      return new ApiError('conflict.uniqueViolation', err.detail, { source: err.location, ...cause });
    case 'ERR_UNAUTHENTICATED':
      return new ApiError('auth.invalid', err.detail, { headers: { 'WWW-Authenticate': 'Bearer' }, ...cause });
    case 'ERR_ACCESS_DENIED':
      return new ApiError('auth.accessDenied', err.detail, cause);
    case 'ERR_TOKEN_ISSUE_REFUSED':
      return new ApiError('request.invalid', err.detail, cause);
    case 'ERR_WORKSPACE_NOT_FOUND':
      return new ApiError('resource.notFound', err.message, cause);
    case 'ERR_EMAIL_TAKEN':
    case 'ERR_NAME_TAKEN':
    case 'ERR_DUPLICATE_KEY':
      return new ApiError('conflict.uniqueViolation', err.message, cause);
    case 'ERR_KEY_LIMIT_REACHED':
    case 'ERR_WEBHOOK_LIMIT_REACHED':
    case 'ERR_RECORD_FULL':
      return new ApiError('request.invalid', err.message, cause);
    case 'ERR_CONTENTION':
      // Nothing was written and a later retry will likely pass: the client's cue to back off.
      return new ApiError(
        'rate.limitExceeded',
        `Too many concurrent changes to ${err.resource}; nothing was changed. Retry after ${counted(err.retryAfterS, 'second')}.`,
        { headers: { 'Retry-After': String(err.retryAfterS) }, ...cause },
      );
    case 'ERR_UNFINISHED':
      // The first step was written and the rest is recorded: it finishes without the client.
      return new ApiError('request.timeout', err.detail, cause);
    case 'ERR_ALREADY_USED':
    case 'ERR_GRANT_REVOKED':
      // The token endpoint turns these into invalid_grant; one reaching here is a fault.
      return new ApiError('internal.serverError', EDGE_DETAILS['internal.serverError'], cause);
    default:
      return unmapped(err);
  }
}

/** Any error in the envelope's terms, or undefined when it is none of ours (a fault: 500). */
export function apiErrorOf(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (isDomainError(err) || isStoreError(err) || isAuthError(err)) return toApiError(err);
  return undefined;
}

/** What a client receives for an error. */
export interface ErrorReply {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * An error that renders its own reply: the token endpoints' TokenError (lib/auth/token-errors.ts) and
 * OAuthError (lib/auth/oauth-errors.ts). Recognised by shape, not class, so a function whose code
 * throws neither carries neither.
 */
interface RendersItself {
  render(): ErrorReply;
}

export const rendersItself = (err: unknown): err is Error & RendersItself =>
  err instanceof Error && typeof (err as Partial<RendersItself>).render === 'function';

/**
 * The reply to any error. The token endpoints' TokenError and OAuthError render themselves (the
 * RFC 6749 body); a page route's errors are its shell's error page; everything else is the
 * envelope, and an error that is none of ours is a 500 that says nothing internal.
 */
export function errorReply(err: unknown, requestId: string, page?: PageShell): ErrorReply {
  if (rendersItself(err)) return err.render();
  if (page) return page.errorReply(err, requestId);
  const api = apiErrorOf(err) ?? new ApiError('internal.serverError', EDGE_DETAILS['internal.serverError']);
  return { statusCode: api.status, headers: api.headers ?? {}, body: errorEnvelope(requestId, api.code, api.detail, api.source) };
}
