// The member pages' own sign-in page: workspace ID, e-mail and password, as on the authorization
// pages for a client that belongs to no workspace. Its form carries a CSRF token bound to a
// pre-session cookie of its own, and where to go next (a path of these pages only).
import { memberDocument, pageUrl } from './layout.ts';
import { randomToken } from '../../auth/oauth-tokens.ts';
import { PAGE_SESSION_LIFETIME_S } from '../../auth/page-sessions.ts';
import { hostCookie, parseCookies, PAGE_PRE_SESSION_COOKIE, PAGE_WORKSPACE_COOKIE } from '../cookies.ts';
import { csrfToken, CSRF_FIELD } from '../csrf.ts';
import { html } from '../pages/html.ts';
import type { ApiRequest, ApiResult } from '../request.ts';

/** The pre-session cookie only binds the sign-in form's token. */
const PAGE_PRE_SESSION_LIFETIME_S = 60 * 60;

const HOURS = PAGE_SESSION_LIFETIME_S / 3600;

interface SignInOptions {
  status?: number;
  next: string;
  workspace?: string | undefined;
  email?: string | undefined;
  problem?: string | undefined;
  notice?: string | undefined;
  headers?: Record<string, string>;
}

/** The sign-in page; a pre-session cookie (new unless the browser has one) binds its CSRF token. */
export async function signInPageResult(req: ApiRequest, options: SignInOptions): Promise<ApiResult> {
  const cookies = parseCookies(req.headers.get('cookie'));
  const existing = cookies.get(PAGE_PRE_SESSION_COOKIE);
  const preSession = existing && existing.length <= 128 ? existing : randomToken();
  const token = await csrfToken({ pagePreSession: preSession });
  const workspace = options.workspace ?? cookies.get(PAGE_WORKSPACE_COOKIE) ?? '';
  const problemId = options.problem ? 'sign-in-problem' : undefined;
  const describedBy = problemId ? html` aria-describedby="${problemId}"` : '';
  const body = html`<div class="card">
<h1>Sign in</h1>
<p class="muted">See your workspace's products and features ranked by customer score, and the feedback behind them.</p>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${options.problem ? html`<p class="alert" role="alert" id="sign-in-problem">${options.problem}</p>` : ''}
<form method="post" action="${pageUrl('/sign-in')}" novalidate>
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<input type="hidden" name="next" value="${options.next}">
<label for="workspace">Workspace ID</label>
<input id="workspace" name="workspace" type="text" autocomplete="organization" required spellcheck="false" value="${workspace}" aria-describedby="workspace-hint">
<p class="hint" id="workspace-hint">Your administrator gives it to you with your password.</p>
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}"${describedBy}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${describedBy}>
<button type="submit" class="primary">Sign in</button>
</form>
<p class="hint">You stay signed in for ${HOURS} hours, or until you sign out. This is not the sign-in of an application asking for access: that one is always asked for separately.</p>
</div>`;
  return {
    status: options.status ?? 200,
    body: memberDocument('Sign in', body, { narrow: true }),
    cookies: [hostCookie(PAGE_PRE_SESSION_COOKIE, preSession, PAGE_PRE_SESSION_LIFETIME_S)],
    ...(options.headers ? { headers: options.headers } : {}),
  };
}
