// Standard fields of entities and notes: which exist for which type, and how a written value is
// checked and stored. Values are stored in their API shape, so the views only choose which to show.
// Custom fields (uuid keys) are not known here: the caller passes in a checker (lib/domain/configurations.ts customValueCheck).
import type { Path } from './errors.ts';
import type { EntityType } from './hierarchy.ts';
import { array, invalid, isUuid, object, onlyKeys, string } from './input.ts';

/** The built-in statuses (the service specification has no status configuration endpoint). Written by name or id. */
export const STATUSES = [
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a01', name: 'New idea' },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a02', name: 'Candidate' },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a03', name: 'Planned' },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a04', name: 'In progress' },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a05', name: 'Released' },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a06', name: "Won't do" },
] as const;

export const GRANULARITIES = ['none', 'day', 'week', 'month', 'quarter', 'year'] as const;
export const MAX_NAME = 255;
export const MAX_TEXT = 100_000;
export const MAX_TAGS = 100;

/** An owner is written by e-mail and stored as {id, email} once the member is found (by the caller). */
export interface OwnerRef {
  email: string;
  path: Path;
}

type FieldParser = (value: unknown, path: Path, out: ParsedFields) => unknown;

export interface ParsedFields {
  /** Field values to store; `null` clears (updates only). */
  values: Record<string, unknown>;
  /** The owner e-mail to resolve to a member, when `owner` was written. */
  owner?: OwnerRef;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (s: string) => DATE.test(s) && !Number.isNaN(Date.parse(s + 'T00:00:00Z')) && new Date(s + 'T00:00:00Z').toISOString().startsWith(s);

const name: FieldParser = (v, p) => string(v, p, { min: 1, max: MAX_NAME });
const text: FieldParser = (v, p) => string(v, p, { max: MAX_TEXT });
const tags: FieldParser = (v, p) => {
  const list = array(v, p);
  if (list.length > MAX_TAGS) invalid(p, `At most ${MAX_TAGS} tags.`);
  const seen = new Set<string>();
  const out: Array<{ name: string }> = [];
  list.forEach((t, i) => {
    const o = object(t, [...p, i]);
    onlyKeys(o, ['name'], [...p, i]);
    const n = string(o.name, [...p, i, 'name'], { min: 1, max: MAX_NAME });
    if (!seen.has(n)) out.push({ name: n });
    seen.add(n);
  });
  return out;
};
const status: FieldParser = (v, p) => {
  const o = object(v, p);
  onlyKeys(o, ['id', 'name'], p);
  const id = o.id;
  if (id !== undefined) {
    const s = isUuid(id) ? STATUSES.find((x) => x.id === id.toLowerCase()) : undefined;
    // Whatever was sent is quoted back as String() prints it, objects included (unchanged wording).
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    if (!s) invalid([...p, 'id'], `No status with id '${String(id)}'.`);
    if (o.name !== undefined && o.name !== s.name) invalid([...p, 'name'], `Status '${s.id}' is named '${s.name}'.`);
    return { ...s };
  }
  const n = string(o.name, [...p, 'name'], { min: 1 });
  const s = STATUSES.find((x) => x.name.toLowerCase() === n.toLowerCase());
  if (!s) invalid([...p, 'name'], `No status named '${n}'; known: ${STATUSES.map((x) => x.name).join(', ')}.`);
  return { ...s };
};
const owner: FieldParser = (v, p, out) => {
  const o = object(v, p);
  onlyKeys(o, ['email', 'id'], p);
  const email = string(o.email, [...p, 'email'], { min: 1, max: 254 });
  out.owner = { email, path: [...p, 'email'] };
  return { email };
};
const timeframe: FieldParser = (v, p) => {
  const o = object(v, p);
  onlyKeys(o, ['startDate', 'endDate', 'granularity'], p);
  const startDate = string(o.startDate, [...p, 'startDate']);
  if (!validDate(startDate)) invalid([...p, 'startDate'], `'startDate' must be a date (YYYY-MM-DD).`);
  const endDate = string(o.endDate, [...p, 'endDate']);
  if (!validDate(endDate)) invalid([...p, 'endDate'], `'endDate' must be a date (YYYY-MM-DD).`);
  if (endDate < startDate) invalid([...p, 'endDate'], `'endDate' is before 'startDate'.`);
  const granularity = o.granularity === undefined ? 'none' : string(o.granularity, [...p, 'granularity']);
  if (!(GRANULARITIES as readonly string[]).includes(granularity)) {
    invalid([...p, 'granularity'], `'granularity' must be one of ${GRANULARITIES.join(', ')}.`);
  }
  return { startDate, endDate, granularity };
};
const archived: FieldParser = (v, p) => {
  if (typeof v !== 'boolean') invalid(p, `'archived' must be a boolean.`);
  return v;
};
const email: FieldParser = (v, p) => {
  const s = string(v, p, { min: 1, max: 254 });
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s)) invalid(p, `'${s}' is not an e-mail address.`);
  return s;
};
const domain: FieldParser = (v, p) => {
  const s = string(v, p, { min: 1, max: 253 });
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(s)) invalid(p, `'${s}' is not a domain name.`);
  return s.toLowerCase();
};

