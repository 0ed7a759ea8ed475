// Stored entity → API JSON in the default field mode (only non-empty values). lib/http/records.ts
// adds the other `fields` modes and the paginated `relationships` attribute.
import { isEmptyValue } from './fields.ts';
import type { EntityType } from './hierarchy.ts';
import { REDACTED } from './member-view.ts';
import type { Metadata } from './metadata.ts';

export interface StoredEntity {
  id: string;
  type: EntityType;
  parentId?: string;
  parentType?: EntityType;
  fields: Record<string, unknown>;
  metadata?: Metadata;
  createdAt: string;
  updatedAt: string;
}

/** The non-empty fields of a stored record. */
export function nonEmptyFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => !isEmptyValue(v)));
}

/**
 * The addresses a view links to: `base` is the API's ({base_url}), `web` where people see records
 * in a browser (the `html` links; lib/config.ts webUrl).
 */
export interface Urls {
  base: string;
  web: string;
}

export const entityLink = (baseUrl: string, id: string) => `${baseUrl}/entities/${id}`;

/** An entity's links: `self` in the API, `html` in the web application. */
const entityLinks = (urls: Urls, id: string) => ({ self: entityLink(urls.base, id), html: entityLink(urls.web, id) });

/** `{id, type, links}`: what create and update answer, and every relationship's target. */
export const entityReference = <T extends string>(urls: Urls, e: { id: string; type: T }) => ({
  id: e.id,
  type: e.type,
  links: entityLinks(urls, e.id),
});

/** An entity without its relationships (lib/http/records.ts adds them, paginated). */
export function entityView(urls: Urls, e: StoredEntity) {
  return {
    id: e.id,
    type: e.type,
    fields: nonEmptyFields(e.fields),
    links: entityLinks(urls, e.id),
    ...(e.metadata ? { metadata: e.metadata } : {}),
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

/** What users:pii:read shows of a user (a customer who is a person). */
const USER_PII_FIELDS = ['name', 'email'] as const;

/**
 * The entity as a reader without users:pii:read sees it: a user's name and e-mail, when set, read
 * `[redacted]` (as Productboard's entities API answers them); any other entity as it is.
 */
export function withUserPiiRedacted<E extends Pick<StoredEntity, 'type' | 'fields'>>(e: E): E {
  if (e.type !== 'user') return e;
  const fields = { ...e.fields };
  for (const key of USER_PII_FIELDS) if (!isEmptyValue(fields[key])) fields[key] = REDACTED;
  return { ...e, fields };
}

/** The name a reader sees: a user's is `[redacted]` without users:pii:read (`pii`), as withUserPiiRedacted gives it. */
export const visibleName = (e: Pick<StoredEntity, 'type' | 'fields'>, pii: boolean): unknown =>
  pii || e.type !== 'user' || isEmptyValue(e.fields.name) ? e.fields.name : REDACTED;
