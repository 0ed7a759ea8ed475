// What the authorization endpoint's routes answer: the sign-in page, the consent page, and
// redirects to the client. Shared by GET /oauth/authorize, POST /oauth/sign-in and POST /oauth/consent.
import { hostCookie, parseCookies, PRE_SESSION_COOKIE, SESSION_COOKIE } from './cookies.ts';
import { csrfToken } from './csrf.ts';
import { parseForm } from './form.ts';
import { consentPage } from './pages/consent.ts';
import { PageError } from './pages/page-error.ts';
import { pageResult } from './pages/page-result.ts';
import { signInPage } from './pages/sign-in.ts';
import type { ApiRequest, ApiResult } from './request.ts';
import { PRE_SESSION_LIFETIME_S, SESSION_LIFETIME_S, type JudgedRequest } from '../auth/authorization-flow.ts';
import { randomToken } from '../auth/oauth-tokens.ts';
import { config } from '../config.ts';
import { consentScopes, type AuthorizationRequest } from '../domain/authorization-request.ts';
import { redirectWith } from '../domain/redirect-uris.ts';
import type { Application } from '../store/applications.ts';
import type { Member } from '../store/members.ts';
import { getWorkspace } from '../store/workspaces.ts';

export const requestCookies = (req: ApiRequest) => parseCookies(req.headers.get('cookie'));

/** The authorization request as the pages carry it: the query string, rebuilt from its parameters. */
export const requestString = (params: ReadonlyArray<readonly [string, string]>) => new URLSearchParams(params as Array<[string, string]>).toString();

/** RFC 6749 §4.1.2 (with RFC 9207's iss): 303 to the registered redirect URI (a page route: the frame adds no-store and no-referrer). */
export function clientRedirect(redirectUri: string, params: Record<string, string>): ApiResult {
  return { status: 303, headers: { Location: redirectWith(redirectUri, { ...params, iss: config.appUrl }) } };
}

export const stateOf = (request: { state?: string }): Record<string, string> => (request.state !== undefined ? { state: request.state } : {});

/** Deny: error=access_denied (RFC 6749 §4.1.2.1). */
export const deniedRedirect = (request: AuthorizationRequest, description: string) =>
  clientRedirect(request.redirectUri, { error: 'access_denied', error_description: description, ...stateOf(request) });

/** A member whose role permits none of the requested scopes cannot grant anything. */
export const nothingToGrant = (request: AuthorizationRequest, member: Member) =>
  deniedRedirect(request, `The member's role (${member.role}) permits none of the requested scopes.`);

/** An authorization request that is not valid: an error page, or the error sent to the client. */
export function refuseRequest(judged: Exclude<JudgedRequest, { kind: 'valid' }>): ApiResult {
  if (judged.kind === 'page') throw new PageError(400, 'This application cannot be authorized', judged.problem);
  return clientRedirect(judged.redirectUri, { error: judged.error, error_description: judged.description, ...stateOf(judged) });
}

/** The workspace a client's session must belong to: its application's, or any for a self-registered client (bound at consent). */
export const sessionWorkspace = (app: Application): string | undefined => (app.selfRegistered ? undefined : app.workspaceId);

const workspaceName = async (workspaceId: string) => (await getWorkspace(workspaceId))?.name ?? 'your workspace';

/** The sign-in page; a pre-session cookie (new unless the browser has one) binds its CSRF token. */
export async function signInResult(
  req: ApiRequest,
  app: Application,
  request: string,
  options: { status?: number; email?: string; workspace?: string; problem?: string; headers?: Record<string, string> } = {},
): Promise<ApiResult> {
  const existing = requestCookies(req).get(PRE_SESSION_COOKIE);
  const preSession = existing && existing.length <= 128 ? existing : randomToken();
  const body = signInPage({
    applicationName: app.name,
    // A self-registered client belongs to no workspace: the member names theirs.
    ...(app.selfRegistered ? {} : { workspaceName: await workspaceName(app.workspaceId) }),
    request,
    csrfToken: await csrfToken({ preSession }),
    ...(options.email !== undefined ? { email: options.email } : {}),
    ...(options.workspace !== undefined ? { workspace: options.workspace } : {}),
    ...(options.problem !== undefined ? { problem: options.problem } : {}),
  });
  return pageResult(options.status ?? 200, body, {
    cookies: [hostCookie(PRE_SESSION_COOKIE, preSession, PRE_SESSION_LIFETIME_S)],
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

/** The consent page for a signed-in member; or, when their role permits none of the scopes, access_denied. */
export async function consentResult(
  sessionId: string,
  judged: { request: AuthorizationRequest; app: Application },
  member: Member,
  requestText: string,
): Promise<ApiResult> {
  const { request, app } = judged;
  const { granted, withheld } = consentScopes(request.scopes, member.role);
  if (granted.length === 0) return nothingToGrant(request, member);
  const body = consentPage({
    applicationName: app.name,
    ...(app.selfRegistered ? { selfRegistered: true } : {}),
    workspaceName: await workspaceName(member.workspaceId),
    memberEmail: member.email,
    role: member.role,
    granted,
    withheld,
    redirectHost: new URL(request.redirectUri).host,
    request: requestText,
    csrfToken: await csrfToken({ session: sessionId }),
  });
  return pageResult(200, body, { formActionOrigins: [new URL(request.redirectUri).origin] });
}

export const sessionCookie = (sessionId: string) => hostCookie(SESSION_COOKIE, sessionId, SESSION_LIFETIME_S);
export const clearedPreSessionCookie = () => hostCookie(PRE_SESSION_COOKIE, '', 0);

/** A page form's fields; a body that is not a form is an error page. */
export function pageForm(req: ApiRequest): Map<string, string> {
  const parsed = parseForm(req.headers.get('content-type'), req.rawBody);
  if (!parsed.ok) throw new PageError(400, 'The form could not be read', parsed.detail);
  return parsed.form;
}

/** A form without the CSRF token its cookie binds: forged, or from a page whose cookie is gone. */
export const staleForm = () =>
  new PageError(403, 'This form has expired', 'The form was not sent from this site, or it is too old. Go back to the application and start again.');