const HIERARCHY_FIELDS = { name, description: text, status, owner, tags, timeframe, archived };
const ENTITY_FIELDS: Record<EntityType, Record<string, FieldParser>> = {
  product: HIERARCHY_FIELDS,
  component: HIERARCHY_FIELDS,
  feature: HIERARCHY_FIELDS,
  subfeature: HIERARCHY_FIELDS,
  user: { name, description: text, owner, tags, archived, email },
  company: { name, description: text, owner, tags, archived, domain },
};
export const NOTE_FIELDS: Record<string, FieldParser> = { name, content: text, tags, owner };

/** The standard field names of an entity type (views and field selection use it). */
export const standardEntityFields = (type: EntityType): string[] => Object.keys(ENTITY_FIELDS[type]);
export const standardNoteFields = (): string[] => Object.keys(NOTE_FIELDS);

/** Checks a custom field (uuid key) value; returns the value to store or throws request.invalid. */
export type CustomFieldCheck = (fieldId: string, value: unknown, path: Path) => unknown;

function parse(
  table: Record<string, FieldParser>,
  fields: unknown,
  mode: 'create' | 'update',
  path: Path,
  custom: CustomFieldCheck | undefined,
  what: string,
): ParsedFields {
  const o = object(fields, path);
  const out: ParsedFields = { values: {} };
  for (const [key, value] of Object.entries(o)) {
    const p = [...path, key];
    const parser = table[key];
    if (!parser) {
      if (isUuid(key) && custom) out.values[key.toLowerCase()] = value === null ? null : custom(key.toLowerCase(), value, p);
      else invalid(p, `Unknown field '${key}' for ${what}.`);
      continue;
    }
    if (value === null) {
      if (key === 'name') invalid(p, `'name' cannot be cleared.`);
      if (mode === 'create') continue;
      out.values[key] = null;
      continue;
    }
    out.values[key] = parser(value, p, out);
  }
  if (mode === 'create' && out.values.name === undefined) invalid([...path, 'name'], `'name' is required.`);
  if (mode === 'update' && Object.keys(o).length === 0) invalid(path, 'No fields to update.');
  return out;
}

export function parseEntityFields(type: EntityType, fields: unknown, mode: 'create' | 'update', path: Path, custom?: CustomFieldCheck): ParsedFields {
  return parse(ENTITY_FIELDS[type], fields, mode, path, custom, `a ${type}`);
}

export function parseNoteFields(fields: unknown, mode: 'create' | 'update', path: Path, custom?: CustomFieldCheck): ParsedFields {
  return parse(NOTE_FIELDS, fields, mode, path, custom, 'a note');
}
