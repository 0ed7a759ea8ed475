// Proof Key for Code Exchange (RFC 7636), S256 only: `plain` would hand the verifier to anyone who
// sees the authorization request, so the service refuses it (RFC 9700 recommends S256).
import { createHash, timingSafeEqual } from 'node:crypto';

export const PKCE_METHOD = 'S256';

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z] [a-z] [0-9] "-" "." "_" "~". */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url (unpadded) SHA-256 of the verifier: always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export const isCodeVerifier = (value: string): boolean => VERIFIER.test(value);
export const isS256Challenge = (value: string): boolean => S256_CHALLENGE.test(value);

/** BASE64URL(SHA256(ASCII(verifier))), RFC 7636 §4.2. */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether `verifier` is well-formed and hashes to `challenge` (compared in constant time). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isCodeVerifier(verifier) || !isS256Challenge(challenge)) return false;
  const a = Buffer.from(s256Challenge(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
