// What a page route (a row of lib/routes.ts with `response: 'html'`) answers beyond its pages: the
// page security headers on every response, and any error as the error page. Its handler is made by
// pageApi(), which hands this shell to the pipeline (lib/http/pipeline.ts), so the functions of JSON
// routes carry none of the page layout.
import { errorPage } from './error-page.ts';
import { PAGE_HEADERS, pageCsp } from './layout.ts';
import { PageError } from './page-error.ts';
import type { Route } from '../../routes.ts';
import { EDGE_DETAILS } from '../envelope.ts';
import { apiErrorOf, type ErrorReply } from '../error-map.ts';
import { ApiError } from '../errors.ts';
import type { Operation } from '../operation.ts';
import { api, type ApiHandler, type Core } from '../pipeline.ts';

export interface PageShell {
  /** The headers every response of a page route carries; a page's own CSP (the consent form's) wins. */
  headers(): Record<string, string>;
  /** An error of a page route as the error page (lib/http/pages/error-page.ts): the member reads it. */
  errorReply(err: unknown, requestId: string): ErrorReply;
}

const PAGE_SHELL: PageShell = {
  headers: () => ({ ...PAGE_HEADERS, 'Content-Security-Policy': pageCsp() }),
  errorReply: (err, requestId) => {
    if (err instanceof PageError) {
      return { statusCode: err.status, headers: err.headers, body: errorPage({ title: err.title, problem: err.problem, requestId }) };
    }
    const api = apiErrorOf(err) ?? new ApiError('internal.serverError', EDGE_DETAILS['internal.serverError']);
    return { statusCode: api.status, headers: api.headers ?? {}, body: errorPage({ title: api.title, problem: api.detail, requestId }) };
  },
};

/** api() for a page route: its responses carry the page headers and its errors are the error page. */
export function pageApi<const O extends Operation>(route: Route, operation: O, core: Core<O>): ApiHandler<O> {
  return api(route, operation, core, { page: PAGE_SHELL });
}
