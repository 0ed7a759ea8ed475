// Member passwords for the browser sign-in of the authorization code flow: scrypt from node:crypto
// with a random salt per password, the parameters stored with the hash so they can be raised later
// without invalidating existing passwords, and a constant-time comparison.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const MIN_PASSWORD_LENGTH = 12;
/** Far above any passphrase; bounds the work one sign-in attempt can cause. */
export const MAX_PASSWORD_LENGTH = 1024;

/** N = 2^15, r = 8, p = 1: 32 MiB and tens of milliseconds per hash (the OWASP minimum is N = 2^17 at r = 8 for 128 MiB; a 1 GB Lambda keeps this bounded). */
const DEFAULT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
/** Stored hashes name their own parameters; refuse absurd ones rather than allocate for them. */
const MAX_N = 2 ** 20;

export class PasswordRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PasswordRejected';
  }
}

function scrypt(password: string, salt: Buffer, keylen: number, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scryptCallback(password.normalize('NFC'), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Why a new password is refused, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `A password may have at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (password.trim() !== password) return 'A password may not begin or end with white space (it is easily lost when copied).';
  return undefined;
}

/** `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
export async function hashPassword(password: string): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw new PasswordRejected(problem);
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEY_LENGTH, DEFAULT_PARAMS);
  const { N, r, p } = DEFAULT_PARAMS;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parseStored(stored: string): { N: number; r: number; p: number; salt: Buffer; key: Buffer } | undefined {
  const [scheme, n, r, p, salt, key, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || !salt || !key) return undefined;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const ok =
    Number.isInteger(params.N) &&
    params.N > 1 &&
    params.N <= MAX_N &&
    (params.N & (params.N - 1)) === 0 &&
    Number.isInteger(params.r) &&
    params.r >= 1 &&
    params.r <= 32 &&
    Number.isInteger(params.p) &&
    params.p >= 1 &&
    params.p <= 16;
  return ok ? { ...params, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') } : undefined;
}

/** A hash of a password nobody knows, with the default parameters: verified against when there is no member, so both answers take as long. */
let decoy: Promise<string> | undefined;
const decoyHash = () => (decoy ??= hashPassword(randomBytes(24).toString('base64url')));

/**
 * Whether `password` matches `stored`. With `stored` undefined (no such member, or no password
 * set) it still does the same work and answers false, so timing does not tell them apart.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const parsed = parseStored(stored ?? (await decoyHash()));
  if (!parsed || password.length > MAX_PASSWORD_LENGTH) return false;
  const key = await scrypt(password, parsed.salt, parsed.key.length, parsed);
  return timingSafeEqual(key, parsed.key) && stored !== undefined;
}
