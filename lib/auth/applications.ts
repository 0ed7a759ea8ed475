// Application management as the HTTP endpoints and the admin CLI both use it: validate, store,
// and shape the public view. Refusals are ApiErrors (the CLI prints their detail).
import { parseApplicationInput, AddKeyBody, firstIssue, InputRejected } from '../domain/applications.ts';
import { ApiError, pointer } from '../http/errors.ts';
import {
  addApplicationKey,
  ApplicationStoreError,
  createApplication,
  getApplication,
  type Application,
  type StoredKey,
} from '../store/applications.ts';
import { MAX_KEYS_PER_APPLICATION, parseRsaPublicKey, PublicKeyRejected } from './rsa-public-key.ts';

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

export const applicationNotFound = (clientId: string) =>
  new ApiError('resource.notFound', `No application ${JSON.stringify(clientId.slice(0, 100))} in this workspace.`);

export async function registerApplication(workspaceId: string, body: unknown): Promise<ApplicationView> {
  let input;
  try {
    input = parseApplicationInput(body);
  } catch (err) {
    if (err instanceof InputRejected) throw new ApiError('request.invalid', err.message, { source: pointer(err.path) });
    throw err;
  }
  return applicationView(await createApplication(workspaceId, input));
}

export async function uploadKey(workspaceId: string, clientId: string, body: unknown): Promise<KeyView> {
  const parsed = AddKeyBody.safeParse(body);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    throw new ApiError('request.invalid', issue.message, { source: pointer(issue.path) });
  }
  // An unknown application is a 404 before the key is judged: its existence is the first fact.
  if (!(await getApplication(workspaceId, clientId))) throw applicationNotFound(clientId);
  let key;
  try {
    key = parseRsaPublicKey(parsed.data.publicKey);
  } catch (err) {
    if (err instanceof PublicKeyRejected) throw new ApiError('request.invalid', err.message, { source: pointer(['publicKey']) });
    throw err;
  }
  try {
    return keyView(await addApplicationKey(workspaceId, clientId, key, MAX_KEYS_PER_APPLICATION));
  } catch (err) {
    if (!(err instanceof ApplicationStoreError)) throw err;
    if (err.reason === 'applicationNotFound') throw applicationNotFound(clientId);
    if (err.reason === 'duplicateKey') throw new ApiError('conflict.uniqueViolation', err.message, { source: pointer(['publicKey']) });
    throw new ApiError('request.invalid', err.message, { source: pointer(['publicKey']) });
  }
}
