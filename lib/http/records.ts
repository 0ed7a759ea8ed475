// Entity and note records of the list operations (the same shape getEntity/getNote answer):
// the fields chosen by the `fields` selection and an entity's paginated `relationships`.
import { selectFields, type FieldSelection } from '../domain/fields.ts';
import { routeById } from '../routes.ts';
import { entityRelationshipsAfter, noteRelationshipsAfter, type Item, type StoredRelationship, type StoredNoteRelationship } from '../store/pages.ts';
import { pageFor, publicUrl, type ListLinks } from './pagination.ts';

/** Spec pagination rule 6: an entity's `relationships` carries at most this many items inline. */
export const INLINE_RELATIONSHIPS = 20;

export const entityUrl = (id: string) => publicUrl('/v2/entities/{id}', { id });
export const noteUrl = (id: string) => publicUrl('/v2/notes/{id}', { id });

export const targetReference = (t: { id: string; type: string }) => ({ id: t.id, type: t.type, links: { self: entityUrl(t.id) } });

export const relationshipView = (r: StoredRelationship) => ({ type: r.type, target: targetReference(r.target) });

/**
 * The inline `relationships` attribute: the first 20 and, when there are more, a `links.next` to
 * GET /v2/entities/{id}/relationships whose cursor continues after the 20th.
 */
export async function inlineRelationships(
  workspaceId: string,
  entity: { id: string; parentId?: string; parentType?: string },
): Promise<{ data: unknown[]; links: ListLinks }> {
  const route = routeById('listEntityRelationships');
  const page = pageFor({ operationId: route.operationId, workspaceId, params: { id: entity.id }, query: [] }, INLINE_RELATIONSHIPS, undefined, route.path);
  const fetched = await entityRelationshipsAfter(workspaceId, entity, undefined, undefined, INLINE_RELATIONSHIPS + 1);
  return page.envelope(fetched, (r) => r.key, (items) => items.map(relationshipView));
}

export async function entityRecord(workspaceId: string, item: Item, selection: FieldSelection, configured: readonly string[]) {
  return {
    id: String(item.id),
    type: String(item.type),
    fields: selectFields(item.fields ?? {}, selection, configured),
    relationships: await inlineRelationships(workspaceId, item as { id: string; parentId?: string; parentType?: string }),
    links: { self: entityUrl(String(item.id)) },
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

export const configUrl = (kind: 'entities' | 'notes', type: string) =>
  publicUrl(kind === 'entities' ? routeById('getEntityConfiguration').path : routeById('getNoteConfiguration').path, { type });

export const noteRelationshipView = (r: StoredNoteRelationship) =>
  r.type === 'customer'
    ? { type: r.type, target: targetReference(r.target) }
    : { type: r.type, target: targetReference(r.target), importance: r.importance };

/** A note's `relationships` attribute: customer, then links; at most 20 inline (as an entity's). */
export async function inlineNoteRelationships(workspaceId: string, note: Item): Promise<{ data: unknown[]; links: ListLinks }> {
  const route = routeById('listNoteRelationships');
  const page = pageFor({ operationId: route.operationId, workspaceId, params: { id: String(note.id) }, query: [] }, INLINE_RELATIONSHIPS, undefined, route.path);
  const fetched = await noteRelationshipsAfter(workspaceId, note, undefined, undefined, INLINE_RELATIONSHIPS + 1);
  return page.envelope(fetched, (r) => r.key, (items) => items.map(noteRelationshipView));
}

export async function noteRecord(workspaceId: string, item: Item, selection: FieldSelection, configured: readonly string[]) {
  return {
    id: String(item.id),
    type: String(item.type),
    fields: selectFields(item.fields ?? {}, selection, configured),
    relationships: await inlineNoteRelationships(workspaceId, item),
    links: { self: noteUrl(String(item.id)) },
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
