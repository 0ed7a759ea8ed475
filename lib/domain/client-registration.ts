// Dynamic client registration (RFC 7591) of public clients: the metadata a client sends, judged.
// Only what a public client of the authorization code flow with PKCE can be: redirect URIs under
// the same rules as registered applications (./redirect-uris.ts), token_endpoint_auth_method
// `none`, the grant types authorization_code and refresh_token, the response type code. RFC 7591
// §2 has the server ignore metadata it does not understand (client_uri, logo_uri, contacts...):
// those are neither stored nor shown.
import { MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uris.ts';
import { parseScopes, SCOPES, type Scope } from './scopes.ts';
import { slidingWindow, type WindowCounts } from './sliding-window.ts';

const MAX_CLIENT_NAME_LENGTH = 100;
/** Registrations per source address are counted over a sliding hour (./sliding-window.ts). */
export const REGISTRATIONS = slidingWindow(3600);

/**
 * The Retry-After of a registration refused for its address's count, or 0 when it may go ahead:
 * `counts` include this attempt (refused ones count too, so a flood does not wait out its own limit).
 */
export function registrationRefusedFor(counts: WindowCounts, limit: number, nowMs: number): number {
  const before = REGISTRATIONS.secondsUntilBelow({ current: counts.current - 1, previous: counts.previous }, limit, nowMs);
  return before > 0 ? REGISTRATIONS.secondsUntilBelow(counts, limit, nowMs) : 0;
}

export const SUPPORTED_GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

export interface ClientRegistration {
  name: string;
  redirectUris: string[];
  /** What the client may ask for; every scope when it names none. */
  scopes: Scope[];
}

type RegistrationCheck =
  { ok: true; registration: ClientRegistration } | { ok: false; error: 'invalid_redirect_uri' | 'invalid_client_metadata'; description: string };

const refuse = (error: 'invalid_redirect_uri' | 'invalid_client_metadata', description: string): RegistrationCheck => ({ ok: false, error, description });
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

export function checkClientRegistration(body: unknown): RegistrationCheck {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return refuse('invalid_client_metadata', 'The body must be a JSON object of client metadata (RFC 7591 §2).');
  const metadata = body as Record<string, unknown>;
  const uris = metadata.redirect_uris;
  if (!isStringArray(uris) || uris.length === 0) return refuse('invalid_redirect_uri', 'redirect_uris must be a non-empty array of URIs.');
  if (uris.length > MAX_REDIRECT_URIS)
    return refuse('invalid_redirect_uri', `redirect_uris has ${uris.length} URIs; at most ${MAX_REDIRECT_URIS} are allowed.`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return refuse('invalid_redirect_uri', `The redirect URI ${JSON.stringify(uri.slice(0, 200))} ${problem}.`);
  }
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    return refuse('invalid_client_metadata', 'token_endpoint_auth_method must be none: registration is open to public clients only (PKCE, no client secret).');
  }
  const grants = metadata.grant_types;
  if (
    grants !== undefined &&
    (!isStringArray(grants) || !grants.includes('authorization_code') || grants.some((g) => !(SUPPORTED_GRANT_TYPES as readonly string[]).includes(g)))
  ) {
    return refuse('invalid_client_metadata', `grant_types must include authorization_code and may include refresh_token, nothing else.`);
  }
  const responses = metadata.response_types;
  if (responses !== undefined && (!isStringArray(responses) || responses.some((r) => r !== 'code')))
    return refuse('invalid_client_metadata', 'response_types may only be code.');
  const name = metadata.client_name;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > MAX_CLIENT_NAME_LENGTH)) {
    return refuse('invalid_client_metadata', `client_name must be a non-empty string of at most ${MAX_CLIENT_NAME_LENGTH} characters.`);
  }
  let scopes: Scope[] = [...SCOPES];
  if (metadata.scope !== undefined) {
    if (typeof metadata.scope !== 'string') return refuse('invalid_client_metadata', 'scope must be a space-separated string of scopes.');
    const parsed = parseScopes(metadata.scope);
    if (parsed.unknown.length) return refuse('invalid_client_metadata', `scope names unknown scopes: ${parsed.unknown.slice(0, 5).join(', ')}.`);
    if (parsed.scopes.length) scopes = parsed.scopes;
  }
  return { ok: true, registration: { name: typeof name === 'string' ? name.trim() : 'Unnamed client', redirectUris: [...new Set(uris)], scopes } };
}
