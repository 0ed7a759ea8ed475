// The consent page: names the application, the workspace and the member, and each scope in words;
// Allow and Deny post back to /oauth/consent, which redirects to the application.
import { html, pageDocument } from './layout.ts';
import { REFRESH_TOKEN_LIFETIME_S } from '../../auth/oauth-tokens.ts';
import { SCOPE_DESCRIPTIONS } from '../../domain/scope-descriptions.ts';
import type { Role, Scope } from '../../domain/scopes.ts';
import { CSRF_FIELD } from '../csrf.ts';

interface ConsentPage {
  applicationName: string;
  /** The client registered itself (RFC 7591): its name is its own claim, nobody here vouched for it. */
  selfRegistered?: boolean;
  workspaceName: string;
  memberEmail: string;
  role: Role;
  /** What Allow grants (requested ∩ the member's role). */
  granted: readonly Scope[];
  /** Requested, but beyond the member's role: named, never granted. */
  withheld: readonly Scope[];
  /** Where the answer goes (the redirect URI's host), so the member knows where they are sent. */
  redirectHost: string;
  request: string;
  csrfToken: string;
}

/** How long a grant lasts: its refresh tokens expire this long after Allow (lib/auth/oauth-tokens.ts). */
const GRANT_DAYS = REFRESH_TOKEN_LIFETIME_S / 86_400;

const scopeItem = (scope: Scope) =>
  html`<li><span class="scope-title">${SCOPE_DESCRIPTIONS[scope].summary}</span><span class="scope-detail">${SCOPE_DESCRIPTIONS[scope].consent}</span><span class="scope-name">${scope}</span></li>`;

export function consentPage(page: ConsentPage): string {
  return pageDocument(
    `Allow ${page.applicationName}? · ${page.workspaceName}`,
    html`<div class="who"><span>Signed in as <strong>${page.memberEmail}</strong></span><span>${page.workspaceName}</span></div>
<h1><span class="app">${page.applicationName}</span> wants to access ${page.workspaceName}</h1>
${
  page.selfRegistered
    ? html`<p class="alert" role="note">Unverified client: it registered itself, and its name is only what it calls itself. Allow it only if you started this connection yourself (for example from an AI assistant) and trust where it sends you.</p>`
    : ''
}
<p class="lead">If you allow it, ${page.applicationName} can act on your behalf, with your role (${page.role}), to:</p>
<ul class="scopes" aria-label="Permissions requested">
${page.granted.map(scopeItem)}
</ul>
${
  page.withheld.length > 0
    ? html`<p class="withheld">It also asked to ${page.withheld.map((s) => SCOPE_DESCRIPTIONS[s].summary.toLowerCase()).join(', ')}, which your role does not allow; it will not get ${page.withheld.length === 1 ? 'that permission' : 'those permissions'}.</p>`
    : ''
}
<form method="post" action="consent">
<input type="hidden" name="${CSRF_FIELD}" value="${page.csrfToken}">
<input type="hidden" name="request" value="${page.request}">
<div class="actions">
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
</div>
</form>
<p class="note">Either way you will be sent back to <span class="code">${page.redirectHost}</span>. Access ends after ${GRANT_DAYS} days, or sooner if it is revoked, and never exceeds what your role allows.</p>`,
  );
}
