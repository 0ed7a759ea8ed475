// GET /v2/entities/{id}/relationships and GET /v2/notes/{id}/relationships: one implementation.
// The owner must be live in the caller's workspace; `type` keeps one kind of relationship,
// `target[type]` and `target[id]` (entities) the relationships to such targets;
// `pageCursor` and `limit` page through them (the first one — parent, customer — leads).
import { pageOf, stringKey, type PageParameters } from './pagination.ts';
import { noteRelationshipView, relationshipView } from './records.ts';
import { principalOf, type ApiRequest } from './request.ts';
import { NotFound } from '../domain/errors.ts';
import type { EntityRelationshipType } from '../domain/relations.ts';
import { getEntity } from '../store/entities.ts';
import { getNote } from '../store/notes.ts';
import { entityRelationshipsAfter, noteRelationshipsAfter, type Slice } from '../store/pages.ts';

interface RelationshipList<O, K extends string, R extends { position: string }, V> {
  what: string;
  read: (ws: string, id: string) => Promise<O | undefined>;
  list: (ws: string, owner: O, filter: RelationshipFilter<K>, after: string | undefined, count: number) => Promise<Slice<R>>;
  view: (r: R) => V;
}

/** What the list's schemas parsed: the owner's id, `type` (one kind only), the target filters and the page parameters. */
interface ListInput<K extends string> {
  params: { id: string };
  query: PageParameters & { type?: K | undefined; 'target[type]'?: string | undefined; 'target[id]'?: string | undefined };
}

interface RelationshipFilter<K extends string> {
  type?: K;
  targetType?: string;
  targetId?: string;
}

async function listRelationships<O, K extends string, R extends { position: string }, V>(
  req: ApiRequest,
  input: ListInput<K>,
  spec: RelationshipList<O, K, R, V>,
) {
  const ws = principalOf(req).workspaceId;
  const { id } = input.params;
  const owner = await spec.read(ws, id);
  if (!owner) throw new NotFound(spec.what, id);
  const page = await pageOf(req, input.query);
  const { type, 'target[type]': targetType, 'target[id]': targetId } = input.query;
  const filter: RelationshipFilter<K> = {
    ...(type !== undefined ? { type } : {}),
    ...(targetType !== undefined ? { targetType } : {}),
    ...(targetId !== undefined ? { targetId } : {}),
  };
  const rows = await spec.list(ws, owner, filter, stringKey(page.after), page.limit + 1);
  return {
    status: 200 as const,
    body: await page.envelope(rows, (records) => records.map(spec.view)),
  };
}

/** An entity's parent, then its children oldest first, then its relations (link, isBlockedBy, isBlocking). */
export const listEntityRelationships = (req: ApiRequest, input: ListInput<EntityRelationshipType>) =>
  listRelationships(req, input, { what: 'entity', read: getEntity, list: entityRelationshipsAfter, view: relationshipView });

/** A note's customer, then its links by entity id. */
export const listNoteRelationships = (req: ApiRequest, input: ListInput<'customer' | 'link'>) =>
  listRelationships(req, input, { what: 'note', read: getNote, list: noteRelationshipsAfter, view: noteRelationshipView });
