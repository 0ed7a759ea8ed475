// Resolves `Authorization: Bearer <token>` to a principal, or fails with Unauthenticated.
// The token's signature proves it was issued here; the stored credential (by jti, compared by
// hash) proves it is still live; the member record proves the member is still active; for the
// authorization code flow, the grant proves its family was not revoked. One BatchGetItem reads them
// all, and the items the handler will read when its route names them (released only to a live token).
import { Unauthenticated } from './errors.ts';
import type { Principal } from './principal.ts';
import { verifyServiceJwt } from './service-jwt.ts';
import { config } from '../config.ts';
import { redirectOrigins } from '../domain/redirect-uris.ts';
import { ROLE_SCOPES } from '../domain/scopes.ts';
import { readBearerRecords, tokenMatches } from '../store/credentials.ts';
import type { ReadAhead } from '../store/preread.ts';
import type { RecordName } from '../store/record-names.ts';

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i;

const invalid = (detail: string) => new Unauthenticated(detail);

/**
 * `audience`: the resource the request is for (RFC 8707) — {base_url} for the REST API, {app_url}/mcp
 * for the MCP server. A token minted for one is refused by the other.
 */
export async function authenticate(authorization: string | undefined, audience: string = config.baseUrl): Promise<Principal> {
  return (await authenticateWith(authorization, undefined, audience)).principal;
}

/**
 * The principal, and the records `prefetch` names for the token's member (read in the token's
 * workspace) read in the same BatchGetItem as the liveness records — returned only once they
 * prove the token live: a refused token throws, and nothing read for it leaves this function.
 */
export async function authenticateWith(
  authorization: string | undefined,
  prefetch?: (memberId: string) => readonly RecordName[],
  audience: string = config.baseUrl,
): Promise<{ principal: Principal; preread: ReadAhead | undefined }> {
  if (authorization === undefined || authorization.trim() === '') {
    throw invalid('The Authorization header is missing; send "Authorization: Bearer <token>".');
  }
  const token = BEARER.exec(authorization)?.[1];
  if (!token) throw invalid('The Authorization header is not of the form "Bearer <token>".');
  const claims = await verifyServiceJwt(token);
  if (!claims) throw invalid('The bearer token is malformed, not issued by this service, or expired.');

  // A token names the resource it is for (RFC 8707). Tokens without an audience (API tokens, for
  // scripts) are accepted by every resource of the workspace.
  if (claims.aud !== undefined && claims.aud !== audience) throw invalid(`The bearer token is for another resource, not ${audience}.`);

  const clientId = claims.tu === 'access' ? claims.cid : undefined;
  const grantId = claims.tu === 'access' ? claims.gid : undefined;
  const { credential, member, applicationExists, applicationRedirectUris, grant, preread } = await readBearerRecords(
    claims.jti,
    claims.ws,
    claims.sub,
    clientId,
    grantId,
    prefetch?.(claims.sub),
  );
  if (
    !credential ||
    credential.kind !== claims.tu ||
    credential.workspaceId !== claims.ws ||
    credential.grantId !== grantId ||
    !tokenMatches(credential, token)
  ) {
    throw invalid('The bearer token is not known to this service.');
  }
  // A grant revoked (replayed refresh token or code, revocation) ends every token of its family.
  if (credential.revokedAt || (grantId !== undefined && (!grant || grant.revokedAt))) throw invalid('The bearer token has been revoked.');
  if (credential.expiresAt && Date.parse(credential.expiresAt) <= Date.now()) throw invalid('The bearer token has expired.');
  if (!member || !member.active) throw invalid("The token's member is deactivated or no longer exists.");
  // An access token dies with the application that minted it.
  if (applicationExists === false) throw invalid("The token's application has been deleted.");

  const principal: Principal = {
    workspaceId: credential.workspaceId,
    memberId: member.id,
    email: member.email,
    role: member.role,
    // Never more than the member's role allows now.
    scopes: new Set(credential.scopes.filter((s) => ROLE_SCOPES[member.role].includes(s))),
    credential: credential.kind,
    tokenId: credential.id,
    ...(credential.clientId ? { clientId: credential.clientId } : {}),
    ...(grantId !== undefined ? { grantId, corsOrigins: redirectOrigins(applicationRedirectUris) } : {}),
  };
  return { principal, preread };
}
