// Pieces the member pages share: the breadcrumb, facts, rankings with their bars, note rows and
// list pagers. Everything member-written goes through html`` (escaped) or ./rich-text.ts.
import { formatDate, formatNumber, nameOf, typeLabel } from './format.ts';
import { entityPage, notePage, teamPage } from './layout.ts';
import { plainText } from './rich-text.ts';
import type { Viewer } from './viewer.ts';
import type { Importance } from '../../domain/score.ts';
import type { RankedEntity } from '../../store/ranking.ts';
import { teamsByIds } from '../../store/teams.ts';
import { html, type Html } from '../pages/html.ts';

const EXCERPT_LENGTH = 220;

/** Ancestors first, the page's record last (not a link: it is this page). */
export function breadcrumb(trail: ReadonlyArray<{ href: string; label: string }>, current: string): Html {
  return html`<nav aria-label="Breadcrumb"><ol class="crumbs">${trail.map((t) => html`<li><a href="${t.href}">${t.label}</a></li>`)}<li aria-current="page">${current}</li></ol></nav>`;
}

/** Label–value pairs under a heading; pairs without a value are left out. */
export function facts(label: string, pairs: ReadonlyArray<[string, Html | string | undefined]>): Html {
  const shown = pairs.filter((p): p is [string, Html | string] => p[1] !== undefined && p[1] !== '');
  if (shown.length === 0) return html``;
  return html`<dl class="facts" aria-label="${label}">${shown.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>`;
}

export const badge = (type: string) => html`<span class="badge">${typeLabel(type)}</span>`;

/** A meter as long as `score` is against the highest on the list, its number beside it. */
function scoreBar(score: number, top: number, name: string): Html {
  return html`<div class="bar"><meter min="0" max="${String(Math.max(top, 1))}" value="${String(score)}" aria-label="${`${name}: customer score ${formatNumber(score)}`}">${formatNumber(score)}</meter><span class="num">${formatNumber(score)}</span></div>`;
}

/**
 * A ranking as a table: rank, name (a link to its page) and the score with its bar. The first row
 * has the highest score; `start` is the rank of the first row.
 */
export function rankingTable(caption: string, rows: readonly RankedEntity[], options: { start?: number; scoreLabel?: string } = {}): Html {
  const top = Math.max(0, ...rows.map((r) => r.score ?? 0));
  const start = options.start ?? 1;
  return html`<table class="ranking">
<caption>${caption}</caption>
<thead><tr><th scope="col" class="rank">Rank</th><th scope="col">Name</th><th scope="col" class="value">${options.scoreLabel ?? 'Customer score'}</th></tr></thead>
<tbody>
${rows.map((r, i) => {
  const name = nameOf(r.name, `Unnamed ${typeLabel(r.type).toLowerCase()}`);
  return html`<tr><td class="rank">${formatNumber(start + i)}</td><td class="name"><a href="${entityPage(r.id)}">${name}</a>${badge(r.type)}</td><td class="value">${r.score === undefined ? html`<span class="muted">No score</span>` : scoreBar(r.score, top, name)}</td></tr>\n`;
})}</tbody>
</table>`;
}

/** Entities in a plain list (no ranking): name, type and, for the types that have one, the score. */
export function entityList(label: string, rows: readonly RankedEntity[]): Html {
  return html`<ul class="plain" aria-label="${label}">${rows.map((r) => html`<li><a class="item-title" href="${entityPage(r.id)}">${nameOf(r.name, `Unnamed ${typeLabel(r.type).toLowerCase()}`)}</a> ${badge(r.type)}${r.score !== undefined ? html` <span class="muted">· customer score ${formatNumber(r.score)}</span>` : ''}</li>`)}</ul>`;
}

const IMPORTANCE_LABEL: Record<Importance, string> = {
  critical: 'Critical',
  important: 'Important',
  'nice to have': 'Nice to have',
  unknown: 'Importance unknown',
  'not important': 'Not important',
};

export const importanceTag = (importance: Importance) =>
  html`<span class="importance importance-${importance.replace(/ /g, '-')}">${IMPORTANCE_LABEL[importance] ?? importance}</span>`;

/** A note's text in a few words: a text note's HTML, or the first parts of a conversation. */
export function noteExcerpt(content: unknown, max = EXCERPT_LENGTH): string {
  if (typeof content === 'string') return plainText(content, max);
  if (Array.isArray(content)) {
    return plainText(
      content.map((p) => (typeof (p as { content?: unknown }).content === 'string' ? (p as { content: string }).content : '')).join('<br>'),
      max,
    );
  }
  return '';
}

export interface NoteRow {
  id: string;
  name: unknown;
  content: unknown;
  /** What to say on the meta line: customer, importance, date. */
  customer?: Html | string | undefined;
  importance?: Importance | undefined;
  date: string | number;
  dateLabel?: string;
}

export function noteList(label: string, rows: readonly NoteRow[]): Html {
  return html`<ul class="plain" aria-label="${label}">${rows.map((r) => {
    const excerpt = noteExcerpt(r.content);
    return html`<li><a class="item-title" href="${notePage(r.id)}">${nameOf(r.name, 'Untitled note')}</a>
<p class="meta">${r.customer !== undefined ? html`<span>${r.customer}</span>` : ''}${r.importance ? importanceTag(r.importance) : ''}<span>${r.dateLabel ? `${r.dateLabel} ` : ''}${formatDate(r.date)}</span></p>
${excerpt ? html`<p class="excerpt">${excerpt}</p>` : ''}</li>`;
  })}</ul>`;
}

/** The links between pages of a list: back to its first page, and on to the next. */
export function pager(label: string, links: { first?: string | undefined; next?: string | undefined; nextLabel: string; firstLabel: string }): Html {
  if (!links.first && !links.next) return html``;
  return html`<nav class="pager" aria-label="${label}">${links.first ? html`<a href="${links.first}">${links.firstLabel}</a>` : html`<span></span>`}${links.next ? html`<a href="${links.next}" rel="next">${links.nextLabel}</a>` : ''}</nav>`;
}

export const empty = (text: Html | string) => html`<p class="empty">${text}</p>`;

/**
 * The live teams among `ids` by name, each a link to its page; undefined (the fact left out) when
 * there are none or the viewer may not read teams, as GET /v2/teams would refuse them.
 */
export async function teamLinks(viewer: Viewer, ids: readonly string[]): Promise<Html | undefined> {
  if (!viewer.scopes.has('teams:read') || ids.length === 0) return undefined;
  const teams = [...(await teamsByIds(viewer.workspaceId, ids)).values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  if (teams.length === 0) return undefined;
  return html`${teams.map((t, i) => html`${i ? ', ' : ''}<a href="${teamPage(t.id)}">${t.name}</a>`)}`;
}
