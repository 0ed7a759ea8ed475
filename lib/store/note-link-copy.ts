// A copy of a note's links on the note item, so a page of notes renders its inline relationships
// from the items its one Query returned instead of one Query per note (lib/http/records.ts).
//
// Layout: one top-level attribute per link, `L#<entityId>` = { entityType, importance }, and the
// mark `linksCopied` = true saying the copy is complete. Top-level attributes (not a map) because
// an update can set or remove one without the note's other links and without a parent attribute,
// which notes written before the copy existed do not have. The link item stays the truth:
//   - every write of a link item writes its attribute in the same transaction (lib/store/notes.ts
//     createNote, upsertLink, removeLink); an entity delete removes them before the links it deletes
//     (lib/store/cascade.ts), so a crash between leaves a link hidden whose entity is going anyway;
//   - a note without the mark (older data, or more than MAX_COPIED_LINKS links) is read through the
//     Query as before; attributes of a note without the mark are ignored;
//   - `score verify` checks the copy of every marked note against its link items and repairs it
//     (lib/store/verify.ts).
import type { LinkItem } from './aggregates.ts';
import { updateItem } from './calls.ts';
import { isConditionFailed } from './errors.ts';
import * as keys from './keys.ts';
import type { StoredItem } from './query.ts';
import { tableName } from './table.ts';
import type { TxItem } from './tx.ts';

/** Links a copy holds at most (≈ 70 bytes each): a note past it is read through the Query. */
export const MAX_COPIED_LINKS = 100;

export const COPY_MARK = 'linksCopied';
const ATTRIBUTE = 'L#';

export type CopiedLink = Pick<LinkItem, 'entityId' | 'entityType' | 'importance'>;

const copyAttribute = (entityId: string) => `${ATTRIBUTE}${entityId}`;

/** The value a link's attribute holds. */
const copyValue = (l: CopiedLink) => ({ entityType: l.entityType, importance: l.importance });

/** The copy on a stored note item, by entity id; undefined when the item has no complete copy. */
export function readCopy(item: StoredItem): CopiedLink[] | undefined {
  if (item[COPY_MARK] !== true) return undefined;
  const out: CopiedLink[] = [];
  for (const [name, value] of Object.entries(item)) {
    if (!name.startsWith(ATTRIBUTE)) continue;
    const v = value as Partial<CopiedLink>;
    out.push({ entityId: name.slice(ATTRIBUTE.length), entityType: v.entityType!, importance: v.importance! });
  }
  return out.sort((a, b) => (a.entityId < b.entityId ? -1 : a.entityId > b.entityId ? 1 : 0));
}

/** The attributes of a new note's item holding `links` (none past the cap: no copy then). */
export function copyAttributes(links: readonly CopiedLink[]): Record<string, unknown> {
  if (links.length > MAX_COPIED_LINKS) return {};
  return { [COPY_MARK]: true, ...Object.fromEntries(links.map((l) => [copyAttribute(l.entityId), copyValue(l)])) };
}

/**
 * What writes of `links` (one note's) do to its copy, as clauses of the note's update: each link's
 * attribute set, or — new links taking it past the cap — the mark removed (the note is read through
 * the Query from then on).
 */
export function copyUpdate(
  copy: readonly CopiedLink[],
  links: readonly CopiedLink[],
  names: Record<string, string>,
  values: Record<string, unknown>,
): { set?: string; remove?: string } {
  const adding = links.filter((l) => !copy.some((c) => c.entityId === l.entityId)).length;
  if (adding > 0 && copy.length + adding > MAX_COPIED_LINKS) {
    names['#copied'] = COPY_MARK;
    return { remove: '#copied' };
  }
  const sets = links.map((link, i) => {
    names[`#copy${i}`] = copyAttribute(link.entityId);
    values[`:copy${i}`] = copyValue(link);
    return `#copy${i} = :copy${i}`;
  });
  return { set: sets.join(', ') };
}

/** One attribute of the copy set (`link`) or removed, on a note that still exists. */
const copyChange = (ws: string, noteId: string, entityId: string, link?: CopiedLink) => ({
  TableName: tableName(),
  Key: keys.note(ws, noteId),
  UpdateExpression: link ? 'SET #copy = :copy' : 'REMOVE #copy',
  ConditionExpression: 'attribute_exists(pk)',
  ExpressionAttributeNames: { '#copy': copyAttribute(entityId) },
  ...(link ? { ExpressionAttributeValues: { ':copy': copyValue(link) } } : {}),
});

/** The note update that takes a removed link out of the copy (whether or not the note has one). */
export const uncopyLink = (ws: string, noteId: string, entityId: string): TxItem => uncopyLinksOf(ws, noteId, [entityId]);

/** The same for several links of one note (an entity delete's clean-up takes a chunk's at once). */
export function uncopyLinksOf(ws: string, noteId: string, entityIds: readonly string[]): TxItem {
  const names = Object.fromEntries(entityIds.map((id, i) => [`#c${i}`, copyAttribute(id)]));
  return {
    Update: {
      TableName: tableName(),
      Key: keys.note(ws, noteId),
      UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
    },
  };
}

/**
 * The same on its own, or with `link` its attribute set (an entity delete's links, verify's
 * repairs); a note already gone has nothing to update.
 */
export async function copyLinkNow(ws: string, noteId: string, entityId: string, link?: CopiedLink): Promise<void> {
  try {
    await updateItem(copyChange(ws, noteId, entityId, link));
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}
