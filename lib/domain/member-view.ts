// A member as Productboard's members API shows one (GET /v2/members, GET /v2/members/{id},
// POST /v2/members/search). We have no usernames or invitations: `username` is the e-mail, and
// `invitationPending` is always false (members are added, never invited). `teams` lists the teams
// the member belongs to. Without the `members:pii:read` scope the name, username and e-mail read
// `[redacted]`.
import type { Urls } from './entity-view.ts';
import type { Role } from './scopes.ts';

/** What Productboard returns in place of a value the caller's scopes do not cover. */
export const REDACTED = '[redacted]';

interface StoredMember {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
}

export const memberLink = (baseUrl: string, id: string) => `${baseUrl}/members/${id}`;

/** A team as a member's `teams` lists it: its id, name and link. */
interface TeamRef {
  id: string;
  name: string;
  links: { self: string };
}

/**
 * The member's JSON; `urls.base` is the API's base URL ({base_url}), `urls.web` where people see
 * the member (the `html` link); `pii` whether the caller may read names and e-mails; `teams` the
 * teams it belongs to.
 */
export function memberView(urls: Urls, m: StoredMember, options: { pii: boolean; teams?: readonly TeamRef[] }) {
  const personal = (value: string) => (options.pii ? value : REDACTED);
  return {
    id: m.id,
    type: 'member' as const,
    fields: {
      name: personal(m.name),
      username: personal(m.email),
      email: personal(m.email),
      role: m.role,
      disabled: !m.active,
      invitationPending: false,
      teams: [...(options.teams ?? [])],
    },
    links: { self: memberLink(urls.base, m.id), html: memberLink(urls.web, m.id) },
  };
}
