// Dynamically registered clients (RFC 7591), stored apart from the workspaces' applications: one
// global item per client (keys.dynamicClient), in no workspace. A member binds a workspace to what
// the client may do by consenting; the codes, grants and tokens carry that workspace.
import { randomUUID } from 'node:crypto';
import { getItem, transactWrite, updateItem } from './calls.ts';
import { originRegistrations } from './cors-origins.ts';
import * as keys from './keys.ts';
import { tableName } from './table.ts';
import type { ClientRegistration } from '../domain/client-registration.ts';
import { redirectOrigins } from '../domain/redirect-uris.ts';
import type { WindowCounts } from '../domain/sliding-window.ts';

/** Their client ids: a prefix apart from applications' UUIDs, so that a token's client id says where its client lives. */
const PREFIX = 'dyn-';
const ID = /^dyn-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isDynamicClientId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);

export interface DynamicClient extends ClientRegistration {
  clientId: string;
  createdAt: string;
}

/**
 * Stores a registration, and its redirect URIs' origins as CORS origins (./cors-origins.ts) in the
 * same transaction, so that a client running in a browser reaches the token endpoint from its page
 * as soon as it is registered.
 */
export async function registerDynamicClient(registration: ClientRegistration, now = new Date()): Promise<DynamicClient> {
  const client: DynamicClient = { clientId: `${PREFIX}${randomUUID()}`, ...registration, createdAt: now.toISOString() };
  await transactWrite({
    TransactItems: [
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.dynamicClient(client.clientId), kind: 'dynamicClient', ...client },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...originRegistrations(redirectOrigins(client.redirectUris), client.clientId, 'add'),
    ],
  });
  return client;
}

export async function getDynamicClient(clientId: string): Promise<DynamicClient | undefined> {
  if (!isDynamicClientId(clientId)) return undefined;
  const { Item } = await getItem({ TableName: tableName(), Key: keys.dynamicClient(clientId), ConsistentRead: true });
  if (!Item) return undefined;
  const c = Item as DynamicClient;
  return { clientId: c.clientId, name: c.name, redirectUris: c.redirectUris, scopes: c.scopes, createdAt: c.createdAt };
}

/**
 * Counts a registration from an address in its window (an hour), and reads the window before it:
 * the counts of both, this registration included in the current one.
 */
export async function countRegistration(addressHash: string, window: number, expiresAtEpoch: number): Promise<WindowCounts> {
  const [{ Attributes }, { Item }] = await Promise.all([
    updateItem({
      TableName: tableName(),
      Key: keys.registrationWindow(addressHash, window),
      UpdateExpression: 'ADD n :one SET #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':ttl': expiresAtEpoch },
      ReturnValues: 'UPDATED_NEW',
    }),
    getItem({ TableName: tableName(), Key: keys.registrationWindow(addressHash, window - 1), ConsistentRead: true }),
  ]);
  return { current: Number(Attributes?.n ?? 1), previous: Number((Item as { n?: number } | undefined)?.n ?? 0) };
}
