// Stored entity → API JSON in the default field mode (only non-empty values). lib/http/records.ts
// adds the other `fields` modes and the paginated `relationships` attribute.
import { isEmptyValue } from './fields.ts';
import type { EntityType } from './hierarchy.ts';
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

export const entityLink = (baseUrl: string, id: string) => `${baseUrl}/entities/${id}`;

/** `{id, type, links}`: what create and update answer. */
export const entityReference = <T extends string>(baseUrl: string, e: { id: string; type: T }) => ({
  id: e.id,
  type: e.type,
  links: { self: entityLink(baseUrl, e.id) },
});

/** An entity without its relationships (lib/http/records.ts adds them, paginated). */
export function entityView(baseUrl: string, e: StoredEntity) {
  return {
    id: e.id,
    type: e.type,
    fields: nonEmptyFields(e.fields),
    links: { self: entityLink(baseUrl, e.id) },
    ...(e.metadata ? { metadata: e.metadata } : {}),
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}
