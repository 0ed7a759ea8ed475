// Productboard's list filters, as the schemas parsed them (lib/domain/schemas/filters.ts), turned
// into the store's queries (lib/store/pages.ts EntityQuery, NoteQuery). A member named by e-mail is
// looked up once; an e-mail no member has matches nothing (a filter, not a reference).
import { InvalidInput, parameter, pointer, type InputLocation } from '../domain/errors.ts';
import { utcInstant, type MemberFilter, type TimeRange } from '../domain/filters.ts';
import { ENTITY_TYPES, type EntityType } from '../domain/hierarchy.ts';
import type { SourceFilter } from '../domain/metadata.ts';
import type { EntitySearchFilter } from '../domain/schemas/entity.ts';
import type { ListMembersQuery, SearchMembersBody } from '../domain/schemas/member.ts';
import { NOTE_TYPES, type NoteSearchFilter, type NoteType } from '../domain/schemas/note.ts';
import { statusesNamed } from '../domain/statuses.ts';
import { getMemberByEmail } from '../store/members.ts';
import type { EntityQuery, NoteQuery } from '../store/pages.ts';
import { teamIdsByNames, teamsByIds } from '../store/teams.ts';

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

/**
 * The status ids a `status[id]` / `status[name]` pair selects: a name stands for the values of that
 * name of every type (each type has its own); an id given with a name must be one of them.
 */
function statusIds(id: string | undefined, name: string | undefined): string[] | undefined {
  const byName = name === undefined ? undefined : statusesNamed(name).map((s) => s.id);
  if (id === undefined) return byName;
  return byName === undefined || byName.includes(id) ? [id] : [];
}

/**
 * The live teams among those named by id or by name (any case): a team that does not exist (or no
 * longer) selects nothing, as any filter value that matches no record.
 */
async function liveTeamIds(ws: string, teams: ReadonlyArray<{ id: string } | { name: string }>): Promise<string[]> {
  const ids = teams.flatMap((t) => ('id' in t ? [t.id] : []));
  const named = await teamIdsByNames(
    ws,
    teams.flatMap((t) => ('name' in t ? [t.name] : [])),
  );
  const live = await teamsByIds(ws, [...ids, ...named.values()]);
  return [...live.keys()];
}

interface EntityListQuery {
  name?: string | undefined;
  'owner[id]'?: string | undefined;
  'owner[email]'?: string | undefined;
  'status[id]'?: string | undefined;
  'status[name]'?: string | undefined;
  'teams[id]'?: string | undefined;
  'teams[name]'?: string | undefined;
  archived?: boolean | undefined;
  'parent[id]'?: string | undefined;
  'metadata[source][system]'?: string | undefined;
  'metadata[source][recordId]'?: string | undefined;
}

/** listEntities' filters over `types`; `pii`: the reader sees users' names (users:pii:read). */
export async function entityQueryOf(ws: string, types: readonly EntityType[], query: EntityListQuery, pii: boolean): Promise<EntityQuery> {
  const ownerIds = await memberIds(ws, query['owner[id]'], query['owner[email]']);
  const statuses = statusIds(query['status[id]'], query['status[name]']);
  const source = sourceOf(query);
  const [teamId, teamName] = [query['teams[id]'], query['teams[name]']];
  if (teamId !== undefined && teamName !== undefined)
    throw new InvalidInput("'teams[id]' and 'teams[name]' exclude each other (as in Productboard's API): give one of them.", parameter('teams[name]'));
  const teams = teamId !== undefined ? [{ id: teamId }] : teamName !== undefined ? [{ name: teamName }] : undefined;
  const teamIds = teams && (await liveTeamIds(ws, teams));
  return {
    types,
    ...(teamIds ? { teamIds } : {}),
    ...(query['parent[id]'] !== undefined ? { parentIds: [query['parent[id]']] } : {}),
    ...(ownerIds ? { ownerIds } : {}),
    ...(query.name !== undefined ? { name: query.name } : {}),
    ...(pii ? {} : { hidesUserNames: true as const }),
    ...(statuses ? { statusIds: statuses } : {}),
    ...(query.archived !== undefined ? { archived: query.archived } : {}),
    ...(source ? { source } : {}),
  };
}

