// A team and a team's member as Productboard's teams API shows them (GET /v2/teams[/{id}],
// GET /v2/teams/{id}/members), and the team references a member's view lists.
import type { Urls } from './entity-view.ts';
import { memberLink, REDACTED } from './member-view.ts';

interface StoredTeam {
  id: string;
  name: string;
  handle: string;
  description?: string;
  createdAt: string;
  updatedAt: string;
}

export const teamLink = (baseUrl: string, id: string) => `${baseUrl}/teams/${id}`;

/** A team's links: itself and its members in the API, and where people see it (`{web}/teams/{id}`). */
const teamLinks = (urls: Urls, id: string) => ({ self: teamLink(urls.base, id), members: `${teamLink(urls.base, id)}/members`, html: teamLink(urls.web, id) });

/** `{id, type, links}`: what create and update answer. */
export const teamReference = (urls: Urls, id: string) => ({ id, type: 'team' as const, links: teamLinks(urls, id) });

/** A team; it has no avatar here (`avatarUrl` is null, as Productboard's is for a team without one). */
export function teamView(urls: Urls, t: StoredTeam) {
  return {
    id: t.id,
    type: 'team' as const,
    fields: { name: t.name, handle: t.handle, ...(t.description !== undefined ? { description: t.description } : {}), avatarUrl: null },
    links: teamLinks(urls, t.id),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/** A member of a team: name and e-mail only with members:pii:read (`pii`). */
export function teamMemberView(urls: Urls, m: { id: string; name: string; email: string }, options: { pii: boolean }) {
  const personal = (value: string) => (options.pii ? value : REDACTED);
  return { id: m.id, type: 'member' as const, fields: { name: personal(m.name), email: personal(m.email) }, links: { self: memberLink(urls.base, m.id) } };
}

/** A team as a member's `teams` lists it. */
export const memberTeamReference = (urls: Urls, t: { id: string; name: string }) => ({ id: t.id, name: t.name, links: { self: teamLink(urls.base, t.id) } });
