// Access tokens minted by the JWT bearer grant: service-signed JWTs naming the member, the granted
// scopes and the application, recorded as a credential so bearer.ts can check (and the deletion of
// the application can end) them on every request.
import { randomUUID } from 'node:crypto';
import { signServiceJwt } from './service-jwt-signing.ts';
import { ACCESS_TOKEN_SECONDS } from '../domain/schemas/token.ts';
import type { Scope } from '../domain/scopes.ts';
import { hashToken, putCredential } from '../store/credentials.ts';
import type { Member } from '../store/members.ts';

/** An access token from the JWT bearer grant lives 300 seconds (the service specification; the token response's schema says so too). */
export const ACCESS_TOKEN_LIFETIME_S = ACCESS_TOKEN_SECONDS;

export async function issueAccessToken(
  clientId: string,
  member: Member,
  scopes: Scope[],
): Promise<{ token: string; expiresIn: typeof ACCESS_TOKEN_LIFETIME_S }> {
  const id = randomUUID();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_LIFETIME_S * 1000);
  const scope = scopes.join(' ');
  const token = await signServiceJwt({ tu: 'access', ws: member.workspaceId, sub: member.id, scope, jti: id, cid: clientId }, expiresAt, now);
  await putCredential({
    id,
    kind: 'access',
    workspaceId: member.workspaceId,
    memberId: member.id,
    scopes,
    hash: hashToken(token),
    createdAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
    clientId,
  });
  return { token, expiresIn: ACCESS_TOKEN_LIFETIME_S };
}
