// The page shown when an authorization request cannot go on and must not be redirected (unknown
// application, unregistered redirect URI), or when a page route fails: what went wrong, in words,
// and the request id to quote.
import { html, pageDocument } from './layout.ts';

interface ErrorPage {
  title: string;
  problem: string;
  requestId: string;
}

export function errorPage(page: ErrorPage): string {
  return pageDocument(
    page.title,
    html`<h1>${page.title}</h1>
<p class="alert" role="alert">${page.problem}</p>
<p class="lead">Go back to the application you came from and start again. If this keeps happening, give its developer this reference:</p>
<p class="code">${page.requestId}</p>`,
  );
}
