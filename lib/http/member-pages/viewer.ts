// Who reads a member page: the member the page session cookie names, with the scopes the pages
// derive from their role (lib/domain/member-pages.ts). Without one, the page answers a redirect to
// the sign-in page, which brings the member back here.
import { memberDocument, pageUrl, type Reader } from './layout.ts';
import { pageSessionMember } from '../../auth/page-sessions.ts';
import { pageScopes } from '../../domain/member-pages.ts';
import type { Scope } from '../../domain/scopes.ts';
import type { Member } from '../../store/members.ts';
import { parseCookies, PAGE_SESSION_COOKIE } from '../cookies.ts';
import { csrfToken } from '../csrf.ts';
import { memberBudget, spendBudget } from '../middleware/rate-limit.ts';
import type { Html } from '../pages/html.ts';
import { PageError } from '../pages/page-error.ts';
import type { ApiRequest, ApiResult } from '../request.ts';

export interface Viewer {
  member: Member;
  workspaceId: string;
  scopes: ReadonlySet<Scope>;
  /** For the header: the member's name and the sign-out form's token. */
  reader: Reader;
}

/**
 * The reader of a page, or undefined without a live page session. A page spends one request of its
 * member's budget, the one their API tokens spend (a page can read a few thousand items).
 */
export async function viewerOf(req: ApiRequest): Promise<Viewer | undefined> {
  const sessionId = parseCookies(req.headers.get('cookie')).get(PAGE_SESSION_COOKIE);
  const member = await pageSessionMember(sessionId);
  if (!member || !sessionId) return undefined;
  await spendBudget(req, memberBudget(member.workspaceId, member.id), "this member's pages and API tokens");
  return {
    member,
    workspaceId: member.workspaceId,
    scopes: pageScopes(member.role),
    // A member always sees their own name and address.
    reader: { name: member.name || member.email, csrfToken: await csrfToken({ pageSession: sessionId }) },
  };
}

/** The page's own path and query as the browser asked for it, from the route's parameters (not from a header). */
export function pagePath(path: string, req: ApiRequest): string {
  const query = new URLSearchParams(req.query.entries()).toString();
  return query ? `${path}?${query}` : path;
}

/** 303 to the sign-in page, which comes back to `path` once the member has signed in. */
export const toSignIn = (path: string): ApiResult => ({
  status: 303,
  headers: { Location: pageUrl(`/sign-in?${new URLSearchParams({ next: path }).toString()}`) },
});

/** A page the member's role may not read (the REST route it mirrors would answer 403). */
export function requireScope(viewer: Viewer, scope: Scope, what: string): void {
  if (!viewer.scopes.has(scope)) throw new PageError(403, 'Not available to your role', `Your role (${viewer.member.role}) does not let you read ${what}.`);
}

/** A page as a 200 answer. */
export const pageOk = (viewer: Viewer, title: string, body: Html): ApiResult => ({ status: 200, body: memberDocument(title, body, { reader: viewer.reader }) });
