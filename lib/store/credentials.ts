// Issued credentials (API tokens and access tokens). Only a SHA-256 of the token is stored:
// a copy of the table cannot be replayed as a credential.
import { createHash, timingSafeEqual } from 'node:crypto';
import { itemKeyId, untilProcessed } from './batch.ts';
import { batchGetOnce, putItem, updateItem } from './calls.ts';
import { isDynamicClientId } from './dynamic-clients.ts';
import { isConditionFailed } from './errors.ts';
import * as keys from './keys.ts';
import type { ItemKey } from './keys.ts';
import { toMember, type Member } from './members.ts';
import { ReadAhead } from './preread.ts';
import type { StoredItem } from './query.ts';
import { keysOf, type RecordName } from './record-names.ts';
import { tableName } from './table.ts';
import type { Scope } from '../domain/scopes.ts';

export interface Credential {
  id: string;
  kind: 'api' | 'access';
  workspaceId: string;
  memberId: string;
  scopes: Scope[];
  hash: string;
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
  clientId?: string;
  /** The grant (token family) of an access token from the authorization code flow. */
  grantId?: string;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export function tokenMatches(credential: Credential, token: string): boolean {
  const a = Buffer.from(credential.hash);
  const b = Buffer.from(hashToken(token));
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The credential's item (also written inside the authorization code flow's transactions). */
export function credentialItem(credential: Credential): StoredItem {
  const ttl = credential.expiresAt ? Math.ceil(Date.parse(credential.expiresAt) / 1000) + 86_400 : undefined;
  return { ...keys.credential(credential.id), type: 'credential', ...credential, ttl };
}

export async function putCredential(credential: Credential): Promise<void> {
  await putItem({ TableName: tableName(), Item: credentialItem(credential), ConditionExpression: 'attribute_not_exists(pk)' });
}

/** Marks a credential revoked; false when no such credential exists in that workspace. */
export async function revokeCredential(workspaceId: string, tokenId: string): Promise<boolean> {
  try {
    await updateItem({
      TableName: tableName(),
      Key: keys.credential(tokenId),
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
      ConditionExpression: 'attribute_exists(pk) AND workspaceId = :ws',
      ExpressionAttributeValues: { ':now': new Date().toISOString(), ':ws': workspaceId },
    });
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

const toCredential = (item: Record<string, unknown>): Credential => {
  const c = item as unknown as Credential;
  return {
    id: c.id,
    kind: c.kind,
    workspaceId: c.workspaceId,
    memberId: c.memberId,
    scopes: c.scopes,
    hash: c.hash,
    createdAt: c.createdAt,
    ...(c.expiresAt ? { expiresAt: c.expiresAt } : {}),
    ...(c.revokedAt ? { revokedAt: c.revokedAt } : {}),
    ...(c.clientId ? { clientId: c.clientId } : {}),
    ...(c.grantId ? { grantId: c.grantId } : {}),
  };
};

/** What a bearer token's check needs, read together. */
interface BearerRecords {
  credential: Credential | undefined;
  member: Member | undefined;
  /** Whether the application that minted an access token still exists (undefined: no application asked for). */
  applicationExists: boolean | undefined;
  /** The redirect URIs of that application (browser clients' origins come from them). */
  applicationRedirectUris: string[];
  /** The grant of an authorization-code access token: absent when none was asked for or it is gone. */
  grant: { revokedAt?: string; expiresAt: string } | undefined;
  /** The extra items asked for, as read in the same round trip (those beyond the batch's room are not: their readers read them). */
  preread: ReadAhead | undefined;
}

/** BatchGetItem's limit of keys per call. */
const MAX_BATCH_KEYS = 100;

/**
 * The credential, its member, (for an access token) its application and (for an authorization
 * code flow token) its grant, and the records the handler will read when they are known
 * (`extra`, in the member's workspace, as many as fit in the one BatchGetItem), in one round trip, strongly consistent, so a
 * revocation, a deactivation or a deleted application takes effect on the next request.
 */
export async function readBearerRecords(
  tokenId: string,
  workspaceId: string,
  memberId: string,
  clientId?: string,
  grantId?: string,
  named: readonly RecordName[] = [],
): Promise<BearerRecords> {
  const extra = keysOf(workspaceId, named);
  const wanted: ItemKey[] = [keys.credential(tokenId), keys.member(workspaceId, memberId)];
  // A self-registered client lives apart from the workspace's applications (lib/store/dynamic-clients.ts).
  const appKey = clientId === undefined ? undefined : isDynamicClientId(clientId) ? keys.dynamicClient(clientId) : keys.application(workspaceId, clientId);
  const grantKey = grantId !== undefined ? keys.oauthGrant(workspaceId, grantId) : undefined;
  if (appKey) wanted.push(appKey);
  if (grantKey) wanted.push(grantKey);
  // The handler's items ride along; the caller releases them only once the credential is live.
  // What does not fit in the one call is left out (its reader reads it).
  const asked: ItemKey[] = [];
  const inBatch = new Set(wanted.map(itemKeyId));
  for (const k of extra) {
    if (!inBatch.has(itemKeyId(k))) {
      if (wanted.length === MAX_BATCH_KEYS) continue;
      inBatch.add(itemKeyId(k));
      wanted.push(k);
    }
    asked.push(k);
  }
  const items: StoredItem[] = [];
  // A key never read (throttling) must not read as "absent": read again until none is left, or refuse.
  await untilProcessed('BatchGetItem', wanted as Array<Record<string, unknown>>, async (pending) => {
    const read = await batchGetOnce(pending, { ConsistentRead: true });
    items.push(...(read.items as StoredItem[]));
    return read.unprocessed;
  });
  const find = (k: ItemKey | undefined) => (k ? items.find((i) => i.pk === k.pk && i.sk === k.sk) : undefined);
  const [credential, member, application, grant] = [wanted[0], wanted[1], appKey, grantKey].map(find);
  const g = grant as { revokedAt?: string; expiresAt: string } | undefined;
  return {
    credential: credential && toCredential(credential),
    member: member && toMember(member),
    applicationExists: clientId === undefined ? undefined : application !== undefined,
    applicationRedirectUris: ((application as { redirectUris?: string[] } | undefined)?.redirectUris ?? []).slice(),
    grant: g && { expiresAt: g.expiresAt, ...(g.revokedAt ? { revokedAt: g.revokedAt } : {}) },
    preread: extra.length ? ReadAhead.of(asked, items) : undefined,
  };
}
