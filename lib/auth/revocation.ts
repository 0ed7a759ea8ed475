// Token revocation (RFC 7009): an authorization-code client revokes one of its refresh or access
// tokens, and with it the whole grant — every token of the family (RFC 7009 §2.1 allows it, and a
// client that drops one token has no use for the others). A token the service does not know, or
// that has expired, is answered 200 like a revoked one (§2.2); another client's token is refused.
import { OAuthError } from './oauth-errors.ts';
import { verifyServiceJwt } from './service-jwt.ts';
import type { Application } from '../store/applications.ts';
import { getRefreshToken, revokeGrant } from '../store/authorization-grants.ts';
import { hashToken } from '../store/credentials.ts';

const notYours = () => new OAuthError('unauthorized_client', 'The token was not issued to this client.');

/** Revokes the grant of `token`; true when a grant was revoked. */
export async function revokeToken(app: Application, token: string): Promise<boolean> {
  // An access token is a JWT (it has dots); a refresh token is one base64url string.
  if (token.includes('.')) {
    const claims = await verifyServiceJwt(token);
    if (!claims) return false;
    // A self-registered client's tokens carry the workspace its member consented in.
    if (claims.cid !== app.clientId || (!app.selfRegistered && claims.ws !== app.workspaceId) || !claims.gid) throw notYours();
    return revokeGrant(claims.ws, claims.gid);
  }
  const refresh = await getRefreshToken(hashToken(token));
  if (!refresh) return false;
  if (refresh.clientId !== app.clientId) throw notYours();
  return revokeGrant(refresh.workspaceId, refresh.grantId);
}
