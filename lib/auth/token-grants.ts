// The two grants of POST {app_url}/oauth/token (RFC 6749 §4.1.3 and §6, RFC 7636 §4.6, RFC 9700
// §4.14): the checks in the order that leaks least, then one transaction that consumes the code or
// refresh token and writes the new tokens. A used code or refresh token presented again means one
// copy was stolen: the whole family is revoked (every access and refresh token of the grant).
import { randomUUID } from 'node:crypto';
import { OAuthError } from './oauth-errors.ts';
import { mintTokens, REFRESH_TOKEN_LIFETIME_S, tokenResponse } from './oauth-tokens.ts';
import { verifierMatches } from '../domain/pkce.ts';
import { tokenScopes } from '../domain/token-scopes.ts';
import type { Application } from '../store/applications.ts';
import {
  getAuthorizationCode,
  getGrant,
  getRefreshToken,
  redeemAuthorizationCode,
  revokeGrant,
  rotateRefreshToken,
  type Grant,
} from '../store/authorization-grants.ts';
import { hashToken } from '../store/credentials.ts';
import { AlreadyUsed, GrantRevoked } from '../store/errors.ts';
import { getMember, type Member } from '../store/members.ts';

interface CodeGrantInput {
  code: string;
  redirectUri: string;
  codeVerifier?: string;
  scope?: string;
  resource?: string;
}

interface RefreshGrantInput {
  refreshToken: string;
  scope?: string;
  resource?: string;
}

const invalidGrant = (description: string, reason?: string) => new OAuthError('invalid_grant', description, reason);

async function activeMember(workspaceId: string, memberId: string): Promise<Member> {
  const member = await getMember(workspaceId, memberId);
  if (!member?.active) throw invalidGrant('The member who granted access is deactivated or no longer exists.');
  return member;
}

function scopesFor(grantScopes: Grant['scopes'], requested: string | undefined, app: Application, member: Member) {
  const result = tokenScopes({ granted: grantScopes, requested, appScopes: app.scopes, role: member.role });
  if (!result.ok) throw new OAuthError('invalid_scope', result.problem);
  return result.scopes;
}

function checkResource(resource: string | undefined, audience: string): void {
  if (resource !== undefined && resource !== audience) throw new OAuthError('invalid_target', 'resource differs from the resource the grant is for.');
}

/** grant_type=authorization_code for an authenticated client. */
export async function exchangeAuthorizationCode(app: Application, input: CodeGrantInput, now = new Date()) {
  const codeHash = hashToken(input.code);
  const code = await getAuthorizationCode(codeHash);
  if (!code) throw invalidGrant('The authorization code is not valid.', 'unknown code');
  // Another client's code is refused without touching it: presenting it proves nothing about its owner.
  if (code.clientId !== app.clientId) throw invalidGrant('The authorization code was issued to another client.');
  if (code.usedAt) {
    await revokeGrant(code.workspaceId, code.grantId, now);
    throw invalidGrant('The authorization code was already used; every token issued for it is revoked.', 'code replayed');
  }
  if (Date.parse(code.expiresAt) <= now.getTime()) throw invalidGrant('The authorization code has expired.');
  if (input.redirectUri !== code.redirectUri) throw invalidGrant('redirect_uri differs from the one in the authorization request.');
  if (code.codeChallenge !== undefined) {
    if (input.codeVerifier === undefined) throw new OAuthError('invalid_request', 'code_verifier is missing; the authorization request had a code_challenge.');
    if (!verifierMatches(input.codeVerifier, code.codeChallenge))
      throw invalidGrant('code_verifier does not match the code_challenge of the authorization request.');
  } else if (input.codeVerifier !== undefined) {
    // RFC 9700 §2.1.1: a verifier without a challenge is a PKCE downgrade attempt.
    throw new OAuthError('invalid_request', 'code_verifier was sent, but the authorization request had no code_challenge.');
  }
  checkResource(input.resource, code.audience);
  const member = await activeMember(code.workspaceId, code.memberId);
  const scopes = scopesFor(code.scopes, input.scope, app, member);

  const grant: Grant = {
    grantId: code.grantId,
    workspaceId: code.workspaceId,
    clientId: code.clientId,
    memberId: code.memberId,
    scopes: code.scopes,
    audience: code.audience,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_S * 1000).toISOString(),
  };
  const minted = await mintTokens(grant, scopes, now);
  try {
    await redeemAuthorizationCode(codeHash, now, grant, minted.issued);
  } catch (err) {
    if (err instanceof AlreadyUsed) {
      await revokeGrant(code.workspaceId, code.grantId, now);
      throw invalidGrant('The authorization code was already used; every token issued for it is revoked.', 'code redeemed concurrently');
    }
    throw err;
  }
  return { body: tokenResponse(minted), grant };
}

/** grant_type=refresh_token for an authenticated client: rotates the refresh token. */
export async function refreshTokens(app: Application, input: RefreshGrantInput, now = new Date()) {
  const oldHash = hashToken(input.refreshToken);
  const refresh = await getRefreshToken(oldHash);
  if (!refresh) throw invalidGrant('The refresh token is not valid.', 'unknown refresh token');
  if (refresh.clientId !== app.clientId) throw invalidGrant('The refresh token was issued to another client.');
  if (refresh.usedAt) {
    await revokeGrant(refresh.workspaceId, refresh.grantId, now);
    throw invalidGrant('The refresh token was already used; every token of this grant is revoked.', 'refresh token replayed');
  }
  const grant = await getGrant(refresh.workspaceId, refresh.grantId);
  if (!grant || grant.revokedAt) throw invalidGrant('The grant of this refresh token has been revoked.');
  if (Date.parse(grant.expiresAt) <= now.getTime()) throw invalidGrant('The refresh token has expired (30 days after the grant); ask the member again.');
  checkResource(input.resource, grant.audience);
  const member = await activeMember(grant.workspaceId, grant.memberId);
  const scopes = scopesFor(grant.scopes, input.scope, app, member);

  const minted = await mintTokens(grant, scopes, now);
  try {
    await rotateRefreshToken(oldHash, now, grant, minted.issued);
  } catch (err) {
    if (err instanceof AlreadyUsed) {
      await revokeGrant(grant.workspaceId, grant.grantId, now);
      throw invalidGrant('The refresh token was already used; every token of this grant is revoked.', 'refresh token used concurrently');
    }
    if (err instanceof GrantRevoked) throw invalidGrant('The grant of this refresh token has been revoked.');
    throw err;
  }
  return { body: tokenResponse(minted), grant };
}

/** A new grant id (the code carries it before the grant exists). */
export const newGrantId = (): string => randomUUID();
