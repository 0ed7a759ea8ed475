// Store-level test helpers: a workspace with members made by the store itself, records written
// through the store's own create functions, and a walk over a keyset list as the HTTP layer pages it.
import type { EntityType } from '#lib/domain/hierarchy.ts';
import type { Metadata } from '#lib/domain/metadata.ts';
import type { NoteType } from '#lib/domain/schemas/note.ts';
import type { EntityItem } from '#lib/store/entities.ts';
import { createEntity, type NewRelation } from '#lib/store/entity-writes.ts';
import { addMember, type Member } from '#lib/store/members.ts';
import { createNote, type NewLink, type NoteItem } from '#lib/store/notes.ts';
import type { Slice } from '#lib/store/pages.ts';
import { createWorkspace } from '#lib/store/workspaces.ts';

let n = 0;
const uniqueEmail = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++n}@example.com`;

export async function storeWorkspace() {
  const ws = await createWorkspace('Store test');
  const admin = await addMember(ws.id, { email: uniqueEmail('admin'), role: 'admin', active: true });
  return {
    ws: ws.id,
    admin,
    member: (role: 'admin' | 'maker' | 'viewer' = 'maker', active = true) => addMember(ws.id, { email: uniqueEmail(role), role, active }),
  };
}

/** An owner or creator field value, as the store keeps it. */
export const memberRef = (m: Member) => ({ id: m.id, email: m.email });

export function entity(
  ws: string,
  type: EntityType,
  name: string,
  options: { parent?: string; fields?: Record<string, unknown>; metadata?: Metadata; relations?: NewRelation[] } = {},
): Promise<EntityItem> {
  return createEntity(ws, {
    type,
    values: { name, ...options.fields },
    ...(options.parent ? { parent: { id: options.parent } } : {}),
    parentPath: ['data', 'relationships', 0, 'target', 'id'],
    ...(options.metadata ? { metadata: options.metadata } : {}),
    ...(options.relations ? { relations: options.relations } : {}),
  });
}

export function note(
  ws: string,
  name: string,
  options: { fields?: Record<string, unknown>; type?: string; metadata?: Metadata; customer?: string; links?: string[] } = {},
): Promise<NoteItem> {
  const links: NewLink[] = (options.links ?? []).map((entityId, i) => ({ entityId, importance: 'important', path: ['data', 'relationships', i] }));
  return createNote(ws, {
    // The store keeps whatever type it is given (conversation notes included); the schemas say which are served.
    type: (options.type ?? 'textNote') as NoteType,
    values: { name, ...options.fields },
    ...(options.metadata ? { metadata: options.metadata } : {}),
    ...(options.customer ? { customer: { id: options.customer, path: ['data', 'relationships', 0, 'target'] } } : {}),
    links,
  });
}

/**
 * Walks a list page by page as lib/http/pagination.ts does (limit + 1 read, next from the last
 * record or the slice's resume position): the records in order and the size of each page.
 */
export async function walk<T>(
  read: (after: string | undefined, count: number) => Promise<Slice<T>>,
  limit: number,
  maxPages = 100,
): Promise<{ records: T[]; pages: number[] }> {
  const records: T[] = [];
  const pages: number[] = [];
  let after: string | undefined;
  do {
    const slice = await read(after, limit + 1);
    const page = slice.items.slice(0, limit);
    records.push(...page.map((i) => i.record));
    pages.push(page.length);
    after = slice.items.length > limit ? page.at(-1)!.position : slice.resume;
  } while (after !== undefined && pages.length < maxPages);
  return { records, pages };
}
