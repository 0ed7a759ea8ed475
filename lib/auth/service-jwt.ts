// Tokens the service itself issues (API tokens, access tokens): compact JWS, ES256, service issuer.
// The JWS is assembled here and only the signature is delegated to the key source, so a key that
// never leaves KMS signs the same bytes a local key would; jose verifies either.
import { base64url, jwtVerify, type JWTPayload, type JWSHeaderParameters } from 'jose';
import { SERVICE_JWT_ALG, type ServiceKeys } from './service-key-model.ts';
import { serviceKeys } from './service-key.ts';

export const SERVICE_ISSUER = 'pm-api';
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

const json = (value: unknown) => base64url.encode(JSON.stringify(value));

/** Signs with the given keys (tests pass their own; the service uses serviceKeys()). */
export async function signJwtWith(keys: ServiceKeys, claims: ServiceClaims, expiresAt?: Date): Promise<string> {
  if (!keys.sign) throw new Error('This function has no signing key');
  const payload: JWTPayload = { ...claims, iss: SERVICE_ISSUER, iat: Math.floor(Date.now() / 1000) };
  if (expiresAt) payload.exp = Math.floor(expiresAt.getTime() / 1000);
  const signingInput = `${json({ alg: SERVICE_JWT_ALG, kid: keys.kid, typ: 'JWT' })}.${json(payload)}`;
  const signature = await keys.sign(new TextEncoder().encode(signingInput));
  return `${signingInput}.${base64url.encode(signature)}`;
}

/** The verified claims, or undefined for anything that is not a valid, unexpired service token. */
export async function verifyJwtWith(keys: ServiceKeys, token: string): Promise<ServiceClaims | undefined> {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  try {
    const keyFor = (header: JWSHeaderParameters) => {
      const key = header.kid === undefined ? undefined : keys.verifyKeys.get(header.kid);
      if (!key) throw new Error('unknown kid');
      return key;
    };
    const { payload } = await jwtVerify(token, keyFor, {
      algorithms: [SERVICE_JWT_ALG],
      issuer: SERVICE_ISSUER,
      requiredClaims: ['jti', 'sub', 'iat'],
    });
    const p = payload as Partial<ServiceClaims>;
    if ((p.tu !== 'api' && p.tu !== 'access') || typeof p.ws !== 'string' || typeof p.scope !== 'string') return undefined;
    if ((p.cid !== undefined && typeof p.cid !== 'string') || (p.gid !== undefined && typeof p.gid !== 'string')) return undefined;
    return payload as ServiceClaims;
  } catch {
    return undefined;
  }
}

export async function signServiceJwt(claims: ServiceClaims, expiresAt?: Date): Promise<string> {
  return signJwtWith(await serviceKeys(), claims, expiresAt);
}

export async function verifyServiceJwt(token: string): Promise<ServiceClaims | undefined> {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  return verifyJwtWith(await serviceKeys(), token);
}
