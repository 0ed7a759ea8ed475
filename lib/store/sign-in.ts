// What the browser sign-in keeps: members' password hashes, sessions, and failed-attempt counters.
//
// Items:
//   memberPassword  { memberId, hash (lib/auth/passwords.ts format), setAt }            under the workspace
//   signInSession   { workspaceId, memberId, createdAt, expiresAt, ttl }                 by SHA-256 of the session id
//   signInFailures  { n, ttl }  per (workspace, e-mail) and per source address, per window
import { batchGetByKey, itemKeyId } from './batch.ts';
import { getItem, putItem, transactWrite, updateItem } from './calls.ts';
import { isCancellation } from './errors.ts';
import * as keys from './keys.ts';
import type { ItemKey } from './keys.ts';
import { tableName } from './table.ts';
import { NotFound } from '../domain/errors.ts';
import type { WindowCounts } from '../domain/sliding-window.ts';

interface SignInSession {
  workspaceId: string;
  memberId: string;
  createdAt: string;
  expiresAt: string;
}

/** Sets (or replaces) a member's password hash; the member must exist. */
export async function setMemberPassword(workspaceId: string, memberId: string, hash: string): Promise<void> {
  try {
    await transactWrite({
      TransactItems: [
        { ConditionCheck: { TableName: tableName(), Key: keys.member(workspaceId, memberId), ConditionExpression: 'attribute_exists(pk)' } },
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.memberPassword(workspaceId, memberId), kind: 'memberPassword', memberId, hash, setAt: new Date().toISOString() },
          },
        },
      ],
    });
  } catch (err) {
    if (isCancellation(err) && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
      throw new NotFound('member', memberId, `No member ${memberId} in workspace ${workspaceId}`);
    }
    throw err;
  }
}

export async function getMemberPasswordHash(workspaceId: string, memberId: string): Promise<string | undefined> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.memberPassword(workspaceId, memberId), ConsistentRead: true });
  const hash = (Item as { hash?: unknown } | undefined)?.hash;
  return typeof hash === 'string' ? hash : undefined;
}

export async function createSession(idHash: string, session: SignInSession): Promise<void> {
  await putItem({
    TableName: tableName(),
    Item: { ...keys.signInSession(idHash), kind: 'signInSession', ...session, ttl: Math.ceil(Date.parse(session.expiresAt) / 1000) },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
}

/** The session, unless it does not exist or has expired (TTL deletion is lazy). */
export async function getSession(idHash: string, now = new Date()): Promise<SignInSession | undefined> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.signInSession(idHash), ConsistentRead: true });
  const session = Item as SignInSession | undefined;
  if (!session || Date.parse(session.expiresAt) <= now.getTime()) return undefined;
  return { workspaceId: session.workspaceId, memberId: session.memberId, createdAt: session.createdAt, expiresAt: session.expiresAt };
}

/** Failed attempts for this e-mail in this workspace, and from this source address: in the window and the one before it. */
interface FailureCounters {
  email: WindowCounts;
  address: WindowCounts;
}

type CounterKeys = { email: ItemKey; address: ItemKey };

const counterKeys = (workspaceId: string, emailHash: string, addressHash: string, window: number): CounterKeys => ({
  email: keys.signInFailuresOfEmail(workspaceId, emailHash, window),
  address: keys.signInFailuresOfAddress(addressHash, window),
});

export async function readSignInFailures(workspaceId: string, emailHash: string, addressHash: string, window: number): Promise<FailureCounters> {
  const now = counterKeys(workspaceId, emailHash, addressHash, window);
  const before = counterKeys(workspaceId, emailHash, addressHash, window - 1);
  // A throttled read must not read as "no failures": batchGetByKey reads again until all are read, or refuses (429).
  const items = await batchGetByKey([now.email, now.address, before.email, before.address], { consistent: true });
  const count = (key: ItemKey) => Number((items.get(itemKeyId(key)) as { n?: number } | undefined)?.n ?? 0);
  return {
    email: { current: count(now.email), previous: count(before.email) },
    address: { current: count(now.address), previous: count(before.address) },
  };
}

/** Counts one failed attempt against both the e-mail and the address; the counters expire once no window reads them. */
export async function recordSignInFailure(workspaceId: string, emailHash: string, addressHash: string, window: number, expiresAtEpoch: number): Promise<void> {
  const k = counterKeys(workspaceId, emailHash, addressHash, window);
  const bump = (key: ItemKey) =>
    updateItem({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'ADD n :one SET kind = :kind, #ttl = :ttl',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':kind': 'signInFailures', ':ttl': expiresAtEpoch },
    });
  await Promise.all([bump(k.email), bump(k.address)]);
}
