// What a member page route answers beyond its pages: the member pages' security headers on every
// response and any error as the member pages' error page (lib/http/pages/page-shell.ts does the
// same for the authorization pages, with their own layout and stylesheet).
import { memberDocument, memberPageHeaders, pageUrl } from './layout.ts';
import type { Route } from '../../routes.ts';
import { EDGE_DETAILS } from '../envelope.ts';
import { apiErrorOf, type ErrorReply } from '../error-map.ts';
import { ApiError } from '../errors.ts';
import type { Operation } from '../operation.ts';
import { html } from '../pages/html.ts';
import { PageError } from '../pages/page-error.ts';
import type { PageShell } from '../pages/page-shell.ts';
import { api, type ApiHandler, type Core } from '../pipeline.ts';

/** The error page: what went wrong, the way home, and the request id to quote. */
function errorDocument(title: string, problem: string, requestId: string): string {
  return memberDocument(
    title,
    html`<div class="card">
<h1>${title}</h1>
<p class="alert" role="alert">${problem}</p>
<p><a href="${pageUrl('/')}">Go to your workspace's products</a></p>
<p class="muted">If this keeps happening, quote this reference: <span class="code">${requestId}</span></p>
</div>`,
    { narrow: true },
  );
}

const MEMBER_PAGE_SHELL: PageShell = {
  headers: memberPageHeaders,
  errorReply: (err, requestId): ErrorReply => {
    if (err instanceof PageError) return { statusCode: err.status, headers: err.headers, body: errorDocument(err.title, err.problem, requestId) };
    const known = apiErrorOf(err) ?? new ApiError('internal.serverError', EDGE_DETAILS['internal.serverError']);
    return { statusCode: known.status, headers: known.headers ?? {}, body: errorDocument(known.title, known.detail, requestId) };
  },
};

/** api() for a member page route: its responses carry the pages' headers and its errors are the pages' error page. */
export function memberPageApi<const O extends Operation>(route: Route, operation: O, core: Core<O>): ApiHandler<O> {
  return api(route, operation, core, { page: MEMBER_PAGE_SHELL });
}

/**
 * The one answer for a record the member may not see: another workspace's, an unknown id, a
 * deleted record — the same page, word for word, so the answer tells nothing of which.
 */
export const notFound = () =>
  new PageError(404, 'Page not found', 'There is nothing to show at this address: the link may be wrong, or what it pointed to is not there any more.');
