// Application management as the HTTP endpoints and the admin CLI both use it: validate, store,
// and shape the public view. Refusals are the domain's typed errors, located in the request body.
import type * as z from 'zod/mini';
// A confidential authorization-code client gets its secret once, in the registration's answer.
import { lacksScopes } from './errors.ts';
import { randomToken } from './oauth-tokens.ts';
import { MAX_KEYS_PER_APPLICATION, parseRsaPublicKey, PublicKeyRejected } from './rsa-public-key.ts';
import { applicationNotFound } from '../domain/applications.ts';
import { Conflict, InvalidInput, pointer } from '../domain/errors.ts';
import type { Application as ApplicationSchema, ApplicationInput, ApplicationKey, RegisteredApplication } from '../domain/schemas/applications.ts';
import type { Scope } from '../domain/scopes.ts';
import { addApplicationKey, createApplication, getApplication, type Application, type StoredKey } from '../store/applications.ts';
import { hashToken } from '../store/credentials.ts';
import { DuplicateKey, KeyLimitReached } from '../store/errors.ts';
import type { WriteScope } from '../store/idempotency.ts';

/** What the admin endpoints answer: the shapes of lib/domain/schemas/applications.ts. */
type KeyView = z.output<typeof ApplicationKey>;
type ApplicationView = z.output<typeof ApplicationSchema>;
type RegisteredView = z.output<typeof RegisteredApplication>;

const keyView = (k: StoredKey): KeyView => ({ id: k.id, fingerprint: k.fingerprint, bits: k.bits, createdAt: k.createdAt });

export function applicationView(app: Application): ApplicationView {
  const common = { name: app.name, scopes: app.scopes, defaultScopes: app.defaultScopes };
  return app.type === 'serverToServer'
    ? { clientId: app.clientId, type: app.type, ...common, keys: app.keys.map(keyView), createdAt: app.createdAt }
    : { clientId: app.clientId, type: app.type, ...common, redirectUris: app.redirectUris, public: app.public, createdAt: app.createdAt };
}

/** The scopes of the token managing applications; none for the operator's admin CLI. */
type Grantor = { scopes: ReadonlySet<Scope> } | undefined;

/**
 * A token delegates only what it carries: an application it registers, or one it gives a key (the
 * key's holder then acts, for any member, with the application's scopes), may be allowed only scopes
 * the token itself carries. Otherwise a narrow admin token could mint itself a wider one.
 */
function checkDelegable(grantor: Grantor, scopes: readonly Scope[], action: string): void {
  const missing = grantor ? scopes.filter((s) => !grantor.scopes.has(s)) : [];
  if (missing.length > 0) throw lacksScopes(action, missing);
}

/**
 * A registration its schema (CreateApplicationBody) has already checked; the answer holds — once,
 * never again — a confidential client's secret.
 */
export async function registerApplication(workspaceId: string, input: ApplicationInput, scope?: WriteScope, grantor?: Grantor): Promise<RegisteredView> {
  checkDelegable(grantor, input.scopes, 'Registering an application allowed these scopes');
  const clientSecret = input.type === 'authorizationCode' && !input.public ? randomToken() : undefined;
  const app = await createApplication(workspaceId, input, clientSecret && hashToken(clientSecret), scope);
  return { ...applicationView(app), ...(clientSecret ? { clientSecret } : {}) };
}

const PUBLIC_KEY = pointer(['publicKey']);

/** An uploaded PEM (its body's schema, AddKeyBody, has checked it is text). */
export async function uploadKey(workspaceId: string, clientId: string, publicKey: string, scope?: WriteScope, grantor?: Grantor): Promise<KeyView> {
  // An unknown application is a NotFound before the key is judged: its existence is the first fact.
  const app = await getApplication(workspaceId, clientId);
  if (!app) throw applicationNotFound(clientId);
  checkDelegable(grantor, app.scopes, `Adding a key to application ${clientId} (its holder acts with the application's scopes)`);
  if (app.type !== 'serverToServer') {
    throw new InvalidInput(
      'Applications of type authorizationCode authenticate with a client secret or PKCE; public keys are for serverToServer applications.',
    );
  }
  let key;
  try {
    key = parseRsaPublicKey(publicKey);
  } catch (err) {
    if (err instanceof PublicKeyRejected) throw new InvalidInput(err.message, PUBLIC_KEY);
    throw err;
  }
  try {
    return keyView(await addApplicationKey(workspaceId, clientId, key, MAX_KEYS_PER_APPLICATION, scope));
  } catch (err) {
    // The store's refusals, located at the key the request sent.
    if (err instanceof DuplicateKey) throw new Conflict(err.message, PUBLIC_KEY);
    if (err instanceof KeyLimitReached) throw new InvalidInput(err.message, PUBLIC_KEY);
    throw err;
  }
}
