// GET /v2/members — the workspace's members, oldest first, as Productboard's members API lists
// them: `query` (part of the name or e-mail; with members:pii:read only), `roles[]`, `includeDisabled`;
// names and e-mails only with members:pii:read.
import { ListMembersQuery } from '#lib/domain/schemas/member.ts';
import { MemberList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { memberListFilterOf } from '#lib/http/list-filters.ts';
import { memberViews } from '#lib/http/member-views.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { membersAfter } from '#lib/store/pages.ts';

export const handler = authedApi(routes.listMembers, { query: ListMembersQuery, responses: { 200: MemberList } }, async (req, { query }) => {
  const principal = principalOf(req);
  const pii = principal.scopes.has('members:pii:read');
  const filter = memberListFilterOf(query, pii);
  const page = await pageOf(req, query);
  const slice = await membersAfter(principal.workspaceId, filter, stringKey(page.after), page.limit + 1);
  const body = await page.envelope(slice, (records) => memberViews(principal.workspaceId, records, pii));
  return { status: 200, body };
});
