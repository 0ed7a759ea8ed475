// GET {app_url}/teams/{id}: a team — name, handle, description — and its members, newest membership
// first, a page at a time from the team's membership index (GSI2), as GET /v2/teams/{id}/members
// lists them: names and e-mails only with members:pii:read, links to their pages with members:read.
import { listCursor, listPosition } from './cursors.ts';
import { formatDate, typeLabel } from './format.ts';
import { memberPage, pageUrl, teamPage } from './layout.ts';
import { breadcrumb, empty, facts, pager } from './parts.ts';
import { notFound } from './shell.ts';
import { pageOk, requireScope, type Viewer } from './viewer.ts';
import { pathRecordId } from '../../domain/member-pages.ts';
import { REDACTED } from '../../domain/member-view.ts';
import { teamMembersAfter } from '../../store/pages.ts';
import { getTeam, type TeamItem } from '../../store/teams.ts';
import { html, type Html } from '../pages/html.ts';
import type { ApiResult } from '../request.ts';

const MEMBERS_PER_PAGE = 50;
const PAGE = 'teamPage';

export async function teamPageResult(viewer: Viewer, pathId: string, query: { members?: string | undefined }): Promise<ApiResult> {
  requireScope(viewer, 'teams:read', 'teams');
  const id = pathRecordId(pathId);
  if (!id) throw notFound();
  const team = await getTeam(viewer.workspaceId, id);
  if (!team) throw notFound();
  const description = team.description?.trim() ? team.description : undefined;
  const body = html`${breadcrumb([{ href: pageUrl('/'), label: 'Home' }], team.name)}
<h1>${team.name} <span class="badge">Team</span></h1>
${facts('About this team', [
  ['Handle', `@${team.handle}`],
  ['Created', formatDate(team.createdAt)],
])}
${description ? html`<section class="card" aria-labelledby="description-heading"><h2 id="description-heading">Description</h2><p class="text">${description}</p></section>` : ''}
${await membersSection(viewer, team, query.members)}`;
  return pageOk(viewer, team.name, body);
}

async function membersSection(viewer: Viewer, team: TeamItem, cursor: string | undefined): Promise<Html> {
  const after = await listPosition(viewer, PAGE, team.id, 'members', cursor);
  const slice = await teamMembersAfter(viewer.workspaceId, team.id, after, MEMBERS_PER_PAGE + 1);
  const members = slice.items.slice(0, MEMBERS_PER_PAGE).map(({ record }) => record);
  const last = slice.items.length > MEMBERS_PER_PAGE ? slice.items[MEMBERS_PER_PAGE - 1]!.position : slice.resume;
  const next = last !== undefined ? `${teamPage(team.id)}?members=${await listCursor(viewer, PAGE, team.id, 'members', last)}` : undefined;
  const pii = viewer.scopes.has('members:pii:read');
  const linked = viewer.scopes.has('members:read');
  const rows = members.map((m) => {
    const name = pii ? m.name || m.email : REDACTED;
    return html`<li>${linked ? html`<a class="item-title" href="${memberPage(m.id)}">${name}</a>` : html`<span class="item-title">${name}</span>`} <span class="badge">${typeLabel(m.role)}</span>${pii && name !== m.email ? html` <span class="muted">· ${m.email}</span>` : ''}${m.active ? '' : html` <span class="muted">· deactivated</span>`}</li>`;
  });
  return html`<section class="card" aria-labelledby="members-heading"><h2 id="members-heading">Members</h2>
${
  rows.length
    ? html`<ul class="plain" aria-label="Members of ${team.name}">${rows}</ul>`
    : empty(
        after !== undefined
          ? 'There are no more.'
          : `${team.name} has no members yet. Add some with PATCH /v2/teams/{id} (an addItems operation on members) and they appear here.`,
      )
}
${pager('Pages of members', { first: after !== undefined ? teamPage(team.id) : undefined, firstLabel: 'First page', next, nextLabel: 'More members' })}</section>`;
}
