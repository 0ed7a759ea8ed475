// GET {app_url}/entities/{id}: an entity — name, type, status, owner, its ancestors — with what
// lies under it (ranked by customer score, each with a bar, for the product hierarchy; all of it in
// creation order on request), the feedback linked to it (a customer's: the notes it gave) newest
// first, and its relations (what a planning entity links). Reads are bounded whatever the subtree:
// the entity and its ancestors (≤ MAX_DEPTH), its children's ids and their items in BatchGetItems of
// 100 (at most MAX_RANKED_ON_PAGE), one page of notes through an index, the names they mention.
import { listCursor, listPosition } from './cursors.ts';
import { formatDate, formatNumber, nameOf, typeLabel, typePlural } from './format.ts';
import { entityPage, memberPage, pageUrl } from './layout.ts';
import { badge, breadcrumb, empty, entityList, facts, noteList, pager, rankingTable, teamLinks, type NoteRow } from './parts.ts';
import { richText } from './rich-text.ts';
import { notFound } from './shell.ts';
import { pageOk, requireScope, type Viewer } from './viewer.ts';
import { aType, ENTITY_TYPES, isCustomerType, isHierarchyType, PARENT_RULES, type EntityType } from '../../domain/hierarchy.ts';
import { pathRecordId, mayHaveChildren, rankOrder } from '../../domain/member-pages.ts';
import { REDACTED } from '../../domain/member-view.ts';
import { RELATION_TYPES, type RelationType } from '../../domain/relations.ts';
import { wordList } from '../../domain/word-lists.ts';
import { getEntity, readChain, type EntityItem } from '../../store/entities.ts';
import { entitySummaries } from '../../store/entity-summaries.ts';
import { idsIn } from '../../store/field-refs.ts';
import { getMember } from '../../store/members.ts';
import { customerNotesNewestFirst, entitiesAfter, entityRelationshipsAfter, linkedNotesNewestFirst } from '../../store/pages.ts';
import { scoredEntities, type RankedEntity } from '../../store/ranking.ts';
import { scoreOfTotal } from '../../store/score.ts';
import { html, type Html } from '../pages/html.ts';
import { PageError } from '../pages/page-error.ts';
import type { ApiResult } from '../request.ts';

/** The children a ranking shows; the rest are a link away, in creation order. */
const TOP_CHILDREN = 20;
const CHILDREN_PER_PAGE = 50;
const NOTES_PER_PAGE = 20;
/** Relations shown per type. */
const RELATIONS_SHOWN = 50;

const PAGE = 'entityPage';

interface EntityPageQuery {
  notes?: string | undefined;
  children?: 'all' | undefined;
  after?: string | undefined;
}

