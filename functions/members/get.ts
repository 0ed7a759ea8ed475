// GET /v2/members/{id} — one member of the workspace (disabled ones too); names and e-mails only
// with members:pii:read.
import { NotFound } from '#lib/domain/errors.ts';
import { MemberPath } from '#lib/domain/schemas/member.ts';
import { MemberResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { memberViews } from '#lib/http/member-views.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { getMember } from '#lib/store/members.ts';

export const handler = authedApi(routes.getMember, { params: MemberPath, responses: { 200: MemberResponse } }, async (req, { params: { id } }) => {
  const principal = principalOf(req);
  const member = await getMember(principal.workspaceId, id);
  if (!member) throw new NotFound('member', id);
  const [view] = await memberViews(principal.workspaceId, [member], principal.scopes.has('members:pii:read'));
  return { status: 200, body: { data: view! } };
});
