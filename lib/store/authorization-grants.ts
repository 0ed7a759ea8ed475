// The authorization code flow's items: authorization codes, grants (token families) and refresh
// tokens. Codes and refresh tokens are looked up by the SHA-256 of what the client holds (the table
// never holds the token itself); the grant is the one item every token of a family checks, so
// revoking it ends all of them at once (lib/auth/bearer.ts reads it on every request).
//
// Items:
//   authorizationCode { workspaceId, clientId, memberId, redirectUri, codeChallenge?, scopes, audience,
//                       grantId, createdAt, expiresAt, usedAt?, ttl }
//   oauthGrant        { grantId, workspaceId, clientId, memberId, scopes, audience, createdAt, expiresAt, revokedAt?, ttl }
//   refreshToken      { workspaceId, clientId, grantId, createdAt, expiresAt, usedAt?, ttl }
import { getItem, putItem, transactWrite, updateItem } from './calls.ts';
import { credentialItem, type Credential } from './credentials.ts';
import { AlreadyUsed, GrantRevoked, isCancellation, isConditionFailed } from './errors.ts';
import * as keys from './keys.ts';
import type { ItemKey } from './keys.ts';
import type { StoredItem } from './query.ts';
import { tableName } from './table.ts';
import type { Scope } from '../domain/scopes.ts';

interface AuthorizationCode {
  workspaceId: string;
  clientId: string;
  memberId: string;
  redirectUri: string;
  codeChallenge?: string;
  scopes: Scope[];
  audience: string;
  /** The grant its redemption creates: known in advance, so a replayed code can revoke it. */
  grantId: string;
  createdAt: string;
  expiresAt: string;
  usedAt?: string;
}

export interface Grant {
  grantId: string;
  workspaceId: string;
  clientId: string;
  memberId: string;
  scopes: Scope[];
  audience: string;
  createdAt: string;
  /** The refresh tokens' end: 30 days from the grant, however often they rotate. */
  expiresAt: string;
  revokedAt?: string;
}

export interface RefreshToken {
  workspaceId: string;
  clientId: string;
  grantId: string;
  createdAt: string;
  expiresAt: string;
  usedAt?: string;
}

/** A used code or refresh token stays readable a while after it stops working, so its replay is recognised. */
const REPLAY_MEMORY_S = 24 * 3600;
const epoch = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

/** A record's fields from its item (keys, kind and ttl stay behind); optional ones only when set. */
function record<T>(item: StoredItem, fields: ReadonlyArray<keyof T & string>, optional: ReadonlyArray<keyof T & string>): T {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = item[f];
  for (const f of optional) if (item[f] !== undefined) out[f] = item[f];
  return out as T;
}

const toCode = (item: StoredItem) =>
  record<AuthorizationCode>(
    item,
    ['workspaceId', 'clientId', 'memberId', 'redirectUri', 'scopes', 'audience', 'grantId', 'createdAt', 'expiresAt'],
    ['codeChallenge', 'usedAt'],
  );
const toGrant = (item: StoredItem) =>
  record<Grant>(item, ['grantId', 'workspaceId', 'clientId', 'memberId', 'scopes', 'audience', 'createdAt', 'expiresAt'], ['revokedAt']);
const toRefresh = (item: StoredItem) => record<RefreshToken>(item, ['workspaceId', 'clientId', 'grantId', 'createdAt', 'expiresAt'], ['usedAt']);

const grantItem = (g: Grant) => ({ ...keys.oauthGrant(g.workspaceId, g.grantId), kind: 'oauthGrant', ...g, ttl: epoch(g.expiresAt) + REPLAY_MEMORY_S });
const refreshItem = (hash: string, r: RefreshToken) => ({ ...keys.refreshToken(hash), kind: 'refreshToken', ...r, ttl: epoch(r.expiresAt) + REPLAY_MEMORY_S });

async function readItem(key: ItemKey): Promise<StoredItem | undefined> {
  const { Item } = await getItem({ TableName: tableName(), Key: key, ConsistentRead: true });
  return Item;
}

