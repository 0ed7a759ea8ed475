// Entity and note records as every read answers them (get, list, search): the views of
// lib/domain/entity-view.ts and note-view.ts give the shape; this adds the `fields` selection and
// the paginated `relationships` attribute (the service specification's pagination rule 6).
import { pageFor, publicUrl, type ListLinks } from './pagination.ts';
import { config } from '../config.ts';
import { entityReference, entityView } from '../domain/entity-view.ts';
import { checkKnownFields, selectFields, type FieldSelection } from '../domain/fields.ts';
import { noteView } from '../domain/note-view.ts';
import { getEntityConfiguration, getNoteConfiguration, listEntityRelationships, listNoteRelationships, type Route } from '../routes.ts';
import { configuredFields } from '../store/custom-fields.ts';
import type { EntityItem } from '../store/entities.ts';
import type { NoteItem } from '../store/notes.ts';
import { entityRelationshipsAfter, noteRelationshipsAfter, type EntityRelationship, type NoteRelationship, type Slice } from '../store/pages.ts';

/** Pagination rule 6 of the service specification: a `relationships` attribute carries at most this many items inline. */
export const INLINE_RELATIONSHIPS = 20;

export const targetReference = <T extends string>(t: { id: string; type: T }) => entityReference(config.urls, t);

export const relationshipView = (r: EntityRelationship) => ({ type: r.type, target: targetReference(r.target) });

export const noteRelationshipView = (r: NoteRelationship) =>
  r.type === 'customer'
    ? { type: r.type, target: targetReference(r.target) }
    : { type: r.type, target: targetReference(r.target), importance: r.importance };

/** The first 20 items, and a links.next to the attribute's own list route when there are more. */
async function inline<T extends { position: string }, V>(
  route: Route,
  workspaceId: string,
  id: string,
  fetch: (count: number) => Promise<Slice<T>>,
  view: (r: T) => V,
): Promise<{ data: V[]; links: ListLinks }> {
  // Bound to the list route called with no parameters but the cursor: exactly the links.next URL.
  const page = pageFor({ operationId: route.operationId, workspaceId, params: { id }, query: [] }, INLINE_RELATIONSHIPS, undefined, route.path);
  const got = await fetch(INLINE_RELATIONSHIPS + 1);
  return page.envelope(got.items.map((i) => i.record), (r) => r.position, (items) => items.map(view), got.resume);
}

/** An entity's `relationships`: parent, then children; more than 20 → links.next to /v2/entities/{id}/relationships. */
export const inlineRelationships = (workspaceId: string, entity: EntityItem) =>
  inline(listEntityRelationships, workspaceId, entity.id, (n) => entityRelationshipsAfter(workspaceId, entity, {}, undefined, n), relationshipView);

/** A note's `relationships`: customer, then links; more than 20 → links.next to /v2/notes/{id}/relationships. */
export const inlineNoteRelationships = (workspaceId: string, note: NoteItem) =>
  inline(listNoteRelationships, workspaceId, note.id, (n) => noteRelationshipsAfter(workspaceId, note, {}, undefined, n), noteRelationshipView);

export async function entityRecord(workspaceId: string, entity: EntityItem, selection: FieldSelection, configured: readonly string[]) {
  return {
    ...entityView(config.urls, entity),
    fields: selectFields(entity.fields, selection, configured),
    relationships: await inlineRelationships(workspaceId, entity),
  };
}

export async function noteRecord(workspaceId: string, note: NoteItem, selection: FieldSelection, configured: readonly string[]) {
  return {
    ...noteView(config.urls, note),
    fields: selectFields(note.fields, selection, configured),
    relationships: await inlineNoteRelationships(workspaceId, note),
  };
}

/** A page of notes (listNotes, searchNotes, the MCP list_notes tool), each with its type's configured fields. */
export function noteRecords(workspaceId: string, notes: readonly NoteItem[], selection: FieldSelection, configured: ReadonlyMap<string, readonly string[]>) {
  return Promise.all(notes.map((note) => noteRecord(workspaceId, note, selection, configured.get(note.type) ?? configured.get('textNote')!)));
}

/** One entity (getEntity): the selection checked against its type's configured fields. */
export async function entityResource(workspaceId: string, entity: EntityItem, selection: FieldSelection) {
  const configured = await configuredFields(workspaceId, [entity.type]);
  checkKnownFields(selection, configured);
  return entityRecord(workspaceId, entity, selection, configured.get(entity.type)!);
}

/** One note (getNote): the selection checked against its type's configured fields. */
export async function noteResource(workspaceId: string, note: NoteItem, selection: FieldSelection) {
  const configured = await configuredFields(workspaceId, [note.type]);
  checkKnownFields(selection, configured);
  return noteRecord(workspaceId, note, selection, configured.get(note.type)!);
}

export const configUrl = (kind: 'entities' | 'notes', type: string) =>
  publicUrl(kind === 'entities' ? getEntityConfiguration.path : getNoteConfiguration.path, { type });
