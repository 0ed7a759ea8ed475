// Productboard's list filters, as the schemas parsed them (lib/domain/schemas/filters.ts), turned
// into the store's queries (lib/store/pages.ts EntityQuery, NoteQuery). A member named by e-mail is
// looked up once; an e-mail no member has matches nothing (a filter, not a reference).
import { InvalidInput, parameter } from '../domain/errors.ts';
import { utcInstant, type TimeRange } from '../domain/filters.ts';
import type { EntityType } from '../domain/hierarchy.ts';
import type { SourceFilter } from '../domain/metadata.ts';
import { STATUSES } from '../domain/schemas/field-values.ts';
import { getMemberByEmail } from '../store/members.ts';
import type { EntityQuery, NoteQuery } from '../store/pages.ts';

/** The member ids a `<role>[id]` / `<role>[email]` pair selects: undefined when neither is given. */
async function memberIds(ws: string, id: string | undefined, email: string | undefined): Promise<string[] | undefined> {
  if (email === undefined) return id === undefined ? undefined : [id];
  const member = await getMemberByEmail(ws, email);
  if (!member || (id !== undefined && id !== member.id)) return [];
  return [member.id];
}

function sourceOf(query: { 'metadata[source][system]'?: string | undefined; 'metadata[source][recordId]'?: string | undefined }): SourceFilter | undefined {
  const system = query['metadata[source][system]'];
  const recordId = query['metadata[source][recordId]'];
  if (system === undefined && recordId === undefined) return undefined;
  return { ...(system !== undefined ? { system } : {}), ...(recordId !== undefined ? { recordId } : {}) };
}

/** A status given by id and by name must be the same one. */
function statusIds(id: string | undefined, name: string | undefined): string[] | undefined {
  const byName = name === undefined ? undefined : STATUSES.find((s) => s.name.toLowerCase() === name.toLowerCase())?.id;
  if (id === undefined) return byName === undefined ? undefined : [byName];
  return byName === undefined || byName === id ? [id] : [];
}

export interface EntityListQuery {
  name?: string | undefined;
  'owner[id]'?: string | undefined;
  'owner[email]'?: string | undefined;
  'status[id]'?: string | undefined;
  'status[name]'?: string | undefined;
  archived?: boolean | undefined;
  'parent[id]'?: string | undefined;
  'metadata[source][system]'?: string | undefined;
  'metadata[source][recordId]'?: string | undefined;
}

/** listEntities' filters over `types`. */
export async function entityQueryOf(ws: string, types: readonly EntityType[], query: EntityListQuery): Promise<EntityQuery> {
  const ownerIds = await memberIds(ws, query['owner[id]'], query['owner[email]']);
  const statuses = statusIds(query['status[id]'], query['status[name]']);
  const source = sourceOf(query);
  return {
    types,
    ...(query['parent[id]'] !== undefined ? { parentIds: [query['parent[id]']] } : {}),
    ...(ownerIds ? { ownerIds } : {}),
    ...(query.name !== undefined ? { name: query.name } : {}),
    ...(statuses ? { statusIds: statuses } : {}),
    ...(query.archived !== undefined ? { archived: query.archived } : {}),
    ...(source ? { source } : {}),
  };
}

/** A time range from two parameters, each an instant with a zone; from after to is refused. */
export function timeRangeOf(fromName: string, from: string | undefined, toName: string, to: string | undefined): TimeRange | undefined {
  if (from === undefined && to === undefined) return undefined;
  const range: TimeRange = {};
  if (from !== undefined) range.from = utcInstant(from)!;
  if (to !== undefined) range.to = utcInstant(to)!;
  if (range.from !== undefined && range.to !== undefined && range.from > range.to) {
    throw new InvalidInput(`Query parameter '${fromName}' (${from}) is later than '${toName}' (${to}); the range would be empty.`, parameter(fromName));
  }
  return range;
}

export interface NoteListQuery {
  archived?: boolean | undefined;
  processed?: boolean | undefined;
  'owner[id]'?: string | undefined;
  'owner[email]'?: string | undefined;
  'creator[id]'?: string | undefined;
  'creator[email]'?: string | undefined;
  'metadata[source][system]'?: string | undefined;
  'metadata[source][recordId]'?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  updatedFrom?: string | undefined;
  updatedTo?: string | undefined;
}

/** listNotes' filters. */
export async function noteQueryOf(ws: string, query: NoteListQuery): Promise<NoteQuery> {
  const ownerIds = await memberIds(ws, query['owner[id]'], query['owner[email]']);
  const creatorIds = await memberIds(ws, query['creator[id]'], query['creator[email]']);
  const source = sourceOf(query);
  const created = timeRangeOf('createdFrom', query.createdFrom, 'createdTo', query.createdTo);
  const updated = timeRangeOf('updatedFrom', query.updatedFrom, 'updatedTo', query.updatedTo);
  return {
    ...(ownerIds ? { ownerIds } : {}),
    ...(creatorIds ? { creatorIds } : {}),
    ...(query.archived !== undefined ? { archived: query.archived } : {}),
    ...(query.processed !== undefined ? { processed: query.processed } : {}),
    ...(source ? { sources: [source] } : {}),
    ...(created ? { created } : {}),
    ...(updated ? { updated } : {}),
  };
}
