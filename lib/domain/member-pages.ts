// Rules of the member pages (GET {app_url}/, /entities/{id}, /notes/{id}, /members/{id}, /teams/{id}): what a
// page session may read, where a sign-in may send the browser next, and how a ranking orders.
import { ENTITY_TYPES, isCustomerType, PARENT_RULES, type EntityType } from './hierarchy.ts';
import { isUuid } from './schemas/common.ts';
import { ROLE_SCOPES, type Role, type Scope } from './scopes.ts';

/**
 * The scopes the pages read with: the read scopes of the REST routes each page mirrors (an entity:
 * entities:read, its notes: notes:read, a member: members:read, names and e-mails:
 * members:pii:read, a customer's (a user's) name and e-mail: users:pii:read, a team: teams:read). A page
 * session holds those its member's role allows, as an API token of that member with its default scopes
 * would — every role allows both pii scopes, so every page shows names —; it never holds a write scope,
 * since the pages write nothing.
 */
const PAGE_SCOPES = ['entities:read', 'notes:read', 'members:read', 'members:pii:read', 'users:pii:read', 'teams:read'] as const satisfies readonly Scope[];

export function pageScopes(role: Role): ReadonlySet<Scope> {
  return new Set(PAGE_SCOPES.filter((s) => ROLE_SCOPES[role].includes(s)));
}

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** The pages' own paths: home, or one record's page. */
const PAGE_PATH = new RegExp(`^/(?:(?:entities|notes|members|teams)/${UUID})?$`);
/** A query the pages write: parameter names and values of letters, digits and URL-safe marks, percent-encoded otherwise. */
const PAGE_QUERY = /^[A-Za-z0-9._~%=&+-]*$/;
const MAX_NEXT_LENGTH = 2048;

/**
 * Where a sign-in sends the browser: `next` when it is the path (and query) of one of these pages
 * — relative, starting with a single "/" —, else home. Never another host, scheme or path: a
 * sign-in link cannot be turned into an open redirect.
 */
export function safeNext(next: string | undefined): string {
  if (next === undefined || next.length === 0 || next.length > MAX_NEXT_LENGTH) return '/';
  const q = next.indexOf('?');
  const path = q < 0 ? next : next.slice(0, q);
  const query = q < 0 ? '' : next.slice(q + 1);
  return PAGE_PATH.test(path) && PAGE_QUERY.test(query) ? next : '/';
}

/** The id a page's path names, lower-case as ids are stored (the API takes either case too); undefined when it is no UUID. */
export const pathRecordId = (value: string): string | undefined => (isUuid(value) ? value.toLowerCase() : undefined);

/** Highest score first; equal scores by name, then id, so the order is total. */
export function rankOrder(a: { score?: number; name: string; id: string }, b: { score?: number; name: string; id: string }): number {
  return (b.score ?? 0) - (a.score ?? 0) || a.name.localeCompare(b.name, 'en') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Whether any type may sit under `type` (a subfeature, for one, has no children to show). */
export const mayHaveChildren = (type: EntityType): boolean => ENTITY_TYPES.some((t) => PARENT_RULES[t].parents.includes(type));

/** The types home lists: every type that needs no parent, customers aside (products, and the planning types that stand alone). */
export const homeTypes = (): EntityType[] => ENTITY_TYPES.filter((t) => !isCustomerType(t) && !PARENT_RULES[t].required);
