// Stored note → API JSON (default field mode: only non-empty values); lib/http/records.ts adds
// the other `fields` modes and the paginated `relationships` attribute.
import { nonEmptyFields, type Urls } from './entity-view.ts';
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

/** A note's links: `self` in the API, `html` in the web application. */
const noteLinks = (urls: Urls, id: string) => ({ self: noteLink(urls.base, id), html: noteLink(urls.web, id) });

/** `{id, type, links}`: what create and update answer. */
export const noteReference = (urls: Urls, n: { id: string; type: NoteType }) => ({ id: n.id, type: n.type, links: noteLinks(urls, n.id) });

/** A note without its relationships (lib/http/records.ts adds them, paginated). */
export function noteView(urls: Urls, note: StoredNote) {
  return {
    id: note.id,
    type: note.type,
    fields: nonEmptyFields(note.fields),
    links: noteLinks(urls, note.id),
    ...(note.metadata ? { metadata: note.metadata } : {}),
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
  };
}

/** A comment on a note as its list shows it (GET /v2/notes/{id}/comments). */
export const noteCommentView = (c: { id: string; content: string; author: { id: string; email: string }; createdAt: string }) => ({
  id: c.id,
  type: 'noteComment' as const,
  fields: { content: c.content, author: { id: c.author.id, email: c.author.email } },
  createdAt: c.createdAt,
});
