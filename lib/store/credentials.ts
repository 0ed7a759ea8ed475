// Issued credentials (API tokens and access tokens). Only a SHA-256 of the token is stored:
// a copy of the table cannot be replayed as a credential.
import { createHash, timingSafeEqual } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { keys, type ItemKey } from './keys.ts';
import { toMember, type Member } from './members.ts';
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
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export function tokenMatches(credential: Credential, token: string): boolean {
  const a = Buffer.from(credential.hash);
  const b = Buffer.from(hashToken(token));
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function putCredential(credential: Credential): Promise<void> {
  const ttl = credential.expiresAt ? Math.ceil(Date.parse(credential.expiresAt) / 1000) + 86_400 : undefined;
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.credential(credential.id), type: 'credential', ...credential, ttl },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** Marks a credential revoked; false when no such credential exists in that workspace. */
export async function revokeCredential(workspaceId: string, tokenId: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.credential(tokenId),
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
        ConditionExpression: 'attribute_exists(pk) AND workspaceId = :ws',
        ExpressionAttributeValues: { ':now': new Date().toISOString(), ':ws': workspaceId },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
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
  };
};

/** What a bearer token's check needs, read together. */
export interface BearerRecords {
  credential: Credential | undefined;
  member: Member | undefined;
  /** Whether the application that minted an access token still exists (undefined: no application asked for). */
  applicationExists: boolean | undefined;
}

/**
 * The credential, its member and (for an access token) its application in one round trip,
 * strongly consistent, so a revocation, a deactivation or a deleted application takes effect on
 * the next request.
 */
export async function readBearerRecords(tokenId: string, workspaceId: string, memberId: string, clientId?: string): Promise<BearerRecords> {
  const wanted: ItemKey[] = [keys.credential(tokenId), keys.member(workspaceId, memberId)];
  if (clientId !== undefined) wanted.push(keys.application(workspaceId, clientId));
  const items: Array<Record<string, unknown>> = [];
  let pending: Array<Record<string, unknown>> = wanted;
  // Unprocessed keys (throttling) are retried briefly; a key never read must not read as "absent".
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt === 4) throw new Error('BatchGetItem left keys unprocessed after 4 attempts');
    if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    const { Responses, UnprocessedKeys } = await db().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }),
    );
    items.push(...(Responses?.[tableName()] ?? []));
    pending = UnprocessedKeys?.[tableName()]?.Keys ?? [];
  }
  const find = (k: ItemKey | undefined) => (k ? items.find((i) => i.pk === k.pk && i.sk === k.sk) : undefined);
  const [credential, member, application] = wanted.map(find);
  return {
    credential: credential && toCredential(credential),
    member: member && toMember(member),
    applicationExists: clientId === undefined ? undefined : application !== undefined,
  };
}
