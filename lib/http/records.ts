// Entity and note records as every read answers them (get, list, search): the views of
// lib/domain/entity-view.ts and note-view.ts give the shape; this adds the `fields` selection and
// the paginated `relationships` attribute (the service specification's pagination rule 6).
import { pageFor, publicUrl, type ListLinks } from './pagination.ts';
import { config } from '../config.ts';
import { withCustomReads } from '../domain/configurations.ts';
import { entityReference, entityView, withUserPiiRedacted } from '../domain/entity-view.ts';
import { checkKnownFields, selectFields, withUnsetFlags, type FieldSelection } from '../domain/fields.ts';
import { noteView } from '../domain/note-view.ts';
import { getEntityConfiguration, getNoteConfiguration, listEntityRelationships, listNoteRelationships, type Route } from '../routes.ts';
import { fieldCatalog, type FieldCatalog } from '../store/custom-fields.ts';
import type { EntityItem } from '../store/entities.ts';
import { withCurrentRefs } from '../store/field-refs.ts';
import type { NoteItem } from '../store/notes.ts';
import { entityRelationshipsAfter, noteRelationshipsAfter, type EntityRelationship, type NoteRelationship, type Slice } from '../store/pages.ts';
import { goneIn, type Gone } from '../store/tombstones.ts';

/** Pagination rule 6 of the service specification: a `relationships` attribute carries at most this many items inline. */
const INLINE_RELATIONSHIPS = 20;

const targetReference = <T extends string>(t: { id: string; type: T }) => entityReference(config.urls, t);

export const relationshipView = (r: EntityRelationship) => ({ type: r.type, target: targetReference(r.target) });

export const noteRelationshipView = (r: NoteRelationship) =>
  r.type === 'customer' ? { type: r.type, target: targetReference(r.target) } : { type: r.type, target: targetReference(r.target), importance: r.importance };

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
  return page.envelope(got, (records) => records.map(view));
}

/**
 * An entity's `relationships`: parent, then children; more than 20 → links.next to /v2/entities/{id}/relationships.
 * `gone`: the workspace's entities being deleted, read once per page (lib/store/tombstones.ts).
 */
const inlineRelationships = (workspaceId: string, entity: EntityItem, gone: Gone) =>
  inline(listEntityRelationships, workspaceId, entity.id, (n) => entityRelationshipsAfter(workspaceId, entity, {}, undefined, n, gone), relationshipView);

/** A note's `relationships`: customer, then links; more than 20 → links.next to /v2/notes/{id}/relationships. */
const inlineNoteRelationships = (workspaceId: string, note: NoteItem, gone: Gone) =>
  inline(listNoteRelationships, workspaceId, note.id, (n) => noteRelationshipsAfter(workspaceId, note, {}, undefined, n, gone), noteRelationshipView);

/** One entity as it reads, its tags, teams and select options already as they are now (entityRecords). */
async function entityRecord(workspaceId: string, entity: EntityItem, selection: FieldSelection, configured: readonly string[], gone: Gone) {
  return {
    ...entityView(config.urls, entity),
    fields: selectFields(withUnsetFlags(entity.fields), selection, configured),
    relationships: await inlineRelationships(workspaceId, entity, gone),
  };
}

async function noteRecord(workspaceId: string, note: NoteItem, selection: FieldSelection, configured: readonly string[], gone: Gone) {
  return {
    ...noteView(config.urls, note),
    fields: selectFields(withUnsetFlags(note.fields), selection, configured),
    relationships: await inlineNoteRelationships(workspaceId, note, gone),
  };
}

/**
 * Entities as every read answers them (get, list, search, the MCP tools): their tags and teams as
 * they are now (one read for the page), select options by their current names, each with its type's
 * configured fields; a user's name and e-mail `[redacted]` unless the reader has users:pii:read (`pii`).
 */
export async function entityRecords(workspaceId: string, entities: readonly EntityItem[], selection: FieldSelection, catalog: FieldCatalog, pii: boolean) {
  const gone = goneIn(workspaceId);
  const current = await withCurrentRefs(workspaceId, entities);
  const seen = pii ? current : current.map(withUserPiiRedacted);
  return Promise.all(seen.map((e) => entityRecord(workspaceId, withCustomReads(e, catalog.defs), selection, catalog.configured.get(e.type) ?? [], gone)));
}

/** A page of notes (listNotes, searchNotes, the MCP list_notes tool), each with its type's configured fields. */
export function noteRecords(
  workspaceId: string,
  notes: readonly NoteItem[],
  selection: FieldSelection,
  catalog: FieldCatalog,
  gone: Gone = goneIn(workspaceId),
) {
  return Promise.all(
    notes.map((note) =>
      noteRecord(workspaceId, withCustomReads(note, catalog.defs), selection, catalog.configured.get(note.type) ?? catalog.configured.get('textNote')!, gone),
    ),
  );
}

/** One entity (getEntity): the selection checked against its type's configured fields; `pii` as entityRecords'. */
export async function entityResource(workspaceId: string, entity: EntityItem, selection: FieldSelection, pii: boolean) {
  const catalog = await fieldCatalog(workspaceId, [entity.type]);
  checkKnownFields(selection, catalog.configured);
  return (await entityRecords(workspaceId, [entity], selection, catalog, pii))[0]!;
}

/**
 * One note (getNote): the selection checked against its type's configured fields. The entities being
 * deleted, which its links must not show, are read beside the configuration when it has links.
 */
export async function noteResource(workspaceId: string, note: NoteItem, selection: FieldSelection) {
  const gone = goneIn(workspaceId);
  const linked = note.linkCopy === undefined || note.linkCopy.length > 0;
  const [catalog] = await Promise.all([fieldCatalog(workspaceId, [note.type]), linked ? gone() : undefined]);
  checkKnownFields(selection, catalog.configured);
  return (await noteRecords(workspaceId, [note], selection, catalog, gone))[0]!;
}

export const configUrl = (kind: 'entities' | 'notes', type: string) =>
  publicUrl(kind === 'entities' ? getEntityConfiguration.path : getNoteConfiguration.path, { type });
