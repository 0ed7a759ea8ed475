// Where a record came from in another system (Productboard's `metadata.source`): set on create,
// merged key by key on update (JSON merge patch: null removes a key), matched by list filters.
export interface ApiSource {
  system?: string;
  recordId?: string;
  url?: string;
}

export interface Metadata {
  source?: ApiSource;
}

/** An update of the source: a value sets a key, null removes it, absent leaves it. */
export type SourcePatch = { [K in keyof ApiSource]?: string | null };

const SOURCE_KEYS = ['system', 'recordId', 'url'] as const;

/** The metadata after an update; undefined when nothing is left. */
export function mergeMetadata(current: Metadata | undefined, patch: { source?: SourcePatch | null }): Metadata | undefined {
  if (patch.source === undefined) return current;
  const source: ApiSource = patch.source === null ? {} : { ...current?.source };
  if (patch.source !== null) {
    for (const k of SOURCE_KEYS) {
      const v = patch.source[k];
      if (v === null) delete source[k];
      else if (v !== undefined) source[k] = v;
    }
  }
  return Object.keys(source).length ? { ...current, source } : undefined;
}

/** A source filter: every key given must equal the record's (exact, as Productboard matches ids). */
export interface SourceFilter {
  system?: string;
  recordId?: string;
}

export const sourceMatches = (f: SourceFilter, m: Metadata | undefined): boolean =>
  (f.system === undefined || m?.source?.system === f.system) && (f.recordId === undefined || m?.source?.recordId === f.recordId);
