// The `fields` parameter (the service specification's "Fields parameter"), in its three modes:
//   omitted → only fields with non-empty values;
//   `all`   → every configured field of the record's type, nulls included;
//   a list  → exactly the requested fields, nulls included (custom fields by uuid).
// An identifier nobody configured → InvalidInput naming it; so is `all` next to identifiers.
//
// Decision (the specification is silent): when a request covers several types (a list or search over
// types A and B), an identifier is accepted when it is configured for AT LEAST ONE of those types,
// and each record carries it only when it is configured for that record's own type (as null when
// empty there); records of the other types omit it, since it is not a field of theirs. An
// identifier configured on none of the covered types is unknown → 400.
import { clip } from './clip.ts';
import { InvalidInput, pointer, type InputLocation, type Path } from './errors.ts';
import { isUuid } from './schemas/common.ts';

const ALL = 'all';

/** Query spellings of the parameter: entities take `fields[]`; notes take `fields[]` and `fields`. */
const ENTITY_FIELDS_PARAMS = ['fields[]'] as const;
export const NOTE_FIELDS_PARAMS = ['fields[]', 'fields'] as const;

/** Custom field ids are stored lower-cased; a request may spell them in either case. */
const normalizeId = (id: string) => (isUuid(id) ? id.toLowerCase() : id);

export interface RequestedField {
  id: string;
  /** Where the identifier came from, for the error's `source`. */
  source: InputLocation;
}

export type FieldSelection = { mode: 'default' } | { mode: 'all'; source: InputLocation } | { mode: 'list'; fields: RequestedField[] };

/** The selection parameters of a request's parsed query (each repeatable). */
type FieldsParameters = { readonly [P in (typeof NOTE_FIELDS_PARAMS)[number]]?: readonly string[] | undefined };

const DEFAULT_SELECTION: FieldSelection = { mode: 'default' };

function fromRequested(requested: RequestedField[], allSource: InputLocation): FieldSelection {
  if (requested.length === 0) return DEFAULT_SELECTION;
  const all = requested.filter((f) => f.id === ALL);
  if (all.length === 0) return { mode: 'list', fields: requested };
  const others = requested.filter((f) => f.id !== ALL);
  if (others.length > 0) {
    throw new InvalidInput(`The field selection 'all' cannot be combined with field identifiers (${others.map((f) => `'${f.id}'`).join(', ')}).`, allSource);
  }
  return { mode: 'all', source: allSource };
}

/**
 * `fields[]` query parameters (on notes `fields` too: pass both names). Values are identifiers,
 * one per occurrence; a comma-separated value is also read as several identifiers.
 */
export function fieldsFromQuery(query: FieldsParameters, names: ReadonlyArray<keyof FieldsParameters> = ENTITY_FIELDS_PARAMS): FieldSelection {
  const requested: RequestedField[] = [];
  let allParam: string | undefined;
  for (const name of names) {
    for (const raw of query[name] ?? []) {
      for (const id of raw.split(',').map((s) => s.trim())) {
        if (id === '') throw new InvalidInput(`The ${name} parameter holds an empty field identifier.`, { parameter: name });
        if (id === ALL) allParam ??= name;
        requested.push({ id: normalizeId(id), source: { parameter: name } });
      }
    }
  }
  return fromRequested(requested, { parameter: allParam ?? names[0]! });
}

/** `data.fields` of a search body (its schema made it the string `all` or a non-empty list). */
export function fieldsFromBody(value: 'all' | readonly string[] | undefined, path: Path = ['data', 'fields']): FieldSelection {
  if (value === undefined) return DEFAULT_SELECTION;
  if (value === ALL) return { mode: 'all', source: pointer(path) };
  return fromRequested(
    value.map((id, i) => ({ id: normalizeId(id), source: pointer([...path, i]) })),
    pointer(path),
  );
}

/**
 * Rejects a list naming an identifier configured for none of the covered types. `configured`
 * maps each covered type to its configured identifiers.
 */
export function checkKnownFields(selection: FieldSelection, configured: ReadonlyMap<string, readonly string[]>): void {
  if (selection.mode !== 'list') return;
  const known = new Set([...configured.values()].flat());
  const unknown = selection.fields.filter((f) => !known.has(f.id));
  if (unknown.length === 0) return;
  const types = [...configured.keys()].join(', ');
  const shown = unknown.slice(0, 10).map((f) => `'${clip(f.id, 100)}'`);
  if (unknown.length > shown.length) shown.push(`${unknown.length - shown.length} more`);
  const detail =
    unknown.length === 1
      ? `Unknown field identifier ${shown[0]}: no field with this id is configured for ${types}.`
      : `Unknown field identifiers ${shown.join(', ')}: no field with these ids is configured for ${types}.`;
  throw new InvalidInput(detail, unknown[0]!.source);
}

/** Empty = no value worth showing: null/undefined, '', [], {} (false and 0 are values). */
export function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v).every(isEmptyValue);
  return false;
}

/**
 * A record's stored fields with its flags read as false until set: Productboard answers `archived`
 * (and a note's `processed`) as booleans, and the list filters match an unset flag as false. A type
 * without the flag does not show it (selectFields keeps the type's configured fields).
 */
export const withUnsetFlags = (values: Readonly<Record<string, unknown>>): Record<string, unknown> => ({
  ...values,
  archived: values.archived ?? false,
  processed: values.processed ?? false,
});

/**
 * The `fields` object of one record: `values` are its stored fields, `configured` the identifiers
 * configured for its type, in response order.
 */
export function selectFields(values: Readonly<Record<string, unknown>>, selection: FieldSelection, configured: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  switch (selection.mode) {
    case 'default':
      for (const id of configured) if (!isEmptyValue(values[id])) out[id] = values[id];
      break;
    case 'all':
      for (const id of configured) out[id] = values[id] ?? null;
      break;
    case 'list': {
      const own = new Set(configured);
      for (const { id } of selection.fields) if (own.has(id)) out[id] = values[id] ?? null;
      break;
    }
  }
  return out;
}
