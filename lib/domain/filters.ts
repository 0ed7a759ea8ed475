// What the list and search filters keep, as predicates over stored records. The store picks an
// index that narrows the candidates (children of a parent, an owner, a type, a creation-time
// range) and applies the whole predicate to each candidate, so a record is kept exactly when it
// matches every filter given, whichever index found it.
import { visibleName, type StoredEntity } from './entity-view.ts';
import { sourceMatches, type SourceFilter } from './metadata.ts';
import type { StoredNote } from './note-view.ts';

/** Inclusive bounds, as UTC instants written by Date#toISOString (so they compare as strings). */
export interface TimeRange {
  from?: string;
  to?: string;
}

/**
 * An ISO 8601 date-time with a zone (`Z` or `±hh:mm`), as the UTC instant the store writes, or
 * undefined when the value is not one (or lies outside years 0000–9999).
 */
export function utcInstant(value: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.exec(value);
  if (!m) return undefined;
  // Date.parse is lenient (February 30th is March 2nd): the calendar date must exist as written.
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  const day = new Date(0);
  day.setUTCFullYear(y, mo - 1, d);
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return undefined;
  const t = Date.parse(value);
  if (Number.isNaN(t)) return undefined;
  const iso = new Date(t).toISOString();
  return /^\d{4}-/.test(iso) ? iso : undefined;
}

const inRange = (t: string, r: TimeRange | undefined): boolean => !r || ((r.from === undefined || t >= r.from) && (r.to === undefined || t <= r.to));

/** Productboard's `name` filter: a case-insensitive substring of the name. */
export const nameMatches = (name: unknown, part: string): boolean => typeof name === 'string' && name.toLowerCase().includes(part.toLowerCase());

const idOf = (v: unknown): string | undefined =>
  v !== null && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : undefined;
const oneOf = (value: string | undefined, list: readonly string[] | undefined) => list === undefined || (value !== undefined && list.includes(value));

export interface EntityFilter {
  types?: readonly string[];
  ids?: readonly string[];
  parentIds?: readonly string[];
  /** Member ids (owners given by e-mail are resolved first; an unknown e-mail is an empty list). */
  ownerIds?: readonly string[];
  name?: string;
  /** The reader lacks users:pii:read: `name` matches a user's name as it reads, `[redacted]`, revealing nothing. */
  hidesUserNames?: true;
  statusIds?: readonly string[];
  /** Teams (live ones, resolved first: a team named that no longer exists is an empty list), any of them. */
  teamIds?: readonly string[];
  archived?: boolean;
  source?: SourceFilter;
  created?: TimeRange;
  updated?: TimeRange;
}

const idsOf = (v: unknown): string[] => (Array.isArray(v) ? v.map(idOf).filter((id): id is string => id !== undefined) : []);

export function entityMatches(f: EntityFilter, e: StoredEntity): boolean {
  return (
    oneOf(e.type, f.types) &&
    oneOf(e.id, f.ids) &&
    oneOf(e.parentId, f.parentIds) &&
    oneOf(idOf(e.fields.owner), f.ownerIds) &&
    (f.name === undefined || nameMatches(visibleName(e, f.hidesUserNames !== true), f.name)) &&
    oneOf(idOf(e.fields.status), f.statusIds) &&
    (f.teamIds === undefined || idsOf(e.fields.teams).some((t) => f.teamIds!.includes(t))) &&
    (f.archived === undefined || (e.fields.archived === true) === f.archived) &&
    (f.source === undefined || sourceMatches(f.source, e.metadata)) &&
    inRange(e.createdAt, f.created) &&
    inRange(e.updatedAt, f.updated)
  );
}

export interface NoteFilter {
  types?: readonly string[];
  ids?: readonly string[];
  ownerIds?: readonly string[];
  creatorIds?: readonly string[];
  archived?: boolean;
  processed?: boolean;
  /** Any of them matches (Productboard's search takes one source or a list). */
  sources?: readonly SourceFilter[];
  /** Tag names, any of them (case-insensitive). */
  tags?: readonly string[];
  customerIds?: readonly string[];
  /** A case-insensitive substring of the name or the content. */
  text?: string;
  created?: TimeRange;
  updated?: TimeRange;
}

const tagNames = (v: unknown): string[] => (Array.isArray(v) ? v.map((t) => String((t as { name?: unknown })?.name).toLowerCase()) : []);

/** The searchable text of a note: its name and its content (a text note's HTML, or a conversation's parts). */
function noteText(n: StoredNote): string {
  const content = n.fields.content;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const parts = Array.isArray(content) ? content.map((p) => text((p as { content?: unknown } | null)?.content)) : [text(content)];
  return [typeof n.fields.name === 'string' ? n.fields.name : '', ...parts].join('\n');
}

export function noteMatches(f: NoteFilter, n: StoredNote): boolean {
  return (
    oneOf(n.type, f.types) &&
    oneOf(n.id, f.ids) &&
    oneOf(idOf(n.fields.owner), f.ownerIds) &&
    oneOf(idOf(n.fields.creator), f.creatorIds) &&
    (f.archived === undefined || (n.fields.archived === true) === f.archived) &&
    (f.processed === undefined || (n.fields.processed === true) === f.processed) &&
    (f.sources === undefined || f.sources.some((s) => sourceMatches(s, n.metadata))) &&
    (f.tags === undefined || tagNames(n.fields.tags).some((t) => f.tags!.some((w) => w.toLowerCase() === t))) &&
    oneOf(n.customer?.id, f.customerIds) &&
    (f.text === undefined || nameMatches(noteText(n), f.text)) &&
    inRange(n.createdAt, f.created) &&
    inRange(n.updatedAt, f.updated)
  );
}

export interface MemberFilter {
  ids?: readonly string[];
  roles?: readonly string[];
  /** E-mail addresses, any of them, compared case-insensitively. */
  emails?: readonly string[];
  /** A case-insensitive substring of the name or the e-mail. */
  query?: string;
  /** Which members by state: active ones (the default), deactivated ones only, or both. */
  state?: 'active' | 'disabled' | 'any';
  /** Only members whose invitation is pending: none here (members are added, never invited). */
  invitationPendingOnly?: boolean;
}

export function memberMatches(f: MemberFilter, m: { id: string; name: string; email: string; role: string; active: boolean }): boolean {
  const state = f.state ?? 'active';
  return (
    oneOf(m.id, f.ids) &&
    oneOf(m.role, f.roles) &&
    (f.emails === undefined || f.emails.some((e) => e.toLowerCase() === m.email.toLowerCase())) &&
    (f.query === undefined || nameMatches(m.name, f.query) || nameMatches(m.email, f.query)) &&
    (state === 'any' || (state === 'active') === m.active) &&
    f.invitationPendingOnly !== true
  );
}
