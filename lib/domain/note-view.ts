// Stored note → API JSON (default field mode: only non-empty values); lib/http/records.ts adds
// the other `fields` modes and the paginated `relationships` attribute.
import { nonEmptyFields } from './entity-view.ts';
import type { CustomerType } from './hierarchy.ts';
import type { Metadata } from './metadata.ts';
import type { NoteType } from './schemas/note.ts';

export interface StoredNote {
  id: string;
  type: NoteType;
  fields: Record<string, unknown>;
  customer?: { id: string; type: CustomerType };
  metadata?: Metadata;
  createdAt: string;
  updatedAt: string;
}

export const noteLink = (baseUrl: string, id: string) => `${baseUrl}/notes/${id}`;

export const noteReference = (baseUrl: string, id: string) => ({ id, type: 'textNote' as const, links: { self: noteLink(baseUrl, id) } });

/** A note without its relationships (lib/http/records.ts adds them, paginated). */
export function noteView(baseUrl: string, note: StoredNote) {
  return {
    id: note.id,
    type: note.type,
    fields: nonEmptyFields(note.fields),
    links: { self: noteLink(baseUrl, note.id) },
    ...(note.metadata ? { metadata: note.metadata } : {}),
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
  };
}
