// Application management as the HTTP endpoints and the admin CLI both use it: validate, store,
// and shape the public view. Refusals are the domain's typed errors, located in the request body.
import { MAX_KEYS_PER_APPLICATION, parseRsaPublicKey, PublicKeyRejected } from './rsa-public-key.ts';
import { AddKeyBody, applicationNotFound, firstIssue, parseApplicationInput } from '../domain/applications.ts';
import { Conflict, InvalidInput, pointer } from '../domain/errors.ts';
import { addApplicationKey, createApplication, getApplication, type Application, type StoredKey } from '../store/applications.ts';
import { DuplicateKey, KeyLimitReached } from '../store/errors.ts';

export interface KeyView {
  id: string;
  fingerprint: string;
  bits: number;
  createdAt: string;
}

export interface ApplicationView {
  clientId: string;
  name: string;
  scopes: string[];
  defaultScopes: string[];
  keys: KeyView[];
  createdAt: string;
}

export const keyView = (k: StoredKey): KeyView => ({ id: k.id, fingerprint: k.fingerprint, bits: k.bits, createdAt: k.createdAt });

export const applicationView = (app: Application): ApplicationView => ({
  clientId: app.clientId,
  name: app.name,
  scopes: app.scopes,
  defaultScopes: app.defaultScopes,
  keys: app.keys.map(keyView),
  createdAt: app.createdAt,
});

export async function registerApplication(workspaceId: string, body: unknown): Promise<ApplicationView> {
  return applicationView(await createApplication(workspaceId, parseApplicationInput(body)));
}

const PUBLIC_KEY = pointer(['publicKey']);

export async function uploadKey(workspaceId: string, clientId: string, body: unknown): Promise<KeyView> {
  const parsed = AddKeyBody.safeParse(body);
  if (!parsed.success) throw firstIssue(parsed.error);
  // An unknown application is a NotFound before the key is judged: its existence is the first fact.
  if (!(await getApplication(workspaceId, clientId))) throw applicationNotFound(clientId);
  let key;
  try {
    key = parseRsaPublicKey(parsed.data.publicKey);
  } catch (err) {
    if (err instanceof PublicKeyRejected) throw new InvalidInput(err.message, PUBLIC_KEY);
    throw err;
  }
  try {
    return keyView(await addApplicationKey(workspaceId, clientId, key, MAX_KEYS_PER_APPLICATION));
  } catch (err) {
    // The store's refusals, located at the key the request sent.
    if (err instanceof DuplicateKey) throw new Conflict(err.message, PUBLIC_KEY);
    if (err instanceof KeyLimitReached) throw new InvalidInput(err.message, PUBLIC_KEY);
    throw err;
  }
}
