// Cookies of the sign-in and consent pages and of the member pages (RFC 6265bis). Every cookie is `__Host-` prefixed —
// Secure, Path=/, no Domain — so only this exact origin over a secure context sets or reads it;
// browsers treat http://localhost as secure, so the local stack behaves like the deployed one.

/** The member's sign-in session (a random id; the table holds only its hash). */
export const SESSION_COOKIE = '__Host-pm_session';
/** Binds the sign-in form's CSRF token before there is a session. */
export const PRE_SESSION_COOKIE = '__Host-pm_presession';
/**
 * The member pages' session (lib/auth/page-sessions.ts): a cookie of its own, which the
 * authorization pages never read, so a page session never approves a consent page.
 */
export const PAGE_SESSION_COOKIE = '__Host-pm_pages';
/** Binds the member pages' sign-in form's CSRF token before there is a page session. */
export const PAGE_PRE_SESSION_COOKIE = '__Host-pm_pages_presession';
/** The workspace ID the member pages' sign-in form last succeeded with, to fill it in next time (not a secret). */
export const PAGE_WORKSPACE_COOKIE = '__Host-pm_workspace';

const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VALUE = /^[!#$%&'()*+\-./0-9:<=>?@A-Z[\]^_`a-z{|}~]*$/;

/** Cookies of a request's Cookie header(s); the first of a repeated name wins (RFC 6265 §5.4 order). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(/[;,]/)) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (NAME.test(name) && VALUE.test(value) && !out.has(name)) out.set(name, value);
  }
  return out;
}

/** A Set-Cookie value for a `__Host-` cookie: HttpOnly, Secure, SameSite=Lax, Path=/; `maxAgeS` 0 deletes it. */
export function hostCookie(name: string, value: string, maxAgeS: number): string {
  if (!name.startsWith('__Host-') || !NAME.test(name) || !VALUE.test(value)) throw new Error(`Not a valid __Host- cookie: ${name}`);
  return `${name}=${value}; Path=/; Max-Age=${Math.max(0, Math.floor(maxAgeS))}; HttpOnly; Secure; SameSite=Lax`;
}
