// Which scopes a token of the authorization code flow carries: what the grant holds, narrowed by the
// token request's `scope` (RFC 6749 §6: never wider — scope escalation is invalid_scope), and
// always within what the application is allowed now and the member's role permits now.
import { parseScopes, ROLE_SCOPES, SCOPES, type Role, type Scope } from './scopes.ts';

type TokenScopes = { ok: true; scopes: Scope[] } | { ok: false; problem: string };

export function tokenScopes(input: { granted: readonly Scope[]; requested: string | undefined; appScopes: readonly Scope[]; role: Role }): TokenScopes {
  let wanted: readonly Scope[] = input.granted;
  if (input.requested !== undefined) {
    const parsed = parseScopes(input.requested);
    if (parsed.unknown.length > 0) return { ok: false, problem: `Unknown scope ${JSON.stringify(parsed.unknown[0]!.slice(0, 64))}.` };
    if (parsed.scopes.length === 0) return { ok: false, problem: 'scope names no scope.' };
    const beyond = parsed.scopes.filter((s) => !input.granted.includes(s));
    if (beyond.length > 0)
      return { ok: false, problem: `The grant does not include ${beyond.join(', ')}; a token request may narrow the granted scopes, never widen them.` };
    wanted = parsed.scopes;
  }
  const scopes = SCOPES.filter((s) => wanted.includes(s) && input.appScopes.includes(s) && ROLE_SCOPES[input.role].includes(s));
  if (scopes.length === 0) return { ok: false, problem: "None of the granted scopes is still allowed to the application and the member's role." };
  return { ok: true, scopes };
}
