// The client registration endpoint (RFC 7591), open to public clients (PKCE, no secret) such as MCP
// clients connecting for the first time: the metadata judged (lib/domain/client-registration.ts),
// a rate limit per address, the client stored apart from the workspaces' applications.
import { createHash } from 'node:crypto';
import { OAuthError } from './oauth-errors.ts';
import { config } from '../config.ts';
import { checkClientRegistration, REGISTRATIONS, registrationRefusedFor, SUPPORTED_GRANT_TYPES } from '../domain/client-registration.ts';
import { countRegistration, registerDynamicClient } from '../store/dynamic-clients.ts';

type RegistrationOutcome = { ok: true; body: Record<string, unknown> } | { ok: false; retryAfterS: number };

export async function registerClient(metadata: unknown, sourceIp: string, now = new Date()): Promise<RegistrationOutcome> {
  const check = checkClientRegistration(metadata);
  if (!check.ok) throw new OAuthError(check.error, check.description);
  // Per address over a sliding hour (config: 20 unless set): plenty for clients, little for a flood.
  const limit = config.registrationsPerAddressPerHour;
  if (limit > 0) {
    const window = REGISTRATIONS.windowOf(now.getTime());
    const counts = await countRegistration(createHash('sha256').update(sourceIp).digest('base64url'), window, REGISTRATIONS.expiry(window));
    const retryAfterS = registrationRefusedFor(counts, limit, now.getTime());
    if (retryAfterS > 0) return { ok: false, retryAfterS };
  }
  const client = await registerDynamicClient(check.registration, now);
  return {
    ok: true,
    // RFC 7591 §3.2.1: the registered metadata, as the server will apply it.
    body: {
      client_id: client.clientId,
      client_id_issued_at: Math.floor(now.getTime() / 1000),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      grant_types: [...SUPPORTED_GRANT_TYPES],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: client.scopes.join(' '),
    },
  };
}
