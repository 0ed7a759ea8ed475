// The score rule (README.md, "Customer score") as pure functions: the weights table once, as data, and the
// "latest rating per (entity, customer)" choice. The store applies them on write; verify and the
// property tests recompute with them from raw links.
export const IMPORTANCES = ['critical', 'important', 'nice to have', 'unknown', 'not important'] as const;
export type Importance = (typeof IMPORTANCES)[number];
export const DEFAULT_IMPORTANCE: Importance = 'unknown';

/** The service specification's weights table. */
export const WEIGHTS: Record<Importance, number> = {
  critical: 3,
  important: 2,
  'nice to have': 1,
  unknown: 1,
  'not important': 0,
};
/** A link from a note without a customer counts this much, whatever its importance. */
export const ANONYMOUS_WEIGHT = 1;

export const isImportance = (v: unknown): v is Importance => (IMPORTANCES as readonly unknown[]).includes(v);

/** One customer's rating of one entity through one note: its weight and when it was set (epoch ms). */
export interface RatingEntry {
  w: number;
  at: number;
}

/**
 * The entry that counts among one customer's ratings of one entity: the most recently set; equal
 * times (only possible after a customer change merges two customers' histories) go to the greater
 * note id so the choice is deterministic.
 */
export function countingNote(entries: Record<string, RatingEntry>): string | undefined {
  let best: string | undefined;
  for (const [noteId, e] of Object.entries(entries)) {
    const b = best === undefined ? undefined : entries[best]!;
    if (!b || e.at > b.at || (e.at === b.at && noteId > best!)) best = noteId;
  }
  return best;
}

export function countedWeight(entries: Record<string, RatingEntry>): number {
  const n = countingNote(entries);
  return n === undefined ? 0 : entries[n]!.w;
}

/** A link as the score rule sees it: the note's customer (none = anonymous), importance and set time. */
export interface RawLink {
  noteId: string;
  entityId: string;
  customerId?: string | undefined;
  importance: Importance;
  setAt: number;
}

/** own(e) for every entity with links, recomputed from scratch. */
export function ownScores(links: Iterable<RawLink>): Map<string, number> {
  const perPair = new Map<string, Record<string, RatingEntry>>();
  const own = new Map<string, number>();
  for (const l of links) {
    if (l.customerId === undefined) {
      own.set(l.entityId, (own.get(l.entityId) ?? 0) + ANONYMOUS_WEIGHT);
      continue;
    }
    const key = `${l.entityId}#${l.customerId}`;
    const entries = perPair.get(key) ?? {};
    entries[l.noteId] = { w: WEIGHTS[l.importance], at: l.setAt };
    perPair.set(key, entries);
  }
  for (const [key, entries] of perPair) {
    const entityId = key.slice(0, key.indexOf('#'));
    own.set(entityId, (own.get(entityId) ?? 0) + countedWeight(entries));
  }
  return own;
}

/** score(e) = Σ own over e and its descendants, for every entity of a forest given by parent ids. */
export function subtreeScores(parentOf: Map<string, string | undefined>, own: Map<string, number>): Map<string, number> {
  const total = new Map<string, number>();
  for (const id of parentOf.keys()) total.set(id, 0);
  for (const [id, value] of own) {
    if (!parentOf.has(id)) continue;
    // Walk up; the hierarchy is a forest of bounded depth, the guard only stops a corrupt cycle.
    let cur: string | undefined = id;
    for (let guard = 0; cur !== undefined && guard < 1000; guard++) {
      total.set(cur, (total.get(cur) ?? 0) + value);
      cur = parentOf.get(cur);
    }
  }
  return total;
}
