// CSRF tokens of the sign-in and consent forms: an HMAC, under the service secret, of what the
// browser's own cookie binds — the session id once signed in, the pre-session cookie before. A
// forged cross-site POST carries the victim's cookies but cannot know the token; the table stores
// nothing for it, and a token stops working with the cookie it was bound to.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { serviceKeys } from '../auth/service-key.ts';

/** The hidden form field that carries the token. */
export const CSRF_FIELD = 'csrf_token';

export type CsrfBinding = { session: string } | { preSession: string };

const message = (binding: CsrfBinding) => ('session' in binding ? `pm-csrf/session/${binding.session}` : `pm-csrf/pre-session/${binding.preSession}`);

export async function csrfToken(binding: CsrfBinding): Promise<string> {
  return createHmac('sha256', (await serviceKeys()).secret).update(message(binding)).digest('base64url');
}

/** Whether `token` (from the form) is the one bound to `binding` (from the cookie); constant time. */
export async function csrfTokenMatches(binding: CsrfBinding, token: string | undefined): Promise<boolean> {
  if (token === undefined || token.length > 256) return false;
  const expected = Buffer.from(await csrfToken(binding));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
