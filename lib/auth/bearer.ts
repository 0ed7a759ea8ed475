// Resolves `Authorization: Bearer <token>` to a principal, or fails with Unauthenticated.
// The token's signature proves it was issued here; the stored credential (by jti, compared by
// hash) proves it is still live; the member record proves the member is still active. All of them,
// and the handler's own item when its route names one, come from one BatchGetItem.
import { Unauthenticated } from './errors.ts';
import type { Principal } from './principal.ts';
import { verifyServiceJwt } from './service-jwt.ts';
import { readBearerRecords, tokenMatches } from '../store/credentials.ts';
import type { ItemKey } from '../store/keys.ts';
import type { Preread } from '../store/preread.ts';

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i;

const invalid = (detail: string) => new Unauthenticated(detail);

export async function authenticate(authorization: string | undefined): Promise<Principal> {
  return (await authenticateWith(authorization)).principal;
}

/**
 * The principal, and the item `prefetch` names in the token's workspace read in the same
 * BatchGetItem as the liveness records — returned only once they prove the token live.
 */
export async function authenticateWith(
  authorization: string | undefined,
  prefetch?: (workspaceId: string) => ItemKey | undefined,
): Promise<{ principal: Principal; preread: Preread | undefined }> {
  if (authorization === undefined || authorization.trim() === '') {
    throw invalid('The Authorization header is missing; send "Authorization: Bearer <token>".');
  }
  const token = BEARER.exec(authorization)?.[1];
  if (!token) throw invalid('The Authorization header is not of the form "Bearer <token>".');
  const claims = await verifyServiceJwt(token);
  if (!claims) throw invalid('The bearer token is malformed, not issued by this service, or expired.');

  const clientId = claims.tu === 'access' ? claims.cid : undefined;
  const { credential, member, applicationExists, preread } = await readBearerRecords(claims.jti, claims.ws, claims.sub, clientId, prefetch?.(claims.ws));
  if (!credential || credential.kind !== claims.tu || credential.workspaceId !== claims.ws || !tokenMatches(credential, token)) {
    throw invalid('The bearer token is not known to this service.');
  }
  if (credential.revokedAt) throw invalid('The bearer token has been revoked.');
  if (credential.expiresAt && Date.parse(credential.expiresAt) <= Date.now()) throw invalid('The bearer token has expired.');
  if (!member || !member.active) throw invalid("The token's member is deactivated or no longer exists.");
  // An access token dies with the application that minted it.
  if (applicationExists === false) throw invalid("The token's application has been deleted.");

  const principal: Principal = {
    workspaceId: credential.workspaceId,
    memberId: member.id,
    email: member.email,
    role: member.role,
    scopes: new Set(credential.scopes),
    credential: credential.kind,
    tokenId: credential.id,
    ...(credential.clientId ? { clientId: credential.clientId } : {}),
  };
  return { principal, preread };
}