export async function entityPageResult(viewer: Viewer, pathId: string, query: EntityPageQuery): Promise<ApiResult> {
  requireScope(viewer, 'entities:read', 'products, features and customers');
  const id = pathRecordId(pathId);
  if (!id) throw notFound();
  const ws = viewer.workspaceId;
  const entity = await getEntity(ws, id);
  if (!entity) throw notFound();
  refuseStrayParameters(entity.type, query);
  const name = nameOf(entity.fields.name, `Unnamed ${typeLabel(entity.type).toLowerCase()}`);
  const [ancestors, children, feedback, related, owner, teams] = await Promise.all([
    ancestorsOf(ws, entity),
    childrenSection(viewer, entity, name, query),
    feedbackSection(viewer, entity, name, query.notes),
    relationsSection(ws, entity),
    ownerOf(viewer, entity),
    teamLinks(viewer, idsIn(entity.fields.teams)),
  ]);
  // An ancestor on its way out takes the entity with it, for every reader.
  if (!ancestors) throw notFound();
  const fields = entity.fields;
  const status = (fields.status as { name?: unknown } | undefined)?.name;
  const timeframe = fields.timeframe as { startDate?: string; endDate?: string } | undefined;
  const description = typeof fields.description === 'string' && fields.description.trim() !== '' ? fields.description : undefined;
  const score = isHierarchyType(entity.type) ? scoreOfTotal(entity.total) : undefined;
  const body = html`${breadcrumb([{ href: pageUrl('/'), label: 'Home' }, ...ancestors.map((a) => ({ href: entityPage(a.id), label: nameOf(a.fields.name, typeLabel(a.type)) }))], name)}
<h1>${name} ${badge(entity.type)}</h1>
${facts(`About this ${typeLabel(entity.type).toLowerCase()}`, [
  ['Status', typeof status === 'string' ? status : undefined],
  ['Owner', owner],
  ['Teams', teams],
  ['Timeframe', timeframe?.startDate && timeframe.endDate ? html`${formatDate(timeframe.startDate)} – ${formatDate(timeframe.endDate)}` : undefined],
  ['E-mail', entity.type === 'user' && typeof fields.email === 'string' ? fields.email : undefined],
  ['Domain', entity.type === 'company' && typeof fields.domain === 'string' ? fields.domain : undefined],
  ['Archived', fields.archived === true ? 'Yes' : undefined],
  ['Created', formatDate(entity.createdAt)],
])}
${
  score !== undefined
    ? html`<p class="score"><strong>${formatNumber(score)}</strong><span>customer score of this ${typeLabel(entity.type).toLowerCase()} and everything under it</span></p>`
    : ''
}
${description ? html`<section class="card" aria-labelledby="description-heading"><h2 id="description-heading">Description</h2><div class="rich">${richText(description)}</div></section>` : ''}
${children}
${feedback}
${related}`;
  return pageOk(viewer, name, body);
}

/**
 * A list parameter this entity's page has no list for is refused, never ignored: `after` pages the
 * list of all children (it goes with children=all), and only an entity that may have children lists
 * them, only a product hierarchy entity or a customer its feedback.
 */
function refuseStrayParameters(type: EntityType, query: EntityPageQuery): void {
  const what = aType(typeLabel(type).toLowerCase());
  const stray =
    (query.children !== undefined || query.after !== undefined) && !mayHaveChildren(type)
      ? `${what} has nothing under it to list`
      : query.after !== undefined && query.children !== 'all'
        ? 'after pages the list of all children, and goes with children=all'
        : query.notes !== undefined && !isHierarchyType(type) && !isCustomerType(type)
          ? `the page of ${what} lists no feedback`
          : undefined;
  if (stray)
    throw new PageError(
      400,
      'This link does not work here',
      `The page link has a parameter this page does not take: ${stray}. Open the page again from its first page.`,
    );
}

/** The ancestors, root first; undefined when one of them is gone or going (the entity then is too). */
async function ancestorsOf(ws: string, entity: EntityItem): Promise<EntityItem[] | undefined> {
  if (!entity.parentId) return [];
  const { chain, complete } = await readChain(ws, entity.parentId);
  if (!complete || chain.some((a) => a.deleting)) return undefined;
  return chain.reverse();
}

async function ownerOf(viewer: Viewer, entity: EntityItem): Promise<Html | string | undefined> {
  const owner = entity.fields.owner as { id?: unknown; email?: unknown } | undefined;
  if (typeof owner?.id !== 'string') return undefined;
  if (!viewer.scopes.has('members:pii:read')) return viewer.scopes.has('members:read') ? html`<a href="${memberPage(owner.id)}">${REDACTED}</a>` : REDACTED;
  const member = await getMember(viewer.workspaceId, owner.id);
  const label = member ? member.name || member.email : typeof owner.email === 'string' ? owner.email : REDACTED;
  return viewer.scopes.has('members:read') && member ? html`<a href="${memberPage(owner.id)}">${label}</a>` : label;
}

/** What may sit under a type, in words: "components and features". */
function childrenWords(type: EntityType): string {
  const types = ENTITY_TYPES.filter((t) => PARENT_RULES[t].parents.includes(type)).map(typePlural);
  return types.length === 0 ? 'children' : wordList(types, 'and');
}
const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

