// Tokens the service itself issues (API tokens, access tokens): compact JWS, ES256, service issuer.
// The JWS is assembled here and only the signature is delegated to the key source, so a key that
// never leaves KMS signs the same bytes a local key would. Verification is node:crypto's ECDSA
// here too rather than jose's jwtVerify: the service verifies only its own tokens — one algorithm,
// one issuer, keys it holds by kid — and jose cost every function 19 KiB (docs/performance.md,
// "Cold start"). The tests check these tokens with jose, independently.
import { verify } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { SERVICE_JWT_ALG, type ServiceKeys } from './service-key-model.ts';
import { serviceKeys } from './service-key.ts';

const SERVICE_ISSUER = 'pm-api';
/** Longer strings are not tokens this service issued; refuse them before parsing. */
export const MAX_TOKEN_LENGTH = 4096;

export interface ServiceClaims extends JWTPayload {
  /** token use */
  tu: 'api' | 'access';
  ws: string;
  scope: string;
  jti: string;
  sub: string;
  /** The application that minted an access token. */
  cid?: string;
  /** The grant (token family) of an authorization code flow access token. */
  gid?: string;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** ES256's JOSE signature: r || s, 32 bytes each. */
const ES256_SIGNATURE_BYTES = 64;

/** A base64url JSON object segment, or undefined for anything else. */
function objectOf(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * The payload of a compact JWS this service signed and a key of `keys` verifies: header alg ES256
 * with a known kid and no crit (nothing this verifier would have to understand), the signature,
 * then the registered claims — iss the service, jti, sub and iat present, exp (if any) in the
 * future, nbf (if any) reached. The claims of our own tokens are checked by the caller.
 */
function verifiedPayload(keys: ServiceKeys, token: string): Record<string, unknown> | undefined {
  const [h, p, s, extra] = token.split('.');
  if (extra !== undefined || !h || !p || !s || !SEGMENT.test(h) || !SEGMENT.test(p) || !SEGMENT.test(s)) return undefined;
  const header = objectOf(h);
  if (!header || header.alg !== SERVICE_JWT_ALG || typeof header.kid !== 'string' || header.crit !== undefined) return undefined;
  const key = keys.verifyKeys.get(header.kid);
  const signature = Buffer.from(s, 'base64url');
  if (!key || signature.length !== ES256_SIGNATURE_BYTES) return undefined;
  if (!verify('sha256', Buffer.from(`${h}.${p}`, 'ascii'), { key, dsaEncoding: 'ieee-p1363' }, signature)) return undefined;
  const payload = objectOf(p);
  if (!payload || payload.iss !== SERVICE_ISSUER || !isText(payload.jti) || !isText(payload.sub) || !isNumber(payload.iat)) return undefined;
  const now = Math.floor(Date.now() / 1000);
  if (payload.exp !== undefined && !(isNumber(payload.exp) && payload.exp > now)) return undefined;
  if (payload.nbf !== undefined && !(isNumber(payload.nbf) && payload.nbf <= now)) return undefined;
  return payload;
}

/**
 * Signs with the given keys (tests pass their own; the service signs through ./service-jwt-signing.ts). `issuedAt` is the
 * instant the caller computed `expiresAt` from, so `exp − iat` is exactly the lifetime it meant.
 */
export async function signJwtWith(keys: ServiceKeys, claims: ServiceClaims, expiresAt?: Date, issuedAt = new Date()): Promise<string> {
  const { sign } = keys;
  if (!sign) throw new Error('This function has no signing key');
  const payload: JWTPayload = { ...claims, iss: SERVICE_ISSUER, iat: Math.floor(issuedAt.getTime() / 1000) };
  if (expiresAt) payload.exp = Math.floor(expiresAt.getTime() / 1000);
  const signingInput = `${json({ alg: SERVICE_JWT_ALG, kid: keys.kid, typ: 'JWT' })}.${json(payload)}`;
  const signature = await sign(new TextEncoder().encode(signingInput));
  return `${signingInput}.${Buffer.from(signature).toString('base64url')}`;
}

/** The verified claims, or undefined for anything that is not a valid, unexpired service token. */
export function verifyJwtWith(keys: ServiceKeys, token: string): Promise<ServiceClaims | undefined> {
  return Promise.resolve(serviceClaimsOf(keys, token));
}

function serviceClaimsOf(keys: ServiceKeys, token: string): ServiceClaims | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  let p: Partial<ServiceClaims> | undefined;
  try {
    p = verifiedPayload(keys, token);
  } catch {
    return undefined; // a key node:crypto cannot use: not a token of ours
  }
  if (!p) return undefined;
  if ((p.tu !== 'api' && p.tu !== 'access') || typeof p.ws !== 'string' || typeof p.scope !== 'string') return undefined;
  if ((p.cid !== undefined && typeof p.cid !== 'string') || (p.gid !== undefined && typeof p.gid !== 'string')) return undefined;
  return p as ServiceClaims;
}

/**
 * Verified tokens of this instance, so a token's signature is checked once, not on every request.
 * Only the signature's verdict is kept: liveness (revocation, the member, the application) is still
 * read on every request (lib/auth/bearer.ts), and an entry is dropped once its token expires.
 */
const verified = new Map<string, ServiceClaims>();
const MAX_VERIFIED = 1000;

export async function verifyServiceJwt(token: string): Promise<ServiceClaims | undefined> {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const cached = verified.get(token);
  if (cached && (cached.exp === undefined || cached.exp * 1000 > Date.now())) return cached;
  verified.delete(token);
  const claims = await verifyJwtWith(await serviceKeys(), token);
  if (claims) {
    if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
    verified.set(token, claims);
  }
  return claims;
}
