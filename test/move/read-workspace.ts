// A workspace as its API shows it, read page by page through a running gateway: members, teams with
// their members, custom fields (configurations), tag values, entities with every relationship and
// every score, notes with their customer, links (importance included) and comments, webhook
// subscriptions. Records are keyed by id.
export interface WorkspaceRead {
  members: Record<string, unknown>;
  teams: Record<string, unknown>;
  teamMembers: Record<string, unknown[]>;
  tagValues: unknown[];
  configurations: unknown;
  entities: Record<string, unknown>;
  relationships: Record<string, unknown[]>;
  scores: Record<string, number>;
  notes: Record<string, unknown>;
  noteRelationships: Record<string, unknown[]>;
  /** Each note's comments (notes without any left out). */
  comments: Record<string, unknown[]>;
  webhooks: Record<string, unknown>;
}

async function get(url: string, token: string): Promise<any> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function all(url: string, token: string): Promise<any[]> {
  const out: any[] = [];
  for (let next: string | undefined = url; next;) {
    const page = await get(next, token);
    out.push(...page.data);
    next = page.links?.next ?? undefined;
  }
  return out;
}

const byId = (list: any[]) => Object.fromEntries(list.map((r) => [r.id, r]));

export async function readWorkspace(baseUrl: string, token: string): Promise<WorkspaceRead> {
  const entities = await all(`${baseUrl}/entities?fields[]=all`, token);
  const notes = await all(`${baseUrl}/notes?fields[]=all`, token);
  const relationships: Record<string, unknown[]> = {};
  const scores: Record<string, number> = {};
  for (const e of entities) {
    relationships[e.id] = await all(`${baseUrl}/entities/${e.id}/relationships`, token);
    delete e.relationships;
    if (['product', 'component', 'feature', 'subfeature'].includes(e.type))
      scores[e.id] = (await get(`${baseUrl}/entities/${e.id}/score`, token)).data.fields.score;
  }
  const noteRelationships: Record<string, unknown[]> = {};
  const comments: Record<string, unknown[]> = {};
  for (const n of notes) {
    noteRelationships[n.id] = await all(`${baseUrl}/notes/${n.id}/relationships`, token);
    delete n.relationships;
    const list = await all(`${baseUrl}/notes/${n.id}/comments`, token);
    if (list.length) comments[n.id] = list;
  }
  const teams = await all(`${baseUrl}/teams`, token);
  const teamMembers: Record<string, unknown[]> = {};
  for (const t of teams) teamMembers[t.id] = await all(`${baseUrl}/teams/${t.id}/members`, token);
  return {
    members: byId(await all(`${baseUrl}/members?includeDisabled=true`, token)),
    teams: byId(teams),
    teamMembers,
    tagValues: await all(`${baseUrl}/entities/fields/tags/values`, token),
    configurations: (await get(`${baseUrl}/entities/configurations`, token)).data.concat((await get(`${baseUrl}/notes/configurations`, token)).data),
    entities: byId(entities),
    relationships,
    scores,
    notes: byId(notes),
    noteRelationships,
    comments,
    webhooks: byId(await all(`${baseUrl}/webhooks`, token)),
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** `read` with every id of `ids` replaced by `map(id)` (other uuids, such as built-in status ids, stay). */
export function mapIds<T>(read: T, ids: ReadonlySet<string>, map: (id: string) => string): T {
  return JSON.parse(JSON.stringify(read).replace(UUID, (id) => (ids.has(id) ? map(id) : id))) as T;
}

/**
 * The read with each record's relationship list, each team's members and each member's teams in one
 * order: the service lists a note's links, children joined at the same time, members who joined a
 * team at the same time and a member's teams by id, and a move gives records new ids.
 */
export function sortedLists(read: WorkspaceRead): WorkspaceRead {
  const sorted = (v: unknown[]) => [...v].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  const sort = (lists: Record<string, unknown[]>) => Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, sorted(v)]));
  const members = Object.fromEntries(
    Object.entries(read.members).map(([k, m]: [string, any]) => [
      k,
      Array.isArray(m?.fields?.teams) ? { ...m, fields: { ...m.fields, teams: sorted(m.fields.teams) } } : m,
    ]),
  );
  return { ...read, members, relationships: sort(read.relationships), noteRelationships: sort(read.noteRelationships), teamMembers: sort(read.teamMembers) };
}

/** Every record id a read names: what a move maps. */
export function recordIds(read: WorkspaceRead): Set<string> {
  const ids = new Set<string>([
    ...Object.keys(read.members),
    ...Object.keys(read.teams),
    ...Object.keys(read.entities),
    ...Object.keys(read.notes),
    ...Object.keys(read.webhooks),
  ]);
  for (const v of read.tagValues as Array<{ id: string }>) ids.add(v.id);
  for (const list of Object.values(read.comments) as Array<Array<{ id: string }>>) for (const c of list) ids.add(c.id);
  for (const c of read.configurations as Array<{ fields: Record<string, unknown> }>)
    for (const id of Object.keys(c.fields)) if (/^[0-9a-f-]{36}$/.test(id)) ids.add(id);
  return ids;
}
