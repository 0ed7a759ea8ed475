// GET /v2/members — the workspace's members, oldest first, as Productboard's members API lists
// them: `query` (part of the name or e-mail), `roles[]`, `includeDisabled`; names and e-mails only
// with members:pii:read.
import { ListMembersQuery } from '#lib/domain/schemas/member.ts';
import { MemberList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { memberViews } from '#lib/http/member-views.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { membersAfter } from '#lib/store/pages.ts';

export const handler = authedApi(routes.listMembers, { query: ListMembersQuery, responses: { 200: MemberList } }, async (req, { query }) => {
  const principal = principalOf(req);
  const page = await pageOf(req, query);
  const filter = {
    ...(query['roles[]'] ? { roles: query['roles[]'] } : {}),
    ...(query.query !== undefined ? { query: query.query } : {}),
    state: query.includeDisabled === true ? ('any' as const) : ('active' as const),
  };
  const slice = await membersAfter(principal.workspaceId, filter, stringKey(page.after), page.limit + 1);
  const pii = principal.scopes.has('members:pii:read');
  const body = await page.envelope(slice, (records) => memberViews(principal.workspaceId, records, pii));
  return { status: 200, body };
});
