// Resolves `Authorization: Bearer <token>` to a principal, or fails with Unauthenticated.
// The token's signature proves it was issued here; the stored credential (by jti, compared by
// hash) proves it is still live; the member record proves the member is still active.
import { Unauthenticated } from './errors.ts';
import type { Principal } from './principal.ts';
import { verifyServiceJwt } from './service-jwt.ts';
import { readBearerRecords, tokenMatches } from '../store/credentials.ts';

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i;

const invalid = (detail: string) => new Unauthenticated(detail);

export async function authenticate(authorization: string | undefined): Promise<Principal> {
  if (authorization === undefined || authorization.trim() === '') {
    throw invalid('The Authorization header is missing; send "Authorization: Bearer <token>".');
  }
  const token = BEARER.exec(authorization)?.[1];
  if (!token) throw invalid('The Authorization header is not of the form "Bearer <token>".');
  const claims = await verifyServiceJwt(token);
  if (!claims) throw invalid('The bearer token is malformed, not issued by this service, or expired.');

  const clientId = claims.tu === 'access' ? claims.cid : undefined;
  const { credential, member, applicationExists } = await readBearerRecords(claims.jti, claims.ws, claims.sub, clientId);
  if (!credential || credential.kind !== claims.tu || credential.workspaceId !== claims.ws || !tokenMatches(credential, token)) {
    throw invalid('The bearer token is not known to this service.');
  }
  if (credential.revokedAt) throw invalid('The bearer token has been revoked.');
  if (credential.expiresAt && Date.parse(credential.expiresAt) <= Date.now()) throw invalid('The bearer token has expired.');
  if (!member || !member.active) throw invalid("The token's member is deactivated or no longer exists.");
  // An access token dies with the application that minted it.
  if (applicationExists === false) throw invalid("The token's application has been deleted.");

  return {
    workspaceId: credential.workspaceId,
    memberId: member.id,
    email: member.email,
    role: member.role,
    scopes: new Set(credential.scopes),
    credential: credential.kind,
    tokenId: credential.id,
    ...(credential.clientId ? { clientId: credential.clientId } : {}),
  };
}
