// Tokens of the authorization code flow. The access token is a service-signed JWT like the JWT bearer
// grant's (3 600 s) that also names its grant (`gid`) and audience (`aud`); the refresh token is an
// opaque random string, single use, whose successor keeps the grant's 30-day end. Both are stored
// only as SHA-256 hashes, and both die with their grant (lib/store/authorization-grants.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { signServiceJwt } from './service-jwt-signing.ts';
import type { Scope } from '../domain/scopes.ts';
import type { Grant, IssuedTokens } from '../store/authorization-grants.ts';
import { hashToken } from '../store/credentials.ts';

const OAUTH_ACCESS_TOKEN_LIFETIME_S = 3600;
export const REFRESH_TOKEN_LIFETIME_S = 30 * 24 * 3600;

/** 256 bits from the CSPRNG, base64url: codes, refresh tokens, client secrets, session ids. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

interface MintedTokens {
  accessToken: string;
  refreshToken: string;
  scopes: Scope[];
  /** What the store writes (hashes only). */
  issued: IssuedTokens;
}

export async function mintTokens(grant: Grant, scopes: Scope[], now: Date): Promise<MintedTokens> {
  const jti = randomUUID();
  const expiresAt = new Date(now.getTime() + OAUTH_ACCESS_TOKEN_LIFETIME_S * 1000);
  const accessToken = await signServiceJwt(
    { tu: 'access', ws: grant.workspaceId, sub: grant.memberId, scope: scopes.join(' '), jti, cid: grant.clientId, gid: grant.grantId, aud: grant.audience },
    expiresAt,
    now,
  );
  const refreshToken = randomToken();
  return {
    accessToken,
    refreshToken,
    scopes,
    issued: {
      refreshHash: hashToken(refreshToken),
      refresh: { workspaceId: grant.workspaceId, clientId: grant.clientId, grantId: grant.grantId, createdAt: now.toISOString(), expiresAt: grant.expiresAt },
      access: {
        id: jti,
        kind: 'access',
        workspaceId: grant.workspaceId,
        memberId: grant.memberId,
        scopes,
        hash: hashToken(accessToken),
        createdAt: now.toISOString(),
        expiresAt: expiresAt.toISOString(),
        clientId: grant.clientId,
        grantId: grant.grantId,
      },
    },
  };
}

/** RFC 6749 §5.1 */
export const tokenResponse = (minted: MintedTokens) => ({
  access_token: minted.accessToken,
  token_type: 'Bearer' as const,
  expires_in: OAUTH_ACCESS_TOKEN_LIFETIME_S,
  refresh_token: minted.refreshToken,
  scope: minted.scopes.join(' '),
});
