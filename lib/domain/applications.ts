// Pure rules of OAuth applications: which scopes a token request is granted. What a
// registration may say is its schema's (lib/domain/schemas/applications.ts). Shared by the HTTP
// handlers, the admin CLI and the token endpoint.
import { NotFound } from './errors.ts';
import { canonicalScope, ROLE_SCOPES, SCOPES, type Role, type Scope } from './scopes.ts';

export type { ApplicationInput, ApplicationType } from './schemas/applications.ts';

/** An application the caller's workspace does not have (the id is client-chosen text: quoted, clipped). */
export const applicationNotFound = (clientId: string) =>
  new NotFound('application', clientId, `No application ${JSON.stringify(clientId.slice(0, 100))} in this workspace.`);

/**
 * Scopes an access token gets: the requested ones (the defaults when none are requested) that
 * the application allows and the member's role permits — a token never exceeds its member's role.
 * Unknown names are ignored, as in any intersection. Empty means invalid_scope.
 */
export function grantedScopes(requested: string | undefined, app: { scopes: readonly Scope[]; defaultScopes: readonly Scope[] }, role: Role): Scope[] {
  const wanted =
    requested === undefined
      ? app.defaultScopes
      : requested
          .split(' ')
          .map(canonicalScope)
          .filter((s): s is Scope => s !== undefined);
  return SCOPES.filter((s) => wanted.includes(s) && app.scopes.includes(s) && ROLE_SCOPES[role].includes(s));
}
