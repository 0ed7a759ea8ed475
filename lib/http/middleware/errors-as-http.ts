// onError, just before @middy/http-error-handler: whatever the request failed with becomes the
// error that middleware renders — statusCode, expose and, as its message, the body
// lib/http/error-map.ts gives it (the envelope, or the token endpoint's OAuth body) — and the
// failure gets one log line.
import { OAuthError } from '../../auth/oauth-errors.ts';
import { log } from '../../log.ts';
import { apiErrorOf, errorReply, rendersItself } from '../error-map.ts';
import { PageError } from '../pages/page-error.ts';
import type { PageShell } from '../pages/page-shell.ts';
import { requestIdOf, type ApiMiddleware, type ApiRequest } from '../request.ts';

/** An error in @middy/http-error-handler's terms, always exposed: its body never says anything internal. */
class HttpError extends Error {
  readonly expose = true;

  constructor(
    readonly statusCode: number,
    body: unknown,
    readonly headers: Record<string, string>,
    cause: unknown,
  ) {
    // A page (a string) is its own body; anything else is JSON.
    super(typeof body === 'string' ? body : JSON.stringify(body), { cause });
    this.name = 'HttpError';
  }
}

/** One line per failed request; the token endpoints log their own refusals (with the failed check). */
function logFailure(err: unknown): void {
  if (rendersItself(err)) return;
  if (err instanceof PageError) return log.info('page refused', { status: err.status, title: err.title });
  const known = apiErrorOf(err);
  // None of ours is our fault: the cause goes to the log, never to the client.
  if (!known) log.error('unexpected error', { error: err });
  else if (known.status >= 500) log.error('request failed', { code: known.code, error: err });
  // Out of time because of what it waited for (a call the table did not answer, a write left to the sweeper): the operator's to see.
  else if (known.status === 408 && known.cause !== undefined) log.warn('request timed out', { code: known.code, error: known.cause });
  else log.info('request rejected', { code: known.code, status: known.status });
}

/**
 * A refusal of the request's content, before or in the handler, as an OAuth error on the routes
 * that answer so (RFC 7591 §3.2.2: metadata that breaks the rules is invalid_client_metadata; a
 * body that is not JSON at all, RFC 6749's invalid_request).
 */
function asOAuthRefusal(err: unknown): unknown {
  const known = apiErrorOf(err);
  if (known?.code === 'request.malformed') return new OAuthError('invalid_request', known.detail);
  if (known?.code === 'request.invalid') return new OAuthError('invalid_client_metadata', known.detail);
  return err;
}

/** `page`: the page route's shell (lib/http/pages/page-shell.ts); its errors are pages. */
export function errorsAsHttp(page?: PageShell): ApiMiddleware {
  return {
    onError: (request) => {
      const api = request.context.api as ApiRequest | undefined;
      if (api?.route.oauthRefusals) request.error = asOAuthRefusal(request.error) as Error;
      logFailure(request.error);
      const reply = errorReply(request.error, requestIdOf(request), page);
      request.error = new HttpError(reply.statusCode, reply.body, reply.headers, request.error);
    },
  };
}