export async function saveAuthorizationCode(codeHash: string, code: AuthorizationCode): Promise<void> {
  await putItem({
    TableName: tableName(),
    Item: { ...keys.authorizationCode(codeHash), kind: 'authorizationCode', ...code, ttl: epoch(code.expiresAt) + REPLAY_MEMORY_S },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
}

export async function getAuthorizationCode(codeHash: string): Promise<AuthorizationCode | undefined> {
  const item = await readItem(keys.authorizationCode(codeHash));
  return item ? toCode(item) : undefined;
}

export async function getGrant(workspaceId: string, grantId: string): Promise<Grant | undefined> {
  const item = await readItem(keys.oauthGrant(workspaceId, grantId));
  return item ? toGrant(item) : undefined;
}

export async function getRefreshToken(tokenHash: string): Promise<RefreshToken | undefined> {
  const item = await readItem(keys.refreshToken(tokenHash));
  return item ? toRefresh(item) : undefined;
}

/** Tokens issued together: the grant's first (or next) refresh token and access token. */
export interface IssuedTokens {
  refreshHash: string;
  refresh: RefreshToken;
  access: Credential;
}

/** A single-use item's first use: the write fails if it is missing or already used. */
const markUsed = (key: Record<string, string>, now: Date, extraCondition = '') => ({
  Update: {
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'SET usedAt = :now',
    ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(usedAt)${extraCondition}`,
    ExpressionAttributeValues: { ':now': now.toISOString() },
  },
});

/**
 * Redeems a code once: marks it used, creates its grant and the first tokens, all or nothing. A
 * code already used (a concurrent redemption won) is AlreadyUsed.
 */
export async function redeemAuthorizationCode(codeHash: string, now: Date, grant: Grant, tokens: IssuedTokens): Promise<void> {
  try {
    await transactWrite({
      TransactItems: [
        markUsed(keys.authorizationCode(codeHash), now, ' AND expiresAt > :now'),
        { Put: { TableName: tableName(), Item: grantItem(grant), ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName(), Item: refreshItem(tokens.refreshHash, tokens.refresh), ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName(), Item: credentialItem(tokens.access), ConditionExpression: 'attribute_not_exists(pk)' } },
      ],
    });
  } catch (err) {
    if (isCancellation(err) && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
      throw new AlreadyUsed('authorization code');
    }
    throw err;
  }
}

/**
 * Rotates a refresh token: marks it used, issues its successor and a new access token, while the
 * grant is not revoked. AlreadyUsed when another request used it first; GrantRevoked when the
 * family was revoked meanwhile.
 */
export async function rotateRefreshToken(oldHash: string, now: Date, grant: Grant, tokens: IssuedTokens): Promise<void> {
  try {
    await transactWrite({
      TransactItems: [
        markUsed(keys.refreshToken(oldHash), now),
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: keys.oauthGrant(grant.workspaceId, grant.grantId),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
          },
        },
        { Put: { TableName: tableName(), Item: refreshItem(tokens.refreshHash, tokens.refresh), ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName(), Item: credentialItem(tokens.access), ConditionExpression: 'attribute_not_exists(pk)' } },
      ],
    });
  } catch (err) {
    if (isCancellation(err)) {
      const [old, family] = err.CancellationReasons ?? [];
      if (old?.Code === 'ConditionalCheckFailed') throw new AlreadyUsed('refresh token');
      if (family?.Code === 'ConditionalCheckFailed') throw new GrantRevoked(grant.grantId);
    }
    throw err;
  }
}

/**
 * Revokes a grant: every access and refresh token of the family stops working on its next use.
 * False when there is no such grant (e.g. a replayed code whose first redemption never completed).
 */
export async function revokeGrant(workspaceId: string, grantId: string, now = new Date()): Promise<boolean> {
  try {
    await updateItem({
      TableName: tableName(),
      Key: keys.oauthGrant(workspaceId, grantId),
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': now.toISOString() },
    });
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}
