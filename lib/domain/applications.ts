// Pure rules of server-to-server applications: what a registration may say, and which scopes a
// token request is granted. Shared by the HTTP handlers, the admin CLI and the token endpoint.
import { z } from 'zod';
import { InvalidInput, NotFound, pointer, type Path } from './errors.ts';
import { canonicalScope, ROLE_SCOPES, SCOPES, type Role, type Scope } from './scopes.ts';

export const MAX_APPLICATION_NAME = 255;

/** Request bodies, once: validation here, types and the OpenAPI document from the same schemas. */
export const CreateApplicationBody = z
  .object({
    name: z.string().trim().min(1).max(MAX_APPLICATION_NAME),
    scopes: z.array(z.string()).min(1).max(SCOPES.length + 1),
    defaultScopes: z.array(z.string()).max(SCOPES.length + 1).optional(),
  })
  .strict();

export const AddKeyBody = z.object({ publicKey: z.string() }).strict();

export interface ApplicationInput {
  name: string;
  scopes: Scope[];
  defaultScopes: Scope[];
}

/** An application the caller's workspace does not have (the id is client-chosen text: quoted, clipped). */
export const applicationNotFound = (clientId: string) =>
  new NotFound('application', clientId, `No application ${JSON.stringify(clientId.slice(0, 100))} in this workspace.`);

const rejected = (detail: string, path: Path) => new InvalidInput(detail, pointer(path));

/** The first zod issue as an InvalidInput with a readable message. */
export function firstIssue(error: z.ZodError): InvalidInput {
  const issue = error.issues[0]!;
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  if (issue.code === 'unrecognized_keys') {
    return rejected(`Unknown propert${issue.keys.length > 1 ? 'ies' : 'y'}: ${issue.keys.join(', ')}.`, [...path, issue.keys[0]!]);
  }
  const where = path.length ? path.join('.') : 'The body';
  return rejected(`${where}: ${issue.message}.`, path);
}

function scopeList(values: string[], field: string): Scope[] {
  const out = new Set<Scope>();
  values.forEach((name, i) => {
    const scope = canonicalScope(name);
    if (!scope) throw rejected(`'${name}' is not a scope; the scopes are ${SCOPES.join(', ')}.`, [field, i]);
    out.add(scope);
  });
  return [...out];
}

/**
 * A registration: known scopes (aliases resolved), default scopes within the allowed ones.
 * Omitted default scopes mean all the allowed ones.
 */
export function parseApplicationInput(body: unknown): ApplicationInput {
  const parsed = CreateApplicationBody.safeParse(body);
  if (!parsed.success) throw firstIssue(parsed.error);
  const scopes = scopeList(parsed.data.scopes, 'scopes');
  const defaultScopes = parsed.data.defaultScopes === undefined ? scopes : scopeList(parsed.data.defaultScopes, 'defaultScopes');
  const beyond = defaultScopes.findIndex((s) => !scopes.includes(s));
  if (beyond !== -1) throw rejected(`Default scope '${defaultScopes[beyond]}' is not among the application's scopes.`, ['defaultScopes', beyond]);
  return { name: parsed.data.name, scopes, defaultScopes };
}

/**
 * Scopes an access token gets: the requested ones (the defaults when none are requested) that
 * the application allows and the member's role permits — a token never exceeds its member's role.
 * Unknown names are ignored, as in any intersection. Empty means invalid_scope.
 */
export function grantedScopes(
  requested: string | undefined,
  app: { scopes: readonly Scope[]; defaultScopes: readonly Scope[] },
  role: Role,
): Scope[] {
  const wanted = requested === undefined ? app.defaultScopes : requested.split(' ').map(canonicalScope).filter((s): s is Scope => s !== undefined);
  return SCOPES.filter((s) => wanted.includes(s) && app.scopes.includes(s) && ROLE_SCOPES[role].includes(s));
}
