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
import { goneIn, type Gone } from '../store/tombstones.ts';

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

/**
 * An entity's `relationships`: parent, then children; more than 20 → links.next to /v2/entities/{id}/relationships.
 * `gone`: the workspace's entities being deleted, read once per page (lib/store/tombstones.ts).
 */
export const inlineRelationships = (workspaceId: string, entity: EntityItem, gone: Gone) =>
  inline(listEntityRelationships, workspaceId, entity.id, (n) => entityRelationshipsAfter(workspaceId, entity, {}, undefined, n, gone), relationshipView);

/** A note's `relationships`: customer, then links; more than 20 → links.next to /v2/notes/{id}/relationships. */
export const inlineNoteRelationships = (workspaceId: string, note: NoteItem, gone: Gone) =>
  inline(listNoteRelationships, workspaceId, note.id, (n) => noteRelationshipsAfter(workspaceId, note, {}, undefined, n, gone), noteRelationshipView);

export async function entityRecord(workspaceId: string, entity: EntityItem, selection: FieldSelection, configured: readonly string[], gone: Gone = goneIn(workspaceId)) {
  return {
    ...entityView(config.urls, entity),
    fields: selectFields(entity.fields, selection, configured),
    relationships: await inlineRelationships(workspaceId, entity, gone),
  };
}

/** A page of entities (listEntities, searchEntities, the MCP search_entities tool), each with its type's configured fields. */
export function entityRecords(workspaceId: string, entities: readonly EntityItem[], selection: FieldSelection, configured: ReadonlyMap<string, readonly string[]>) {
  const gone = goneIn(workspaceId);
  return Promise.all(entities.map((entity) => entityRecord(workspaceId, entity, selection, configured.get(entity.type) ?? [], gone)));
}

export async function noteRecord(workspaceId: string, note: NoteItem, selection: FieldSelection, configured: readonly string[], gone: Gone = goneIn(workspaceId)) {
  return {
    ...noteView(config.urls, note),
    fields: selectFields(note.fields, selection, configured),
    relationships: await inlineNoteRelationships(workspaceId, note, gone),
  };
}

/** A page of notes (listNotes, searchNotes, the MCP list_notes tool), each with its type's configured fields. */
export function noteRecords(workspaceId: string, notes: readonly NoteItem[], selection: FieldSelection, configured: ReadonlyMap<string, readonly string[]>, gone: Gone = goneIn(workspaceId)) {
  return Promise.all(notes.map((note) => noteRecord(workspaceId, note, selection, configured.get(note.type) ?? configured.get('textNote')!, gone)));
}

/** One entity (getEntity): the selection checked against its type's configured fields. */
export async function entityResource(workspaceId: string, entity: EntityItem, selection: FieldSelection) {
  const configured = await configuredFields(workspaceId, [entity.type]);
  checkKnownFields(selection, configured);
  return entityRecord(workspaceId, entity, selection, configured.get(entity.type)!);
}

/**
 * One note (getNote): the selection checked against its type's configured fields. The entities being
 * deleted, which its links must not show, are read beside the configuration when it has links.
 */
export async function noteResource(workspaceId: string, note: NoteItem, selection: FieldSelection) {
  const gone = goneIn(workspaceId);
  const linked = note.linkCopy === undefined || note.linkCopy.length > 0;
  const [configured] = await Promise.all([configuredFields(workspaceId, [note.type]), linked ? gone() : undefined]);
  checkKnownFields(selection, configured);
  return noteRecord(workspaceId, note, selection, configured.get(note.type)!, gone);
}

export const configUrl = (kind: 'entities' | 'notes', type: string) =>
  publicUrl(kind === 'entities' ? getEntityConfiguration.path : getNoteConfiguration.path, { type });
