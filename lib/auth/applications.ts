// Application management as the HTTP endpoints and the admin CLI both use it: validate, store,
// and shape the public view. Refusals are the domain's typed errors, located in the request body.
import type * as z from 'zod/mini';
import { MAX_KEYS_PER_APPLICATION, parseRsaPublicKey, PublicKeyRejected } from './rsa-public-key.ts';
import { applicationNotFound } from '../domain/applications.ts';
import { Conflict, InvalidInput, pointer } from '../domain/errors.ts';
import type { Application as ApplicationSchema, ApplicationInput, ApplicationKey } from '../domain/schemas/applications.ts';
import { addApplicationKey, createApplication, getApplication, type Application, type StoredKey } from '../store/applications.ts';
import { DuplicateKey, KeyLimitReached } from '../store/errors.ts';

/** What the admin endpoints answer: the shapes of lib/domain/schemas/applications.ts. */
export type KeyView = z.output<typeof ApplicationKey>;
export type ApplicationView = z.output<typeof ApplicationSchema>;

export const keyView = (k: StoredKey): KeyView => ({ id: k.id, fingerprint: k.fingerprint, bits: k.bits, createdAt: k.createdAt });

export const applicationView = (app: Application): ApplicationView => ({
  clientId: app.clientId,
  name: app.name,
  scopes: app.scopes,
  defaultScopes: app.defaultScopes,
  keys: app.keys.map(keyView),
  createdAt: app.createdAt,
});

/** A registration its schema (CreateApplicationBody) has already checked. */
export async function registerApplication(workspaceId: string, input: ApplicationInput): Promise<ApplicationView> {
  return applicationView(await createApplication(workspaceId, input));
}

const PUBLIC_KEY = pointer(['publicKey']);

/** An uploaded PEM (its body's schema, AddKeyBody, has checked it is text). */
export async function uploadKey(workspaceId: string, clientId: string, publicKey: string): Promise<KeyView> {
  // An unknown application is a NotFound before the key is judged: its existence is the first fact.
  if (!(await getApplication(workspaceId, clientId))) throw applicationNotFound(clientId);
  let key;
  try {
    key = parseRsaPublicKey(publicKey);
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
