// Stored note → API JSON (default field mode: only non-empty values).
import { entityReference, nonEmptyFields } from './entity-view.ts';
import type { Metadata } from './metadata.ts';

export interface StoredNote {
  id: string;
  type: string;
  fields: Record<string, unknown>;
  customer?: { id: string; type: string };
  metadata?: Metadata;
  createdAt: string;
  updatedAt: string;
}

export interface StoredLinkRef {
  entityId: string;
  entityType: string;
  importance: string;
}

export const noteLink = (baseUrl: string, id: string) => `${baseUrl}/notes/${id}`;

export const noteReference = (baseUrl: string, id: string) => ({ id, type: 'textNote', links: { self: noteLink(baseUrl, id) } });

/** A note's relationships: its customer first, then its links (each with its importance). */
export function noteRelationships(baseUrl: string, note: StoredNote, links: StoredLinkRef[]) {
  const out: Array<Record<string, unknown>> = [];
  if (note.customer) out.push({ type: 'customer', target: entityReference(baseUrl, note.customer) });
  for (const l of links) {
    out.push({ type: 'link', target: entityReference(baseUrl, { id: l.entityId, type: l.entityType }), importance: l.importance });
  }
  return out;
}

export function noteView(baseUrl: string, note: StoredNote, links: StoredLinkRef[]) {
  return {
    id: note.id,
    type: note.type,
    fields: nonEmptyFields(note.fields),
    relationships: { data: noteRelationships(baseUrl, note, links), links: {} },
    links: { self: noteLink(baseUrl, note.id) },
    ...(note.metadata ? { metadata: note.metadata } : {}),
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
  };
}
