// Sessions of the member pages (lib/http/member-pages/): a random id in the browser's cookie, its
// hash here. They live under keys of their own (keys.pageSession), never where the authorization
// pages look for their sign-in sessions (keys.signInSession), so a page session can never stand in
// for the session a consent page requires.
//
// Item: pageSession { workspaceId, memberId, createdAt, expiresAt, ttl }
import { deleteItem, getItem, putItem } from './calls.ts';
import * as keys from './keys.ts';
import { tableName } from './table.ts';

interface PageSession {
  workspaceId: string;
  memberId: string;
  createdAt: string;
  expiresAt: string;
}

export async function createPageSession(idHash: string, session: PageSession): Promise<void> {
  await putItem({
    TableName: tableName(),
    Item: { ...keys.pageSession(idHash), kind: 'pageSession', ...session, ttl: Math.ceil(Date.parse(session.expiresAt) / 1000) },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
}

/** The session, unless it does not exist or has expired (TTL deletion is lazy). */
export async function getPageSession(idHash: string, now = new Date()): Promise<PageSession | undefined> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.pageSession(idHash), ConsistentRead: true });
  const session = Item as (PageSession & { kind?: unknown }) | undefined;
  if (!session || session.kind !== 'pageSession' || Date.parse(session.expiresAt) <= now.getTime()) return undefined;
  return { workspaceId: session.workspaceId, memberId: session.memberId, createdAt: session.createdAt, expiresAt: session.expiresAt };
}

/** Ends a session (sign-out); ending one that is gone already is no error. */
export async function deletePageSession(idHash: string): Promise<void> {
  await deleteItem({ TableName: tableName(), Key: keys.pageSession(idHash) });
}
