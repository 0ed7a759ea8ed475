// GET {app_url}/members/{id}: a member — name and e-mail (with members:pii:read, as the REST
// members routes), role, whether active, their teams (with teams:read) — and what they own: entities and notes, each list a page
// at a time from the owner index (GSI3).
import { listCursor, listPosition } from './cursors.ts';
import { formatDate, nameOf, typeLabel } from './format.ts';
import { memberPage, pageUrl } from './layout.ts';
import { breadcrumb, empty, entityList, facts, noteList, pager, teamLinks } from './parts.ts';
import { notFound } from './shell.ts';
import { pageOk, requireScope, type Viewer } from './viewer.ts';
import { ENTITY_TYPES, isHierarchyType } from '../../domain/hierarchy.ts';
import { pathRecordId } from '../../domain/member-pages.ts';
import { REDACTED } from '../../domain/member-view.ts';
import { getMember } from '../../store/members.ts';
import { entitiesAfter, notesAfter } from '../../store/pages.ts';
import { scoreOfTotal } from '../../store/score.ts';
import { html, type Html } from '../pages/html.ts';
import type { ApiResult } from '../request.ts';

const OWNED_PER_PAGE = 20;
const PAGE = 'memberPage';

interface MemberPageQuery {
  entities?: string | undefined;
  notes?: string | undefined;
}

export async function memberPageResult(viewer: Viewer, pathId: string, query: MemberPageQuery): Promise<ApiResult> {
  requireScope(viewer, 'members:read', 'members');
  const id = pathRecordId(pathId);
  if (!id) throw notFound();
  const member = await getMember(viewer.workspaceId, id);
  if (!member) throw notFound();
  const pii = viewer.scopes.has('members:pii:read');
  const name = pii ? member.name || member.email : REDACTED;
  const [entities, notes, teams] = await Promise.all([
    ownedEntities(viewer, id, name, query.entities),
    ownedNotes(viewer, id, name, query.notes),
    teamLinks(viewer, member.teamIds ?? []),
  ]);
  const body = html`${breadcrumb([{ href: pageUrl('/'), label: 'Home' }], name)}
<h1>${name}</h1>
${facts('About this member', [
  ['Role', typeLabel(member.role)],
  ['E-mail', pii ? member.email : REDACTED],
  ['Status', member.active ? 'Active' : 'Deactivated'],
  ['Teams', teams],
  ['Member since', formatDate(member.createdAt)],
])}
${entities}
${notes}`;
  return pageOk(viewer, name, body);
}

async function ownedEntities(viewer: Viewer, id: string, name: string, cursor: string | undefined): Promise<Html> {
  if (!viewer.scopes.has('entities:read')) return html``;
  const after = await listPosition(viewer, PAGE, id, 'entities', cursor);
  const slice = await entitiesAfter(viewer.workspaceId, { types: ENTITY_TYPES, ownerIds: [id] }, after, OWNED_PER_PAGE + 1);
  const rows = slice.items.slice(0, OWNED_PER_PAGE).map(({ record: e }) => ({
    id: e.id,
    type: e.type,
    name: nameOf(e.fields.name, ''),
    createdAt: e.createdAt,
    ...(isHierarchyType(e.type) ? { score: scoreOfTotal(e.total) } : {}),
  }));
  const last = slice.items.length > OWNED_PER_PAGE ? slice.items[OWNED_PER_PAGE - 1]!.position : slice.resume;
  const next = last !== undefined ? `${memberPage(id)}?entities=${await listCursor(viewer, PAGE, id, 'entities', last)}` : undefined;
  return html`<section class="card" aria-labelledby="owned-entities-heading"><h2 id="owned-entities-heading">Entities they own</h2>
${
  rows.length
    ? entityList('Entities they own', rows)
    : empty(
        after !== undefined
          ? 'There are no more.'
          : `${name} owns no products, features or customers. Make them the owner of one (its owner field, PATCH /v2/entities/{id}) and it appears here.`,
      )
}
${pager('Pages of owned entities', { first: after !== undefined ? memberPage(id) : undefined, firstLabel: 'First page', next, nextLabel: 'More entities' })}</section>`;
}

async function ownedNotes(viewer: Viewer, id: string, name: string, cursor: string | undefined): Promise<Html> {
  if (!viewer.scopes.has('notes:read')) return html``;
  const after = await listPosition(viewer, PAGE, id, 'notes', cursor);
  const slice = await notesAfter(viewer.workspaceId, { ownerIds: [id] }, after, OWNED_PER_PAGE + 1);
  const rows = slice.items.slice(0, OWNED_PER_PAGE).map(({ record: n }) => ({ id: n.id, name: n.fields.name, content: n.fields.content, date: n.createdAt }));
  const last = slice.items.length > OWNED_PER_PAGE ? slice.items[OWNED_PER_PAGE - 1]!.position : slice.resume;
  const next = last !== undefined ? `${memberPage(id)}?notes=${await listCursor(viewer, PAGE, id, 'notes', last)}` : undefined;
  return html`<section class="card" aria-labelledby="owned-notes-heading"><h2 id="owned-notes-heading">Notes they own</h2>
${
  rows.length
    ? noteList('Notes they own', rows)
    : empty(
        after !== undefined
          ? 'There are no more.'
          : `${name} owns no notes. Make them the owner of a note (its owner field, PATCH /v2/notes/{id}) and it appears here.`,
      )
}
${pager('Pages of owned notes', { first: after !== undefined ? memberPage(id) : undefined, firstLabel: 'First page', next, nextLabel: 'More notes' })}</section>`;
}
