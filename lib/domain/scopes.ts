// The scope list, once (README.md, "Scopes"). `entities:write` is accepted as an alias of `write:entities`.
export const SCOPES = [
  'entities:read',
  'write:entities',
  'entities:delete',
  'notes:read',
  'notes:write',
  'notes:delete',
  // Webhook subscriptions (lib/domain/webhooks.ts)
  'webhooks:read',
  'webhooks:write',
  'webhooks:delete',
  // Members (read-only, as Productboard's members API): the list and each member, and their names and e-mails
  'members:read',
  'members:pii:read',
  // Customers who are people (user entities): their names and e-mails (Productboard's; without it they read [redacted])
  'users:pii:read',
  // Teams and their members (Productboard's teams API)
  'teams:read',
  'teams:write',
  'teams:delete',
  // The values of select, tag and status fields (reading them takes entities:read, as Productboard's)
  'fields:write',
] as const;

export type Scope = (typeof SCOPES)[number];

/** Other names of scopes, accepted wherever a scope is named. */
export const SCOPE_ALIASES: Readonly<Record<string, Scope>> = { 'entities:write': 'write:entities' };

export const ROLES = ['admin', 'maker', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** What a member of each role may be granted; a token never carries more than its member's role allows. */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  admin: SCOPES,
  maker: SCOPES,
  // A viewer may see which subscriptions exist, not create or delete them; every role may see the
  // members and their e-mails, so a default token keeps seeing the e-mails it sees on owners; and the
  // teams, which it reads but does not change; and the customers' names and e-mails, which it reads
  // beside their feedback.
  viewer: ['entities:read', 'notes:read', 'webhooks:read', 'members:read', 'members:pii:read', 'users:pii:read', 'teams:read'],
};

/** The canonical scope for a name (aliases resolved), or undefined when it is not a scope. */
export function canonicalScope(name: string): Scope | undefined {
  if ((SCOPES as readonly string[]).includes(name)) return name as Scope;
  // Own keys only: a name such as 'constructor' must not find Object.prototype's.
  return Object.hasOwn(SCOPE_ALIASES, name) ? SCOPE_ALIASES[name] : undefined;
}

/** Splits an OAuth `scope` string (space-separated) into canonical scopes; unknown names are returned apart. */
export function parseScopes(value: string): { scopes: Scope[]; unknown: string[] } {
  const scopes = new Set<Scope>();
  const unknown: string[] = [];
  for (const name of value.split(' ').filter(Boolean)) {
    const s = canonicalScope(name);
    if (s) scopes.add(s);
    else unknown.push(name);
  }
  return { scopes: [...scopes], unknown };
}
