// A member as Productboard's members API shows one (GET /v2/members, GET /v2/members/{id}). We
// have no usernames, invitations or teams: `username` is the e-mail, `invitationPending` is
// always false (members are added, never invited) and `teams` is left out. Without the
// `members:pii:read` scope the name, username and e-mail read `[redacted]`.
import type { Urls } from './entity-view.ts';
import type { Role } from './scopes.ts';

/** What Productboard returns in place of a value the caller's scopes do not cover. */
export const REDACTED = '[redacted]';

export interface StoredMember {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
}

export const memberLink = (baseUrl: string, id: string) => `${baseUrl}/members/${id}`;

/**
 * The member's JSON; `urls.base` is the API's base URL ({base_url}), `urls.web` where people see
 * the member (the `html` link); `pii` whether the caller may read names and e-mails.
 */
export function memberView(urls: Urls, m: StoredMember, options: { pii: boolean }) {
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
    },
    links: { self: memberLink(urls.base, m.id), html: memberLink(urls.web, m.id) },
  };
}
