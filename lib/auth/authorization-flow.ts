// The authorization endpoint's steps that are not pages: judging a request against the
// application its client_id names, the member's sign-in session, and the authorization code an
// Allow creates (single use, 60 seconds, bound to client, redirect URI, PKCE challenge, scopes,
// member and the grant it will create).
import { randomToken } from './oauth-tokens.ts';
import { newGrantId } from './token-grants.ts';
import { config } from '../config.ts';
import {
  checkAuthorizationRequest,
  requestedClientId,
  type AuthorizationCheck,
  type AuthorizationClient,
  type AuthorizationRequest,
} from '../domain/authorization-request.ts';
import type { Scope } from '../domain/scopes.ts';
import { findApplicationByClientId, type Application } from '../store/applications.ts';
import { saveAuthorizationCode } from '../store/authorization-grants.ts';
import { hashToken } from '../store/credentials.ts';
import { getMember, type Member } from '../store/members.ts';
import { createSession, getSession } from '../store/sign-in.ts';

/** RFC 9700 §4.2.1 / RFC 6749 §4.1.2: short-lived; 60 seconds is plenty for a redirect and a back-channel call. */
const AUTHORIZATION_CODE_LIFETIME_S = 60;
/** The sign-in session: long enough to read the consent page, short enough not to linger. */
export const SESSION_LIFETIME_S = 15 * 60;
/** The pre-session cookie only binds the sign-in form's CSRF token. */
export const PRE_SESSION_LIFETIME_S = 60 * 60;

/** The resources tokens may be issued for (RFC 8707): the REST API (the default audience) and the MCP server. */
const tokenAudiences = (): [string, ...string[]] => [config.baseUrl, config.mcpUrl];

const authorizationClient = (app: Application): AuthorizationClient => ({
  clientId: app.clientId,
  type: app.type,
  redirectUris: app.redirectUris,
  public: app.public,
  scopes: app.scopes,
  defaultScopes: app.defaultScopes,
});

export type JudgedRequest = Exclude<AuthorizationCheck, { kind: 'valid' }> | { kind: 'valid'; request: AuthorizationRequest; app: Application };

export async function judgeAuthorizationRequest(params: ReadonlyArray<readonly [string, string]>): Promise<JudgedRequest> {
  const clientId = requestedClientId(params);
  const app = clientId ? await findApplicationByClientId(clientId) : undefined;
  const check = checkAuthorizationRequest(params, app && authorizationClient(app), tokenAudiences());
  return check.kind === 'valid' ? { ...check, app: app! } : check;
}

/** Starts a session for a member who just signed in; the id goes into the cookie, its hash into the table. */
export async function startSession(member: Member, now = new Date()): Promise<string> {
  const id = randomToken();
  await createSession(hashToken(id), {
    workspaceId: member.workspaceId,
    memberId: member.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_S * 1000).toISOString(),
  });
  return id;
}

/**
 * The active member a session cookie names in this workspace (any workspace when undefined: a
 * self-registered client's), or undefined (none, expired, elsewhere, deactivated).
 */
export async function sessionMember(sessionId: string | undefined, workspaceId: string | undefined): Promise<Member | undefined> {
  if (!sessionId || sessionId.length > 128) return undefined;
  const session = await getSession(hashToken(sessionId));
  if (!session || (workspaceId !== undefined && session.workspaceId !== workspaceId)) return undefined;
  const member = await getMember(session.workspaceId, session.memberId);
  return member?.active ? member : undefined;
}

/** Creates the code an Allow answers with. */
export async function issueAuthorizationCode(
  request: AuthorizationRequest,
  app: Application,
  member: Member,
  scopes: Scope[],
  now = new Date(),
): Promise<string> {
  const code = randomToken();
  await saveAuthorizationCode(hashToken(code), {
    // The member's: a self-registered client's workspace is the one its member consented in.
    workspaceId: member.workspaceId,
    clientId: app.clientId,
    memberId: member.id,
    redirectUri: request.redirectUri,
    ...(request.codeChallenge ? { codeChallenge: request.codeChallenge } : {}),
    scopes,
    audience: request.audience,
    grantId: newGrantId(),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_LIFETIME_S * 1000).toISOString(),
  });
  return code;
}
