// Pure rules of OAuth applications — server-to-server (JWT bearer grant) and authorization code —:
// what a registration may say, and which scopes a token request is granted. Shared by the HTTP
// handlers, the admin CLI and the token endpoints.
import { z } from 'zod';
import { InvalidInput, NotFound, pointer, type Path } from './errors.ts';
import { MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uris.ts';
import { canonicalScope, ROLE_SCOPES, SCOPES, type Role, type Scope } from './scopes.ts';

export const MAX_APPLICATION_NAME = 255;

/** Request bodies, once: validation here, types and the OpenAPI document from the same schemas. */
export const APPLICATION_TYPES = ['serverToServer', 'authorizationCode'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

export const CreateApplicationBody = z
  .object({
    /** Absent: serverToServer, so registrations written before the authorization code flow keep working. */
    type: z.enum(APPLICATION_TYPES).optional(),
    name: z.string().trim().min(1).max(MAX_APPLICATION_NAME),
    scopes: z.array(z.string()).min(1).max(SCOPES.length + 1),
    defaultScopes: z.array(z.string()).max(SCOPES.length + 1).optional(),
    /** authorizationCode only: exact-match redirect URIs. */
    redirectUris: z.array(z.string()).max(MAX_REDIRECT_URIS).optional(),
    /** authorizationCode only: a public client (no secret, PKCE required). */
    public: z.boolean().optional(),
  })
  .strict();

export const AddKeyBody = z.object({ publicKey: z.string() }).strict();

interface CommonInput {
  name: string;
  scopes: Scope[];
  defaultScopes: Scope[];
}

export type ApplicationInput =
  | (CommonInput & { type: 'serverToServer' })
  | (CommonInput & { type: 'authorizationCode'; redirectUris: string[]; public: boolean });

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
  const common = { name: parsed.data.name, scopes, defaultScopes };
  const { redirectUris, public: isPublic } = parsed.data;
  if ((parsed.data.type ?? 'serverToServer') === 'serverToServer') {
    if (redirectUris !== undefined) throw rejected('redirectUris belong to applications of type authorizationCode.', ['redirectUris']);
    if (isPublic !== undefined) throw rejected('public belongs to applications of type authorizationCode.', ['public']);
    return { type: 'serverToServer', ...common };
  }
  return { type: 'authorizationCode', ...common, redirectUris: redirectUriList(redirectUris), public: isPublic ?? false };
}

/** The registered redirect URIs: at least one, each acceptable, none twice. */
function redirectUriList(values: string[] | undefined): string[] {
  if (values === undefined || values.length === 0) {
    throw rejected('An authorizationCode application needs at least one redirect URI (redirectUris).', ['redirectUris']);
  }
  values.forEach((uri, i) => {
    const problem = redirectUriProblem(uri);
    if (problem) throw rejected(`Redirect URI '${uri.slice(0, 200)}' ${problem}.`, ['redirectUris', i]);
    if (values.indexOf(uri) !== i) throw rejected(`Redirect URI '${uri.slice(0, 200)}' is listed twice.`, ['redirectUris', i]);
  });
  return values;
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
