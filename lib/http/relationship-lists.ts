// GET /v2/entities/{id}/relationships and GET /v2/notes/{id}/relationships: one implementation.
// The owner must be live in the caller's workspace; `type` keeps one kind of relationship;
// `pageCursor` and `limit` page through them (the first one — parent, customer — leads).
import { pageOf, stringKey } from './pagination.ts';
import { noteRelationshipView, relationshipView } from './records.ts';
import { principalOf, type ApiRequest, type ApiResult } from './request.ts';
import { InvalidInput, NotFound, parameter } from '../domain/errors.ts';
import { uuidParam } from '../domain/input.ts';
import { getEntity } from '../store/entities.ts';
import { getNote } from '../store/notes.ts';
import { entityRelationshipsAfter, noteRelationshipsAfter, type Slice } from '../store/pages.ts';

interface RelationshipList<O, K extends string, R extends { position: string }> {
  what: string;
  kinds: readonly K[];
  read: (ws: string, id: string) => Promise<O | undefined>;
  list: (ws: string, owner: O, filter: { type?: K }, after: string | undefined, count: number) => Promise<Slice<R>>;
  view: (r: R) => unknown;
}

async function listRelationships<O, K extends string, R extends { position: string }>(req: ApiRequest, spec: RelationshipList<O, K, R>): Promise<ApiResult> {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const type = req.query.get('type');
  const only = spec.kinds.find((k) => k === type);
  if (type !== undefined && only === undefined) {
    throw new InvalidInput(`The type filter must be one of ${spec.kinds.join(', ')}; got '${type.slice(0, 100)}'.`, parameter('type'));
  }
  const owner = await spec.read(ws, id);
  if (!owner) throw new NotFound(spec.what, id);
  const page = await pageOf(req);
  const rows = await spec.list(ws, owner, only === undefined ? {} : { type: only }, stringKey(page.after), page.limit + 1);
  return { status: 200, body: await page.envelope(rows.items.map((i) => i.record), (r) => r.position, (items) => items.map(spec.view), rows.resume) };
}

/** An entity's parent, then its children oldest first. */
export const listEntityRelationships = (req: ApiRequest) =>
  listRelationships(req, { what: 'entity', kinds: ['parent', 'child'] as const, read: getEntity, list: entityRelationshipsAfter, view: relationshipView });

/** A note's customer, then its links by entity id. */
export const listNoteRelationships = (req: ApiRequest) =>
  listRelationships(req, { what: 'note', kinds: ['customer', 'link'] as const, read: getNote, list: noteRelationshipsAfter, view: noteRelationshipView });