/** A time range from two parameters, each an instant with a zone; from after to is refused. */
function timeRangeOf(
  fromName: string,
  from: string | undefined,
  toName: string,
  to: string | undefined,
  where: InputLocation = parameter(fromName),
): TimeRange | undefined {
  if (from === undefined && to === undefined) return undefined;
  const range: TimeRange = {};
  if (from !== undefined) range.from = utcInstant(from)!;
  if (to !== undefined) range.to = utcInstant(to)!;
  if (range.from !== undefined && range.to !== undefined && range.from > range.to) {
    throw new InvalidInput(`'${fromName}' (${from}) is later than '${toName}' (${to}); the range would be empty.`, where);
  }
  return range;
}

interface NoteListQuery {
  /** Note types (`type` and `type[]` together), by their names. */
  type?: NoteType | undefined;
  'type[]'?: readonly NoteType[] | undefined;
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

/** The note types named (each once), or undefined when they are every type (no filter to apply). */
const noteTypes = (named: readonly NoteType[]): NoteType[] | undefined => {
  const types = [...new Set(named)];
  return types.length && types.length < NOTE_TYPES.length ? types : undefined;
};

/** listNotes' filters. */
export async function noteQueryOf(ws: string, query: NoteListQuery): Promise<NoteQuery> {
  const ownerIds = await memberIds(ws, query['owner[id]'], query['owner[email]']);
  const creatorIds = await memberIds(ws, query['creator[id]'], query['creator[email]']);
  const source = sourceOf(query);
  const created = timeRangeOf('createdFrom', query.createdFrom, 'createdTo', query.createdTo);
  const updated = timeRangeOf('updatedFrom', query.updatedFrom, 'updatedTo', query.updatedTo);
  const types = noteTypes([...(query['type[]'] ?? []), ...(query.type ? [query.type] : [])]);
  return {
    ...(types ? { types } : {}),
    ...(ownerIds ? { ownerIds } : {}),
    ...(creatorIds ? { creatorIds } : {}),
    ...(query.archived !== undefined ? { archived: query.archived } : {}),
    ...(query.processed !== undefined ? { processed: query.processed } : {}),
    ...(source ? { sources: [source] } : {}),
    ...(created ? { created } : {}),
    ...(updated ? { updated } : {}),
  };
}

/** The members a search filter's alternatives name (`{id?, email?}` each; both given must agree). */
async function memberAlternatives(
  ws: string,
  members: ReadonlyArray<{ id?: string | undefined; email?: string | undefined }> | undefined,
): Promise<string[] | undefined> {
  if (!members) return undefined;
  return [...new Set((await Promise.all(members.map(async (m) => (await memberIds(ws, m.id, m.email)) ?? []))).flat())];
}

const rangeAt = (name: 'createdAt' | 'updatedAt', range: { from?: string | undefined; to?: string | undefined } | undefined) =>
  range && timeRangeOf(`/data/filter/${name}/from`, range.from, `/data/filter/${name}/to`, range.to, pointer(['data', 'filter', name]));

/** Productboard's notes search (POST /v2/notes/search `data.filter` and `data.search.query`). */
export async function noteSearchQueryOf(ws: string, filter: NoteSearchFilter, text: string | undefined): Promise<NoteQuery> {
  const f = filter.fields ?? {};
  const ownerIds = await memberAlternatives(ws, f.owner);
  const creatorIds = await memberAlternatives(ws, f.creator);
  const sources = filter.metadata?.source?.map((s) => ({
    ...(s.system !== undefined ? { system: s.system } : {}),
    ...(s.recordId !== undefined ? { recordId: s.recordId } : {}),
  }));
  const created = rangeAt('createdAt', filter.createdAt);
  const updated = rangeAt('updatedAt', filter.updatedAt);
  const rel = filter.relationships;
  return {
    ...(filter.type ? { types: noteTypes(filter.type) } : {}),
    ...(filter.id ? { ids: [...new Set(filter.id)] } : {}),
    ...(ownerIds ? { ownerIds } : {}),
    ...(creatorIds ? { creatorIds } : {}),
    ...(f.tag ? { tags: f.tag.map((t) => t.name) } : {}),
    ...(typeof f.archived === 'boolean' ? { archived: f.archived } : {}),
    ...(typeof f.processed === 'boolean' ? { processed: f.processed } : {}),
    ...(sources ? { sources } : {}),
    ...(rel?.customer ? { customerIds: [...new Set(rel.customer.map((c) => c.id))] } : {}),
    ...(rel?.link ? { linkedTo: [...new Set(rel.link.map((l) => l.id))] } : {}),
    ...(text !== undefined ? { text } : {}),
    ...(created ? { created } : {}),
    ...(updated ? { updated } : {}),
  };
}

/** Productboard's entity search filter (POST /v2/entities/search `data.filter`); `pii`: the reader sees users' names (users:pii:read). */
export async function entitySearchQueryOf(ws: string, filter: EntitySearchFilter, pii: boolean): Promise<EntityQuery> {
  const f = filter.fields ?? {};
  const owners = f.owner;
  // Owners are alternatives: an e-mail no member has adds none.
  const ownerIds = owners
    ? (await Promise.all(owners.map(async (o) => ('id' in o ? [o.id] : ((await memberIds(ws, undefined, o.email)) ?? []))))).flat()
    : undefined;
  const statuses = f.status;
  const teamIds = f.teams && (await liveTeamIds(ws, f.teams));
  const source = filter.metadata?.source;
  const created = rangeAt('createdAt', filter.createdAt);
  const updated = rangeAt('updatedAt', filter.updatedAt);
  return {
    types: filter.type ? [...new Set(filter.type)] : ENTITY_TYPES,
    ...(filter.id ? { ids: [...new Set(filter.id)] } : {}),
    ...(filter.relationships?.parent ? { parentIds: [...new Set(filter.relationships.parent.map((p) => p.id))] } : {}),
    ...(ownerIds ? { ownerIds: [...new Set(ownerIds)] } : {}),
    ...(typeof f.name === 'string' ? { name: f.name } : {}),
    ...(pii ? {} : { hidesUserNames: true as const }),
    ...(typeof f.archived === 'boolean' ? { archived: f.archived } : {}),
    ...(teamIds ? { teamIds } : {}),
    ...(statuses ? { statusIds: statuses.flatMap((s) => ('id' in s ? [s.id] : statusIds(undefined, s.name)!)) } : {}),
    ...(source && (source.system !== undefined || source.recordId !== undefined)
      ? {
          source: {
            ...(source.system !== undefined ? { system: source.system } : {}),
            ...(source.recordId !== undefined ? { recordId: source.recordId } : {}),
          },
        }
      : {}),
    ...(created ? { created } : {}),
    ...(updated ? { updated } : {}),
  };
}

/** A filter that reads what members:pii:read guards, refused at its place for a token without it. */
const needsPii = (at: InputLocation, what: string) =>
  new InvalidInput(`${what} reads members' e-mails and names, which takes the members:pii:read scope; this token lacks it.`, at);

/**
 * GET /v2/members's parameters as a member filter. `query` matches names and e-mails, so without
 * members:pii:read (`pii`) it is refused, as the search's is: a token that reads them redacted must
 * not learn them a prefix at a time.
 */
export function memberListFilterOf(query: ListMembersQuery, pii: boolean): MemberFilter {
  if (query.query !== undefined && !pii) throw needsPii(parameter('query'), 'A search');
  return {
    ...(query['roles[]'] ? { roles: query['roles[]'] } : {}),
    ...(query.query !== undefined ? { query: query.query } : {}),
    state: query.includeDisabled === true ? 'any' : 'active',
  };
}

/**
 * Productboard's members search (POST /v2/members/search `data`) as a member filter. The e-mail
 * filter and the text search read what members:pii:read guards (`pii`): without it they are refused
 * at their place, never answered from the hidden values. `filter.fields.disabled` chooses the state
 * (true: deactivated only, false: active only) over `return.includeDisabled` (both states).
 */
export function memberSearchFilterOf(data: NonNullable<SearchMembersBody['data']>, pii: boolean): MemberFilter {
  const f = data.filter?.fields ?? {};
  const query = data.search?.query;
  if (f.email !== undefined && !pii) throw needsPii(pointer(['data', 'filter', 'fields', 'email']), 'Filtering by e-mail');
  if (query !== undefined && !pii) throw needsPii(pointer(['data', 'search', 'query']), 'A search');
  const state = f.disabled === true ? 'disabled' : f.disabled === false ? 'active' : data.return?.includeDisabled === true ? 'any' : 'active';
  return {
    state,
    ...(data.filter?.id ? { ids: [...new Set(data.filter.id)] } : {}),
    ...(f.email ? { emails: f.email } : {}),
    ...(f.role ? { roles: [...new Set(f.role)] } : {}),
    ...(query !== undefined ? { query } : {}),
    ...(f.invitationPending === true ? { invitationPendingOnly: true } : {}),
  };
}
