// POST /v2/members/search — Productboard's members search: ids, e-mails, roles, state, and a text
// search on names and e-mails; the e-mail filter and the search need members:pii:read (400
// otherwise, as Productboard answers). Oldest first, like the list; `pageCursor`, `limit`.
import { SearchMembersBody, SearchMembersQuery } from '#lib/domain/schemas/member.ts';
import { MemberList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { memberSearchFilterOf } from '#lib/http/list-filters.ts';
import { memberViews } from '#lib/http/member-views.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { membersAfter } from '#lib/store/pages.ts';

export const handler = authedApi(
  routes.searchMembers,
  { query: SearchMembersQuery, body: SearchMembersBody, responses: { 200: MemberList } },
  async (req, { query, body: { data = {} } }) => {
    const principal = principalOf(req);
    const pii = principal.scopes.has('members:pii:read');
    const filter = memberSearchFilterOf(data, pii);
    const page = await pageOf(req, query, { body: data });
    const slice = await membersAfter(principal.workspaceId, filter, stringKey(page.after), page.limit + 1);
    const body = await page.envelope(slice, (records) => memberViews(principal.workspaceId, records, pii));
    return { status: 200, body };
  },
);
