// OAuth applications. One item per application at keys.application(ws, clientId) holds, for a
// server-to-server one, its public keys (a map keyed by key id, bounded) so the token endpoint reads
// everything in one item; for an authorization-code one, its redirect URIs and the hash of its
// client secret. Deleting that item revokes every access token it minted (lib/auth/bearer.ts
// checks it). A global item at keys.clientIdIndex(clientId) names the workspace of a client id, and
// the origins of redirect URIs are registered for CORS (lib/store/cors-origins.ts) in step.
//
// Item: { kind: 'application', clientId, workspaceId, type?, name, scopes, defaultScopes, createdAt,
//         publicKeys: { [keyId]: StoredKey }, fingerprints: { [fingerprint]: keyId },
//         redirectUris?, public?, secretHash? }   (no type: serverToServer, as registered before types)
import { randomUUID } from 'node:crypto';
import { getItem, transactWrite, updateItem } from './calls.ts';
import { originRegistrations } from './cors-origins.ts';
import { getDynamicClient, isDynamicClientId, type DynamicClient } from './dynamic-clients.ts';
import { DuplicateKey, isCancellation, isConditionFailed, KeyLimitReached } from './errors.ts';
import { writeOnce, type WriteScope } from './idempotency.ts';
import * as keys from './keys.ts';
import { partitionItems, type StoredItem } from './query.ts';
import { tableName } from './table.ts';
import { putInWorkspace } from './workspaces.ts';
import { applicationNotFound, type ApplicationInput, type ApplicationType } from '../domain/applications.ts';
import { redirectOrigins } from '../domain/redirect-uris.ts';
import type { Scope } from '../domain/scopes.ts';

export interface StoredKey {
  id: string;
  /** SPKI PEM (normalised). */
  pem: string;
  fingerprint: string;
  bits: number;
  createdAt: string;
}

export interface Application {
  clientId: string;
  /** Empty for a self-registered client (lib/store/dynamic-clients.ts): it belongs to no workspace. */
  workspaceId: string;
  /** Registered dynamically (RFC 7591) by the client itself: unverified, public, in no workspace. */
  selfRegistered?: true;
  type: ApplicationType;
  name: string;
  scopes: Scope[];
  defaultScopes: Scope[];
  createdAt: string;
  /** Oldest first (serverToServer). */
  keys: StoredKey[];
  /** Exact-match redirect URIs (authorizationCode). */
  redirectUris: string[];
  /** A public client: no secret, PKCE required (authorizationCode). */
  public: boolean;
  /** SHA-256 of the client secret (confidential authorizationCode clients). */
  secretHash?: string;
}

/** Client ids and key ids are UUIDs we issue; anything else names nothing and is never sent to the table. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isIssuedId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);

/** The application item's attributes (see the layout above). */
type ApplicationAttributes = Omit<Application, 'keys' | 'type'> & { type?: ApplicationType; publicKeys?: Record<string, StoredKey> };

function toApplication(item: StoredItem): Application {
  const a = item as Partial<ApplicationAttributes>;
  const stored = Object.values(a.publicKeys ?? {});
  return {
    clientId: a.clientId!,
    workspaceId: a.workspaceId!,
    type: a.type ?? 'serverToServer',
    name: a.name!,
    scopes: a.scopes!,
    defaultScopes: a.defaultScopes!,
    createdAt: a.createdAt!,
    keys: stored.sort((x, y) => x.createdAt.localeCompare(y.createdAt) || x.id.localeCompare(y.id)),
    redirectUris: a.redirectUris ?? [],
    public: a.public ?? false,
    ...(a.secretHash ? { secretHash: a.secretHash } : {}),
  };
}

/** Registers an application; `secretHash` for a confidential authorization-code client. */
export async function createApplication(workspaceId: string, input: ApplicationInput, secretHash?: string, scope?: WriteScope): Promise<Application> {
  const app: Application = {
    clientId: randomUUID(),
    workspaceId,
    redirectUris: [],
    public: false,
    ...input,
    createdAt: new Date().toISOString(),
    keys: [],
    ...(secretHash ? { secretHash } : {}),
  };
  const { keys: _none, ...attributes } = app;
  // With an Idempotency-Key, a retry answers the first request's application (lib/store/idempotency.ts):
  // the record holds what the application item holds, the secret's hash only.
  return writeOnce(
    app,
    (record) =>
      putInWorkspace(
        workspaceId,
        [
          { item: { ...keys.application(workspaceId, app.clientId), kind: 'application', ...attributes, publicKeys: {}, fingerprints: {} }, unique: true },
          { item: { ...keys.clientIdIndex(app.clientId), kind: 'clientId', clientId: app.clientId, workspaceId }, unique: true },
        ],
        { also: [...originRegistrations(redirectOrigins(app.redirectUris), app.clientId, 'add'), ...(record ? [record] : [])] },
      ),
    scope,
  );
}

export async function getApplication(workspaceId: string, clientId: string): Promise<Application | undefined> {
  if (!isIssuedId(clientId)) return undefined;
  const { Item } = await getItem({ TableName: tableName(), Key: keys.application(workspaceId, clientId), ConsistentRead: true });
  return Item ? toApplication(Item) : undefined;
}

