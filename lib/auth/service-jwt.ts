// Tokens the service itself issues (API tokens, access tokens): compact JWS, ES256, service issuer.
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { SERVICE_JWT_ALG, serviceKeys } from './service-key.ts';

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
  cid?: string;
}

export async function signServiceJwt(claims: ServiceClaims, expiresAt?: Date): Promise<string> {
  const keys = await serviceKeys();
  if (!keys.signingKey) throw new Error('This function has no signing key');
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: SERVICE_JWT_ALG, kid: keys.kid, typ: 'JWT' })
    .setIssuer(SERVICE_ISSUER)
    .setIssuedAt();
  if (expiresAt) jwt.setExpirationTime(Math.floor(expiresAt.getTime() / 1000));
  return jwt.sign(keys.signingKey);
}

/** The verified claims, or undefined for anything that is not a valid, unexpired service token. */
export async function verifyServiceJwt(token: string): Promise<ServiceClaims | undefined> {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const keys = await serviceKeys();
  try {
    const { payload } = await jwtVerify(token, keys.verifyKey, {
      algorithms: [SERVICE_JWT_ALG],
      issuer: SERVICE_ISSUER,
      requiredClaims: ['jti', 'sub', 'iat'],
    });
    const p = payload as Partial<ServiceClaims>;
    if ((p.tu !== 'api' && p.tu !== 'access') || typeof p.ws !== 'string' || typeof p.scope !== 'string') return undefined;
    return payload as ServiceClaims;
  } catch {
    return undefined;
  }
}
