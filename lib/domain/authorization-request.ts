// The authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 8707 §2), judged in the order that
// keeps it safe: until the client and its redirect URI are known to be genuine, nothing is sent to
// the redirect URI — a problem there is shown on an error page, never redirected (RFC 6749
// §4.1.2.1, the open-redirect rule). After that, problems go back to the client as `error=...`.
import { isS256Challenge, PKCE_METHOD } from './pkce.ts';
import { isRegisteredRedirectUri } from './redirect-uris.ts';
import { parseScopes, ROLE_SCOPES, type Role, type Scope } from './scopes.ts';

/** What the rules need to know of the application a `client_id` names. */
export interface AuthorizationClient {
  clientId: string;
  type: 'serverToServer' | 'authorizationCode';
  redirectUris: readonly string[];
  public: boolean;
  scopes: readonly Scope[];
  defaultScopes: readonly Scope[];
}

/** A request that passed every rule: what the consent page shows and the code will carry. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  /** Requested scopes (the application's defaults when the request names none), all allowed to the application. */
  scopes: Scope[];
  state?: string;
  /** S256 challenge, required of public clients. */
  codeChallenge?: string;
  /** The resource the tokens will be for (RFC 8707): their `aud`. */
  audience: string;
}

/** RFC 6749 §4.1.2.1 error codes, plus RFC 8707's invalid_target. */
export type AuthorizationErrorCode =
  'invalid_request' | 'unauthorized_client' | 'access_denied' | 'unsupported_response_type' | 'invalid_scope' | 'server_error' | 'invalid_target';

export type AuthorizationCheck =
  | { kind: 'valid'; request: AuthorizationRequest }
  /** Shown on an error page: the redirect URI cannot be trusted. */
  | { kind: 'page'; problem: string }
  /** Sent to the (verified) redirect URI as error, error_description and state. */
  | { kind: 'redirect'; redirectUri: string; error: AuthorizationErrorCode; description: string; state?: string };

export const MAX_STATE_LENGTH = 1024;
const MAX_SCOPE_PARAMETER_LENGTH = 1024;
const MAX_CLIENT_ID_LENGTH = 100;

/** Parameters this endpoint reads; each may appear once (RFC 6749 §3.1). Others are ignored, as §3.1 requires. */
const KNOWN = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'request',
  'request_uri',
] as const;

const quoted = (value: string, max = 100) => JSON.stringify(value.length > max ? value.slice(0, max) + '…' : value);

type Params = ReadonlyArray<readonly [string, string]>;

function collect(params: Params) {
  const values = new Map<string, string[]>();
  for (const [name, value] of params) if ((KNOWN as readonly string[]).includes(name)) values.set(name, [...(values.get(name) ?? []), value]);
  return {
    values,
    one: (name: (typeof KNOWN)[number]) => values.get(name)?.[0],
    repeated: (name: (typeof KNOWN)[number]) => (values.get(name)?.length ?? 0) > 1,
  };
}

/** The client_id to look up: present once and of a plausible length, else undefined (the check then says why). */
export function requestedClientId(params: Params): string | undefined {
  const { one, repeated } = collect(params);
  const clientId = one('client_id');
  return clientId && !repeated('client_id') && clientId.length <= MAX_CLIENT_ID_LENGTH ? clientId : undefined;
}

/**
 * Judges an authorization request. `client` is the application requestedClientId() named
 * (undefined when none or unknown); `audiences` are the resources tokens may be issued for, the
 * first being the default.
 */
