// The sign-in page of the authorization code flow: e-mail and password of a member of the
// application's workspace. The authorization request travels along in a hidden field and is
// judged again when the form comes back, so the page holds no state of its own.
import { html, pageDocument } from './layout.ts';
import { CSRF_FIELD } from '../csrf.ts';

interface SignInPage {
  applicationName: string;
  /** The application's workspace; absent for a self-registered client, whose member names their workspace. */
  workspaceName?: string;
  /** Pre-filled workspace id after a failed attempt (self-registered clients). */
  workspace?: string;
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
  const describedBy = problemId ? html` aria-describedby="${problemId}"` : '';
  const where = page.workspaceName ?? 'your workspace';
  return pageDocument(
    `Sign in · ${where}`,
    html`<h1>Sign in to ${where}</h1>
<p class="lead"><span class="app">${page.applicationName}</span> is asking for access to your workspace. Sign in to review what it asks for.</p>
${page.problem ? html`<p class="alert" role="alert" id="sign-in-problem">${page.problem}</p>` : ''}
<form method="post" action="sign-in" novalidate>
<input type="hidden" name="${CSRF_FIELD}" value="${page.csrfToken}">
<input type="hidden" name="request" value="${page.request}">
${
  page.workspaceName === undefined
    ? html`<label for="workspace">Workspace ID</label>
<input id="workspace" name="workspace" type="text" autocomplete="organization" required value="${page.workspace ?? ''}"${describedBy}>`
    : ''
}
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${page.email ?? ''}"${describedBy}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${describedBy}>
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>
<p class="note">Your administrator sets your password. Nothing is shared with ${page.applicationName} until you approve it on the next page.</p>`,
  );
}