async function childrenSection(viewer: Viewer, entity: EntityItem, name: string, query: EntityPageQuery): Promise<Html> {
  if (!mayHaveChildren(entity.type)) return html``;
  const ws = viewer.workspaceId;
  const words = childrenWords(entity.type);
  const section = (heading: string, content: Html) =>
    html`<section class="card" aria-labelledby="children-heading"><h2 id="children-heading">${heading}</h2>${content}</section>`;
  const allLink = (total?: number) =>
    html`<p><a href="${entityPage(entity.id)}?children=all">${total !== undefined ? `See all ${formatNumber(total)} ${words} in the order they were added` : `See all ${words} in the order they were added`}</a></p>`;
  const nothing = empty(
    isCustomerType(entity.type)
      ? `No ${words} belong to ${name} yet. Give a user this company as its parent (POST /v2/entities) and it appears here.`
      : `Nothing is under this ${typeLabel(entity.type).toLowerCase()} yet. Create ${words} with it as their parent (POST /v2/entities), link notes to them, and they appear here, ranked by customer score.`,
  );

  if (query.children === 'all') {
    const after = await listPosition(viewer, PAGE, entity.id, 'children', query.after);
    const slice = await entitiesAfter(ws, { types: ENTITY_TYPES, parentIds: [entity.id] }, after, CHILDREN_PER_PAGE + 1);
    const rows: RankedEntity[] = slice.items.slice(0, CHILDREN_PER_PAGE).map(({ record: c }) => ({
      id: c.id,
      type: c.type,
      name: nameOf(c.fields.name, ''),
      createdAt: c.createdAt,
      ...(isHierarchyType(c.type) ? { score: scoreOfTotal(c.total) } : {}),
    }));
    const last = slice.items.length > CHILDREN_PER_PAGE ? slice.items[CHILDREN_PER_PAGE - 1]!.position : slice.resume;
    const next = last !== undefined ? `${entityPage(entity.id)}?children=all&after=${await listCursor(viewer, PAGE, entity.id, 'children', last)}` : undefined;
    return section(
      `${capitalised(words)}, in the order they were added`,
      html`${rows.length ? entityList(capitalised(words), rows) : after === undefined ? nothing : empty('There are no more.')}
${pager(`Pages of ${words}`, { first: after !== undefined ? `${entityPage(entity.id)}?children=all` : undefined, firstLabel: 'First page', next, nextLabel: `More ${words}` })}
<p><a href="${entityPage(entity.id)}">${isHierarchyType(entity.type) ? 'Back to the ranking' : `Back to ${name}`}</a></p>`,
    );
  }

  const found = await scoredEntities(ws, { childrenOf: entity.id });
  if (found.tooMany) {
    return section(capitalised(words), html`${empty(`${name} has too many ${words} to rank on one page.`)}${allLink()}`);
  }
  const all = found.entities;
  if (all.length === 0) return section(capitalised(words), nothing);
  if (!isHierarchyType(entity.type)) {
    const shown = all.slice(0, TOP_CHILDREN);
    return section(capitalised(words), html`${entityList(capitalised(words), shown)}${all.length > shown.length ? allLink(all.length) : ''}`);
  }
  const ranked = [...all].sort(rankOrder).slice(0, TOP_CHILDREN);
  const caption =
    all.length > ranked.length
      ? `The top ${formatNumber(ranked.length)} of ${formatNumber(all.length)}, highest customer score first; equal scores by name.`
      : `Highest customer score first; equal scores by name.`;
  return section(`${capitalised(words)} by customer score`, html`${rankingTable(caption, ranked)}${all.length > ranked.length ? allLink(all.length) : ''}`);
}

