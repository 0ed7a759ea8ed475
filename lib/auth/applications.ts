// Application management as the HTTP endpoints and the admin CLI both use it: validate, store,
// and shape the public view. Refusals are the domain's typed errors, located in the request body.
// A confidential authorization-code client gets its secret once, in the registration's answer.
import { randomToken } from './oauth-tokens.ts';
import { MAX_KEYS_PER_APPLICATION, parseRsaPublicKey, PublicKeyRejected } from './rsa-public-key.ts';
import { AddKeyBody, applicationNotFound, firstIssue, parseApplicationInput } from '../domain/applications.ts';
import { Conflict, InvalidInput, pointer } from '../domain/errors.ts';
import { addApplicationKey, createApplication, getApplication, type Application, type StoredKey } from '../store/applications.ts';
import { hashToken } from '../store/credentials.ts';
import { DuplicateKey, KeyLimitReached } from '../store/errors.ts';

export interface KeyView {
  id: string;
  fingerprint: string;
  bits: number;
  createdAt: string;
}

interface CommonView {
  clientId: string;
  name: string;
  scopes: string[];
  defaultScopes: string[];
  createdAt: string;
}

export type ApplicationView =
  | (CommonView & { type: 'serverToServer'; keys: KeyView[] })
  | (CommonView & { type: 'authorizationCode'; redirectUris: string[]; public: boolean });

export const keyView = (k: StoredKey): KeyView => ({ id: k.id, fingerprint: k.fingerprint, bits: k.bits, createdAt: k.createdAt });

export function applicationView(app: Application): ApplicationView {
  const common = { name: app.name, scopes: app.scopes, defaultScopes: app.defaultScopes };
  return app.type === 'serverToServer'
    ? { clientId: app.clientId, type: app.type, ...common, keys: app.keys.map(keyView), createdAt: app.createdAt }
    : { clientId: app.clientId, type: app.type, ...common, redirectUris: app.redirectUris, public: app.public, createdAt: app.createdAt };
}

/** The registration's answer: the view, plus — once, never again — a confidential client's secret. */
export async function registerApplication(workspaceId: string, body: unknown): Promise<ApplicationView & { clientSecret?: string }> {
  const input = parseApplicationInput(body);
  const clientSecret = input.type === 'authorizationCode' && !input.public ? randomToken() : undefined;
  const app = await createApplication(workspaceId, input, clientSecret && hashToken(clientSecret));
  return { ...applicationView(app), ...(clientSecret ? { clientSecret } : {}) };
}

const PUBLIC_KEY = pointer(['publicKey']);

export async function uploadKey(workspaceId: string, clientId: string, body: unknown): Promise<KeyView> {
  const parsed = AddKeyBody.safeParse(body);
  if (!parsed.success) throw firstIssue(parsed.error);
  // An unknown application is a NotFound before the key is judged: its existence is the first fact.
  const app = await getApplication(workspaceId, clientId);
  if (!app) throw applicationNotFound(clientId);
  if (app.type !== 'serverToServer') {
    throw new InvalidInput('Applications of type authorizationCode authenticate with a client secret or PKCE; public keys are for serverToServer applications.');
  }
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
