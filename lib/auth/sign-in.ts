// A member signs in with e-mail and password within one workspace (the application's). Failed
// attempts are throttled (lib/domain/sign-in-throttle.ts); the outcome never says whether the
// e-mail belongs to a member: an unknown e-mail, a deactivated member, a member without a password
// and a wrong password all cost one scrypt verification and answer 'wrong'.
import { createHash } from 'node:crypto';
import { MAX_PASSWORD_LENGTH, verifyPassword } from './passwords.ts';
import { signInWindow, throttledFor, windowExpiry } from '../domain/sign-in-throttle.ts';
import { getMemberByEmail, normalizeEmail, type Member } from '../store/members.ts';
import { getMemberPasswordHash, readSignInFailures, recordSignInFailure } from '../store/sign-in.ts';

type SignInOutcome = { ok: true; member: Member } | { ok: false; reason: 'wrong' } | { ok: false; reason: 'throttled'; retryAfterS: number };

/** Counter keys are hashes: an e-mail or an address typed by anyone must not shape the table's keys. */
const digest = (value: string) => createHash('sha256').update(value).digest('base64url');

export async function signIn(workspaceId: string, input: { email: string; password: string; sourceIp: string }): Promise<SignInOutcome> {
  const now = Date.now();
  const window = signInWindow(now);
  const email = normalizeEmail(input.email) ?? input.email.trim().toLowerCase().slice(0, 254);
  const emailHash = digest(email);
  const addressHash = digest(input.sourceIp);
  const retryAfterS = throttledFor(await readSignInFailures(workspaceId, emailHash, addressHash, window), now);
  if (retryAfterS > 0) return { ok: false, reason: 'throttled', retryAfterS };

  const member = normalizeEmail(input.email) ? await getMemberByEmail(workspaceId, email) : undefined;
  const stored = member?.active ? await getMemberPasswordHash(workspaceId, member.id) : undefined;
  // Without a stored hash verifyPassword still does a full scrypt run against a decoy, and answers false.
  const matches = await verifyPassword(input.password.slice(0, MAX_PASSWORD_LENGTH + 1), stored);
  if (matches && member) return { ok: true, member };
  await recordSignInFailure(workspaceId, emailHash, addressHash, window, windowExpiry(window));
  return { ok: false, reason: 'wrong' };
}
