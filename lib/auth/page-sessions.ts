// A member signed in to the member pages (GET {app_url}/, /entities/{id}, /notes/{id},
// /members/{id}): a session of its own, in its own cookie and under its own keys
// (lib/store/page-sessions.ts). It is not the sign-in session of the authorization pages and never
// stands in for it: a consent page asks for the password whatever pages the browser has open.
import { randomToken } from './oauth-tokens.ts';
import { hashToken } from '../store/credentials.ts';
import { getMember, type Member } from '../store/members.ts';
import { createPageSession, deletePageSession, getPageSession } from '../store/page-sessions.ts';

/** How long a page session lasts from sign-in (not extended by use): a working day of reading. */
export const PAGE_SESSION_LIFETIME_S = 8 * 60 * 60;

/** Session ids are 43 characters (randomToken); anything much longer is not one of ours. */
const MAX_SESSION_ID_LENGTH = 128;

/** Starts a session for a member who just signed in; the id goes into the cookie, its hash into the table. */
export async function startPageSession(member: Member, now = new Date()): Promise<string> {
  const id = randomToken();
  await createPageSession(hashToken(id), {
    workspaceId: member.workspaceId,
    memberId: member.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + PAGE_SESSION_LIFETIME_S * 1000).toISOString(),
  });
  return id;
}

/** The active member a page session names, or undefined (no such session, expired, member deactivated or gone). */
export async function pageSessionMember(sessionId: string | undefined): Promise<Member | undefined> {
  if (!sessionId || sessionId.length > MAX_SESSION_ID_LENGTH) return undefined;
  const session = await getPageSession(hashToken(sessionId));
  if (!session) return undefined;
  const member = await getMember(session.workspaceId, session.memberId);
  return member?.active ? member : undefined;
}

export async function endPageSession(sessionId: string): Promise<void> {
  if (sessionId.length <= MAX_SESSION_ID_LENGTH) await deletePageSession(hashToken(sessionId));
}
