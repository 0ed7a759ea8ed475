// GET {app_url}/notes/{id}: a note — its content (sanitised), its customer, who owns it — and the
// entities it is linked to, each with the importance it gives them.
import { formatDate, nameOf, typeLabel } from './format.ts';
import { entityPage, memberPage, pageUrl } from './layout.ts';
import { badge, breadcrumb, empty, facts, importanceTag } from './parts.ts';
import { richText } from './rich-text.ts';
import { notFound } from './shell.ts';
import { pageOk, requireScope, type Viewer } from './viewer.ts';
import { pathRecordId } from '../../domain/member-pages.ts';
import { REDACTED } from '../../domain/member-view.ts';
import type { Importance } from '../../domain/score.ts';
import { entitySummaries, type EntitySummary } from '../../store/entity-summaries.ts';
import { getNote } from '../../store/notes.ts';
import { noteRelationshipsAfter } from '../../store/pages.ts';
import { html, type Html } from '../pages/html.ts';
import type { ApiResult } from '../request.ts';

/** Links shown; a note's links are one list read, whatever their number up to this. */
const LINKS_SHOWN = 100;

export async function notePageResult(viewer: Viewer, pathId: string): Promise<ApiResult> {
  requireScope(viewer, 'notes:read', 'notes');
  const id = pathRecordId(pathId);
  if (!id) throw notFound();
  const ws = viewer.workspaceId;
  const note = await getNote(ws, id);
  if (!note) throw notFound();
  const links = await noteRelationshipsAfter(ws, note, { type: 'link' }, undefined, LINKS_SHOWN + 1);
  const linked = links.items
    .slice(0, LINKS_SHOWN)
    .map((i) => i.record)
    .filter((r): r is typeof r & { importance: Importance } => r.type === 'link');
  const seesEntities = viewer.scopes.has('entities:read');
  const names = seesEntities
    ? await entitySummaries(ws, [...(note.customer ? [note.customer.id] : []), ...linked.map((l) => l.target.id)])
    : new Map<string, EntitySummary>();
  const name = nameOf(note.fields.name, 'Untitled note');
  const customer = note.customer ? names.get(note.customer.id) : undefined;
  const pii = viewer.scopes.has('members:pii:read');
  const person = (value: unknown): Html | string | undefined => {
    const m = value as { id?: unknown; email?: unknown } | undefined;
    if (!m || (typeof m.id !== 'string' && typeof m.email !== 'string')) return undefined;
    const label = pii && typeof m.email === 'string' ? m.email : REDACTED;
    return typeof m.id === 'string' && viewer.scopes.has('members:read') ? html`<a href="${memberPage(m.id)}">${label}</a>` : label;
  };
  const shownLinks = linked.flatMap((l) => {
    const target = names.get(l.target.id);
    return target ? [{ target, importance: l.importance }] : [];
  });
  const content = note.fields.content;
  const body = html`${breadcrumb([{ href: pageUrl('/'), label: 'Home' }, ...(customer ? [{ href: entityPage(customer.id), label: nameOf(customer.name, typeLabel(customer.type)) }] : [])], name)}
<h1>${name}</h1>
${facts('About this note', [
  ['Type', note.type === 'conversationNote' ? 'Conversation' : 'Text note'],
  [
    'Customer',
    customer
      ? html`<a href="${entityPage(customer.id)}">${nameOf(customer.name, typeLabel(customer.type))}</a> (${typeLabel(customer.type).toLowerCase()})`
      : note.customer
        ? undefined
        : 'None',
  ],
  ['Owner', person(note.fields.owner)],
  ['Created by', person(note.fields.creator)],
  ['Created', formatDate(note.createdAt)],
  ['Processed', note.fields.processed === true ? 'Yes' : undefined],
  ['Archived', note.fields.archived === true ? 'Yes' : undefined],
])}
<section class="card" aria-labelledby="content-heading"><h2 id="content-heading">${note.type === 'conversationNote' ? 'Conversation' : 'Feedback'}</h2>
${contentOf(content)}
</section>
<section class="card" aria-labelledby="links-heading"><h2 id="links-heading">Linked to</h2>
${
  !seesEntities
    ? empty('Your role does not let you read the entities this note is linked to.')
    : shownLinks.length === 0
      ? empty(
          "This note is not linked to anything yet. Link it to a feature with an importance (POST /v2/notes/{id}/relationships) and it counts towards that feature's customer score.",
        )
      : html`<ul class="plain" aria-label="Linked entities">${shownLinks.map((l) => html`<li><a class="item-title" href="${entityPage(l.target.id)}">${nameOf(l.target.name, typeLabel(l.target.type))}</a> ${badge(l.target.type)}<p class="meta">${importanceTag(l.importance)}</p></li>`)}</ul>${links.items.length > LINKS_SHOWN ? html`<p class="muted">Only the first ${LINKS_SHOWN} links are shown; GET /v2/notes/{id}/relationships lists them all.</p>` : ''}`
}
</section>`;
  return pageOk(viewer, name, body);
}

function contentOf(content: unknown): Html {
  if (typeof content === 'string' && content.trim() !== '') return html`<div class="rich">${richText(content)}</div>`;
  if (Array.isArray(content) && content.length > 0) {
    return html`<div>${content.map((p: { authorType?: string; authorName?: string; content?: string; timestamp?: string }) => html`<div class="part"><p class="meta"><strong>${p.authorName || (p.authorType === 'agent' ? 'Agent' : 'Customer')}</strong>${p.timestamp ? html`<span>${formatDate(p.timestamp)}</span>` : ''}</p><div class="rich">${richText(p.content ?? '')}</div></div>`)}</div>`;
  }
  return empty('This note has no text.');
}
