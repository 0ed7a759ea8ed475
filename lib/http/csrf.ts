// CSRF tokens of the sign-in and consent forms (and the member pages' sign-in and sign-out): an HMAC
// of what the browser's own cookie binds — the session id once signed in, the pre-session cookie
// before — under a key derived from the service secret by HKDF-SHA256 with its own `info`, so no
// other use of that secret (cursors, sealed webhook secrets) shares the key. A forged cross-site POST
// carries the victim's cookies but cannot know the token; the table stores nothing for it, and a
// token stops working with the cookie it was bound to.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { serviceSecretKey } from '../auth/service-secret.ts';

/** HKDF `info` of the CSRF key (lib/auth/service-secret.ts). */
export const CSRF_KEY_INFO = 'pm-api csrf token HMAC-SHA256 v1';

/** The hidden form field that carries the token. */
export const CSRF_FIELD = 'csrf_token';

/**
 * What a token is bound to: the authorization pages' session or pre-session cookie, or the member
 * pages' session (their sign-out form) or pre-session (their sign-in form). Each kind signs its own
 * message, so a token of one form is never good for another.
 */
type CsrfBinding = { session: string } | { preSession: string } | { pageSession: string } | { pagePreSession: string };

function message(binding: CsrfBinding): string {
  if ('session' in binding) return `pm-csrf/session/${binding.session}`;
  if ('preSession' in binding) return `pm-csrf/pre-session/${binding.preSession}`;
  if ('pageSession' in binding) return `pm-csrf/page-session/${binding.pageSession}`;
  return `pm-csrf/page-pre-session/${binding.pagePreSession}`;
}

export async function csrfToken(binding: CsrfBinding): Promise<string> {
  return createHmac('sha256', await serviceSecretKey(CSRF_KEY_INFO))
    .update(message(binding))
    .digest('base64url');
}

/** Whether `token` (from the form) is the one bound to `binding` (from the cookie); constant time. */
export async function csrfTokenMatches(binding: CsrfBinding, token: string | undefined): Promise<boolean> {
  if (token === undefined || token.length > 256) return false;
  const expected = Buffer.from(await csrfToken(binding));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
