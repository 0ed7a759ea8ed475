// Client authentication at the token and revocation endpoints (RFC 6749 §2.3, RFC 7009 §2.1):
// client_secret_basic, client_secret_post, or none (a public client names itself with client_id
// and proves possession through PKCE). One method per request; every refusal is invalid_client
// (401), unauthorized_client for a server-to-server application, or invalid_request when malformed.
import { timingSafeEqual } from 'node:crypto';
import { OAuthError } from './oauth-errors.ts';
import { findApplicationByClientId, type Application } from '../store/applications.ts';
import { hashToken } from '../store/credentials.ts';

type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';
export const CLIENT_AUTH_METHODS: readonly ClientAuthMethod[] = ['client_secret_basic', 'client_secret_post', 'none'];

interface PresentedClient {
  clientId: string;
  method: ClientAuthMethod;
  secret?: string;
}

/** What the check needs of the application a client id names. */
export interface AuthenticatableClient {
  clientId: string;
  type: 'serverToServer' | 'authorizationCode';
  public: boolean;
  /** SHA-256 of the client secret (confidential clients). */
  secretHash?: string;
}

const MAX_CREDENTIAL_LENGTH = 512;

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64. */
function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

function fromBasic(authorization: string): { clientId: string; secret: string } {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization);
  if (!match)
    throw new OAuthError(
      'invalid_client',
      'The Authorization header is not HTTP Basic credentials; send client_secret_basic, or the client_id (and client_secret) in the form.',
    );
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) throw new OAuthError('invalid_client', 'The Basic credentials have no colon between client id and secret.');
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'The Basic credentials are not valid form-urlencoded text.');
  }
}

/** Who the request says it is, and how it proves it; nothing is looked up yet. */
export function presentedClient(authorization: string | undefined, form: ReadonlyMap<string, string>): PresentedClient {
  const formId = form.get('client_id');
  const formSecret = form.get('client_secret');
  let presented: PresentedClient;
  if (authorization !== undefined && authorization.trim() !== '') {
    if (formSecret !== undefined)
      throw new OAuthError('invalid_request', 'The client authenticated twice (Basic credentials and client_secret); use one method.');
    const basic = fromBasic(authorization);
    if (formId !== undefined && formId !== basic.clientId)
      throw new OAuthError('invalid_request', 'client_id in the form differs from the client id of the Basic credentials.');
    presented = { clientId: basic.clientId, secret: basic.secret, method: 'client_secret_basic' };
  } else if (formId === undefined || formId === '') {
    throw new OAuthError('invalid_client', 'No client authentication: send Basic credentials, or client_id (with client_secret for a confidential client).');
  } else {
    presented = formSecret === undefined ? { clientId: formId, method: 'none' } : { clientId: formId, secret: formSecret, method: 'client_secret_post' };
  }
  if (presented.clientId.length > MAX_CREDENTIAL_LENGTH || (presented.secret?.length ?? 0) > MAX_CREDENTIAL_LENGTH) {
    throw new OAuthError('invalid_client', 'The client credentials are too long.');
  }
  return presented;
}

/**
 * Checks the presented credentials against the application (undefined: no such client). A
 * confidential client must present its secret; a public client has none and must not send one.
 * `hash` is how secrets are stored (lib/store/credentials.ts hashToken).
 */
export function authenticateClient(
  presented: PresentedClient,
  app: AuthenticatableClient | undefined,
  hash: (secret: string) => string,
): AuthenticatableClient {
  if (!app) throw new OAuthError('invalid_client', 'Client authentication failed: unknown client.', 'unknown client id');
  if (app.type !== 'authorizationCode')
    throw new OAuthError(
      'unauthorized_client',
      'This client is a server-to-server application: it uses the JWT bearer grant at /oauth2/token, not this endpoint.',
    );
  if (app.public) {
    if (presented.method !== 'none')
      throw new OAuthError('invalid_client', 'Client authentication failed: this is a public client, which has no secret; send only client_id.');
    return app;
  }
  if (presented.method === 'none' || presented.secret === undefined)
    throw new OAuthError('invalid_client', 'Client authentication failed: this confidential client must authenticate with its client secret.');
  const expected = Buffer.from(app.secretHash ?? '');
  const given = Buffer.from(hash(presented.secret));
  if (expected.length === 0 || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new OAuthError('invalid_client', 'Client authentication failed: wrong client secret.', 'secret mismatch');
  }
  return app;
}

/** The request's client, authenticated against the application its client id names. */
export async function authenticatedClient(authorization: string | undefined, form: ReadonlyMap<string, string>): Promise<Application> {
  const presented = presentedClient(authorization, form);
  const app = await findApplicationByClientId(presented.clientId);
  authenticateClient(
    presented,
    app && { clientId: app.clientId, type: app.type, public: app.public, ...(app.secretHash ? { secretHash: app.secretHash } : {}) },
    hashToken,
  );
  return app!;
}