/**
 * A dynamic client as the authorization code flow sees a client: a public authorization-code
 * application of no workspace (`workspaceId` empty, `selfRegistered` set).
 */
const asApplication = (c: DynamicClient): Application => ({
  clientId: c.clientId,
  workspaceId: '',
  selfRegistered: true,
  type: 'authorizationCode',
  name: c.name,
  scopes: c.scopes,
  defaultScopes: c.scopes,
  createdAt: c.createdAt,
  keys: [],
  redirectUris: c.redirectUris,
  public: true,
});

/**
 * The application a client id names, in whichever workspace it lives (the token endpoint's look-up),
 * or the dynamically registered client it names.
 */
export async function findApplicationByClientId(clientId: string): Promise<Application | undefined> {
  if (isDynamicClientId(clientId)) {
    const client = await getDynamicClient(clientId);
    return client && asApplication(client);
  }
  if (!isIssuedId(clientId)) return undefined;
  const { Item } = await getItem({ TableName: tableName(), Key: keys.clientIdIndex(clientId), ConsistentRead: true });
  return Item ? getApplication((Item as { workspaceId: string }).workspaceId, clientId) : undefined;
}

/** A workspace's applications, oldest first. */
export async function listApplications(workspaceId: string): Promise<Application[]> {
  const items = await partitionItems(workspaceId, keys.applicationsPrefix);
  const apps = items.filter((item) => item.kind === 'application').map(toApplication);
  return apps.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.clientId.localeCompare(b.clientId));
}

/** Deletes the application, its client-id look-up and its CORS origins together; false when there was none. */
export async function deleteApplication(workspaceId: string, clientId: string): Promise<boolean> {
  const app = await getApplication(workspaceId, clientId);
  if (!app) return false;
  try {
    await transactWrite({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: keys.application(workspaceId, clientId), ConditionExpression: 'attribute_exists(pk)' } },
        {
          Delete: {
            TableName: tableName(),
            Key: keys.clientIdIndex(clientId),
            ConditionExpression: 'workspaceId = :ws',
            ExpressionAttributeValues: { ':ws': workspaceId },
          },
        },
        ...originRegistrations(redirectOrigins(app.redirectUris), clientId, 'remove'),
      ],
    });
    return true;
  } catch (err) {
    // Only "there was no such application" is a false; a conflict or throttle is an error.
    if (isCancellation(err) && err.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed')) return false;
    throw err;
  }
}

/**
 * Adds a key unless the application already holds `max` keys or this very key; one conditional
 * update, so concurrent uploads cannot exceed the bound.
 */
export async function addApplicationKey(
  workspaceId: string,
  clientId: string,
  key: { pem: string; fingerprint: string; bits: number },
  max: number,
  scope?: WriteScope,
): Promise<StoredKey> {
  const stored: StoredKey = { id: randomUUID(), ...key, createdAt: new Date().toISOString() };
  if (!isIssuedId(clientId)) throw applicationNotFound(clientId);
  const update = {
    TableName: tableName(),
    Key: keys.application(workspaceId, clientId),
    UpdateExpression: 'SET publicKeys.#id = :key, fingerprints.#fp = :id',
    ConditionExpression: 'attribute_exists(pk) AND size(publicKeys) < :max AND attribute_not_exists(fingerprints.#fp)',
    ExpressionAttributeNames: { '#id': stored.id, '#fp': stored.fingerprint },
    ExpressionAttributeValues: { ':key': stored, ':id': stored.id, ':max': max },
  };
  try {
    // With an Idempotency-Key, a retry answers the first request's key (lib/store/idempotency.ts).
    return await writeOnce(
      stored,
      async (record) => {
        if (record) await transactWrite({ TransactItems: [{ Update: update }, record] });
        else await updateItem(update);
      },
      scope,
    );
  } catch (err) {
    const updateFailed = isConditionFailed(err) || (isCancellation(err) && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed');
    if (!updateFailed) throw err;
    // Which condition failed: read back (the answer only words the refusal).
    const app = await getApplication(workspaceId, clientId);
    if (!app) throw applicationNotFound(clientId);
    const same = app.keys.find((k) => k.fingerprint === key.fingerprint);
    if (same) throw new DuplicateKey(same.id);
    throw new KeyLimitReached(max);
  }
}

/** Removes a key; false when the application or the key does not exist. */
export async function removeApplicationKey(workspaceId: string, clientId: string, keyId: string): Promise<boolean> {
  if (!isIssuedId(keyId)) return false;
  const app = await getApplication(workspaceId, clientId);
  const key = app?.keys.find((k) => k.id === keyId);
  if (!key) return false;
  try {
    await updateItem({
      TableName: tableName(),
      Key: keys.application(workspaceId, clientId),
      UpdateExpression: 'REMOVE publicKeys.#id, fingerprints.#fp',
      ConditionExpression: 'attribute_exists(publicKeys.#id)',
      ExpressionAttributeNames: { '#id': keyId, '#fp': key.fingerprint },
    });
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}