export function checkAuthorizationRequest(
  params: Params,
  client: AuthorizationClient | undefined,
  audiences: readonly [string, ...string[]],
): AuthorizationCheck {
  const { values, one, repeated } = collect(params);

  // 1. The client and the redirect URI: any doubt here is an error page.
  const clientId = one('client_id');
  if (clientId === undefined || clientId === '') return { kind: 'page', problem: 'The request names no application (client_id is missing).' };
  if (repeated('client_id')) return { kind: 'page', problem: 'The request names the application (client_id) more than once.' };
  if (!client || client.clientId !== clientId) return { kind: 'page', problem: `No application is registered with the client_id ${quoted(clientId)}.` };
  if (client.type !== 'authorizationCode') {
    return { kind: 'page', problem: 'This application is a server-to-server integration; it cannot ask members for access through this page.' };
  }
  const redirectUri = one('redirect_uri');
  if (redirectUri === undefined || redirectUri === '')
    return { kind: 'page', problem: 'The request has no redirect_uri; the application must name one of its registered redirect URIs.' };
  if (repeated('redirect_uri')) return { kind: 'page', problem: 'The request names redirect_uri more than once.' };
  if (!isRegisteredRedirectUri(client.redirectUris, redirectUri)) {
    return { kind: 'page', problem: `The redirect_uri ${quoted(redirectUri)} is not registered for this application; it must match a registered URI exactly.` };
  }

  // 2. Everything else is the client's to hear about.
  const rawState = one('state');
  const state = rawState !== undefined && rawState.length <= MAX_STATE_LENGTH && !repeated('state') ? rawState : undefined;
  const refuse = (error: AuthorizationErrorCode, description: string): AuthorizationCheck => ({
    kind: 'redirect',
    redirectUri,
    error,
    description,
    ...(state !== undefined ? { state } : {}),
  });

  const twice = KNOWN.find(repeated);
  if (twice) return refuse('invalid_request', `The parameter ${twice} appears more than once.`);
  if (rawState !== undefined && rawState.length > MAX_STATE_LENGTH) return refuse('invalid_request', `state is longer than ${MAX_STATE_LENGTH} characters.`);
  if (values.has('request')) return refuse('invalid_request', 'Request objects (the request parameter) are not supported.');
  if (values.has('request_uri')) return refuse('invalid_request', 'The request_uri parameter is not supported.');

  const responseType = one('response_type');
  if (responseType === undefined || responseType === '') return refuse('invalid_request', 'response_type is missing; it must be code.');
  if (responseType !== 'code') return refuse('unsupported_response_type', `response_type ${quoted(responseType)} is not supported; it must be code.`);

  const challenge = one('code_challenge');
  const method = one('code_challenge_method');
  if (challenge === undefined) {
    if (method !== undefined) return refuse('invalid_request', 'code_challenge_method is given without a code_challenge.');
    if (client.public)
      return refuse('invalid_request', 'This application is a public client: it must use PKCE (code_challenge with code_challenge_method=S256).');
  } else {
    if (method === undefined) return refuse('invalid_request', 'code_challenge_method is missing; the plain method is not accepted, use S256.');
    if (method !== PKCE_METHOD) return refuse('invalid_request', `code_challenge_method ${quoted(method, 20)} is not accepted; use S256.`);
    if (!isS256Challenge(challenge)) return refuse('invalid_request', 'code_challenge is not an S256 challenge (43 base64url characters).');
  }

  const scopeParam = one('scope');
  let scopes: Scope[];
  if (scopeParam === undefined) {
    scopes = [...client.defaultScopes];
  } else {
    if (scopeParam.length > MAX_SCOPE_PARAMETER_LENGTH) return refuse('invalid_scope', `scope is longer than ${MAX_SCOPE_PARAMETER_LENGTH} characters.`);
    const parsed = parseScopes(scopeParam);
    if (parsed.unknown.length > 0) return refuse('invalid_scope', `Unknown scope ${quoted(parsed.unknown[0]!, 64)}.`);
    if (parsed.scopes.length === 0) return refuse('invalid_scope', 'scope names no scope.');
    const beyond = parsed.scopes.filter((s) => !client.scopes.includes(s));
    if (beyond.length > 0) return refuse('invalid_scope', `The application may not ask for ${beyond.join(', ')}.`);
    scopes = parsed.scopes;
  }

  const resource = one('resource');
  if (resource !== undefined && !audiences.includes(resource)) {
    return refuse('invalid_target', `resource ${quoted(resource)} is not a resource this service issues tokens for.`);
  }

  return {
    kind: 'valid',
    request: {
      clientId: client.clientId,
      redirectUri,
      scopes,
      ...(state !== undefined ? { state } : {}),
      ...(challenge !== undefined ? { codeChallenge: challenge } : {}),
      audience: resource ?? audiences[0],
    },
  };
}

/**
 * What the member's consent can grant: the requested scopes their role permits. The rest are
 * withheld (and named on the consent page); a token never exceeds its member's role.
 */
export function consentScopes(requested: readonly Scope[], role: Role): { granted: Scope[]; withheld: Scope[] } {
  return {
    granted: requested.filter((s) => ROLE_SCOPES[role].includes(s)),
    withheld: requested.filter((s) => !ROLE_SCOPES[role].includes(s)),
  };
}