async function feedbackSection(viewer: Viewer, entity: EntityItem, name: string, cursor: string | undefined): Promise<Html> {
  const hierarchy = isHierarchyType(entity.type);
  const customer = isCustomerType(entity.type);
  if ((!hierarchy && !customer) || !viewer.scopes.has('notes:read')) return html``;
  const ws = viewer.workspaceId;
  const before = await listPosition(viewer, PAGE, entity.id, 'notes', cursor);
  let rows: NoteRow[];
  let more: string | undefined;
  if (hierarchy) {
    const got = await linkedNotesNewestFirst(ws, entity.id, before, NOTES_PER_PAGE);
    const customers = await entitySummaries(
      ws,
      got.items.flatMap(({ record }) => (record.note.customer ? [record.note.customer.id] : [])),
    );
    rows = got.items.map(({ record: { note, link } }) => {
      const c = note.customer ? customers.get(note.customer.id) : undefined;
      return {
        id: note.id,
        name: note.fields.name,
        content: note.fields.content,
        customer: c ? html`<a href="${entityPage(c.id)}">${nameOf(c.name, typeLabel(c.type))}</a>` : 'No customer',
        importance: link.importance,
        date: link.setAt,
      };
    });
    more = got.before;
  } else {
    const got = await customerNotesNewestFirst(ws, entity.id, before, NOTES_PER_PAGE);
    rows = got.items.map(({ record: note }) => ({ id: note.id, name: note.fields.name, content: note.fields.content, date: note.createdAt }));
    more = got.before;
  }
  const next = more !== undefined ? `${entityPage(entity.id)}?notes=${await listCursor(viewer, PAGE, entity.id, 'notes', more)}` : undefined;
  const heading = hierarchy ? 'Feedback linked here' : `Feedback from ${name}`;
  const intro = hierarchy ? 'Most recent first: by when each note was linked here or its importance last changed.' : 'Newest first.';
  const nothing =
    before !== undefined
      ? empty('There is no older feedback.')
      : empty(
          hierarchy
            ? `No feedback is linked to this ${typeLabel(entity.type).toLowerCase()} yet. Link a note to it with an importance (POST /v2/notes/{id}/relationships) and it counts towards the customer score.`
            : `${name} has given no feedback yet. Notes that name ${name} as their customer appear here.`,
        );
  return html`<section class="card" aria-labelledby="notes-heading"><h2 id="notes-heading">${heading}</h2>
${rows.length ? html`<p class="muted">${intro}</p>${noteList(heading, rows)}` : nothing}
${pager('Pages of feedback', { first: before !== undefined ? entityPage(entity.id) : undefined, firstLabel: 'Newest feedback', next, nextLabel: 'Older feedback' })}</section>`;
}

const RELATION_HEADINGS: Record<RelationType, string> = { link: 'Linked', isBlockedBy: 'Blocked by', isBlocking: 'Blocking' };

async function relationsSection(ws: string, entity: EntityItem): Promise<Html> {
  const lists = await Promise.all(RELATION_TYPES.map((type) => entityRelationshipsAfter(ws, entity, { type }, undefined, RELATIONS_SHOWN)));
  const names = await entitySummaries(
    ws,
    lists.flatMap((l) => l.items.map((i) => i.record.target.id)),
  );
  const groups = RELATION_TYPES.map((type, i) => ({
    type,
    targets: lists[i]!.items.map((it) => names.get(it.record.target.id)).filter((t) => t !== undefined),
  })).filter((g) => g.targets.length > 0);
  // Planning entities exist to link: say so when they link nothing yet.
  const planning = !isHierarchyType(entity.type) && !isCustomerType(entity.type);
  if (groups.length === 0 && !planning) return html``;
  return html`<section class="card" aria-labelledby="related-heading"><h2 id="related-heading">Related</h2>
${
  groups.length === 0
    ? empty(
        `Nothing is linked to this ${typeLabel(entity.type).toLowerCase()} yet. Link features to it (POST /v2/entities/{id}/relationships) and they appear here.`,
      )
    : groups.map(
        (g) =>
          html`<h3>${RELATION_HEADINGS[g.type]}</h3>${entityList(
            RELATION_HEADINGS[g.type],
            g.targets.map((t) => ({ ...t, createdAt: '' })),
          )}`,
      )
}
</section>`;
}
