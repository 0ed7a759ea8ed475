// The sign-in page of the authorization code flow: e-mail and password of a member of the
// application's workspace. The authorization request travels along in a hidden field and is
// judged again when the form comes back, so the page holds no state of its own.
import { html, pageDocument } from './layout.ts';
import { CSRF_FIELD } from '../csrf.ts';

export interface SignInPage {
  applicationName: string;
  workspaceName: string;
  /** The authorization request's query string, sent back unchanged. */
  request: string;
  csrfToken: string;
  /** Pre-filled after a failed attempt. */
  email?: string;
  /** Why the last attempt failed, in words that do not tell whether the e-mail is a member's. */
  problem?: string;
}

export function signInPage(page: SignInPage): string {
  const problemId = page.problem ? 'sign-in-problem' : undefined;
  return pageDocument(
    `Sign in · ${page.workspaceName}`,
    html`<h1>Sign in to ${page.workspaceName}</h1>
<p class="lead"><span class="app">${page.applicationName}</span> is asking for access to your workspace. Sign in to review what it asks for.</p>
${page.problem ? html`<p class="alert" role="alert" id="sign-in-problem">${page.problem}</p>` : ''}
<form method="post" action="sign-in" novalidate>
<input type="hidden" name="${CSRF_FIELD}" value="${page.csrfToken}">
<input type="hidden" name="request" value="${page.request}">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${page.email ?? ''}"${problemId ? html` aria-describedby="${problemId}"` : ''}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${problemId ? html` aria-describedby="${problemId}"` : ''}>
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>
<p class="note">Your administrator sets your password. Nothing is shared with ${page.applicationName} until you approve it on the next page.</p>`,
  );
}
