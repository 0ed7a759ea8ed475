// `admin score verify`: recompute every aggregate of a workspace from the raw links and compare.
// Truth: entities (parentId), notes (customer) and links (noteId, entityId, importance, setAt).
// Derived, and rebuilt by --repair: each hierarchy entity's own/total, the rating items, and each
// link's customerId cache. Repair first finishes deletes that crashed half-way (cascade.ts,
// notes.ts), then writes whole corrected items (BatchWrite), so it is meant for a quiet table:
// writes racing with it can be overwritten.
import { linkItem, ratingItem, toLink, toRating, type LinkItem, type RatingItem } from './aggregates.ts';
import { batchWriteAll, type WriteRequest } from './batch.ts';
import { finishEntityDelete } from './cascade.ts';
import { toEntity, type EntityItem } from './entities.ts';
import { keys } from './keys.ts';
import { finishNoteDelete, toNote, type NoteItem } from './notes.ts';
import { queryAll, scanAll, type StoredItem } from './query.ts';
import { isHierarchyType } from '../domain/hierarchy.ts';
import { countedWeight, ownScores, subtreeScores, WEIGHTS, type RatingEntry, type RawLink } from '../domain/score.ts';

export interface VerifyReport {
  checked: number;
  mismatches: number;
  repaired: number;
}

/** Every item of a workspace's partition (consistent). */
const partition = (ws: string) => queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.partition(ws) }, ConsistentRead: true });

export async function workspaceIds(): Promise<string[]> {
  const items = await scanAll({ FilterExpression: 'sk = :s', ExpressionAttributeValues: { ':s': keys.workspaceSortKey }, ProjectionExpression: 'id' });
  return items.map((it) => it.id as string);
}

/** A stored item with its typed reading: the raw item is what a repair rewrites, attributes and index keys alike. */
interface Read<T> {
  item: StoredItem;
  record: T;
}

const sameEntries = (a: Record<string, RatingEntry> | undefined, b: Record<string, RatingEntry>) => {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => b[k] !== undefined && a![k]!.w === b[k].w && Number(a![k]!.at) === b[k].at);
};

export async function verifyWorkspace(ws: string, repair: boolean): Promise<VerifyReport> {
  let items = await partition(ws);
  if (repair) {
    const pending = items.filter((it) => it.deleting && (it.kind === 'entity' || it.kind === 'note'));
    for (const it of pending) {
      if (it.kind === 'entity') await finishEntityDelete(ws, it.id as string);
      else await finishNoteDelete(ws, it.id as string);
    }
    if (pending.length) items = await partition(ws);
  }
  const entities = new Map<string, Read<EntityItem>>();
  const notes = new Map<string, Read<NoteItem>>();
  const links: Array<Read<LinkItem>> = [];
  const ratings = new Map<string, Read<RatingItem>>();
  for (const item of items) {
    if (item.kind === 'entity') entities.set(item.id as string, { item, record: toEntity(item) });
    else if (item.kind === 'note') notes.set(item.id as string, { item, record: toNote(item) });
    else if (item.kind === 'link') links.push({ item, record: toLink(item) });
    else if (item.kind === 'rating') ratings.set(item.sk as string, { item, record: toRating(item) });
  }
  const live = (id: string) => {
    const e = entities.get(id)?.record;
    return e && !e.deleting && isHierarchyType(e.type) ? e : undefined;
  };
  const keyOf = (item: StoredItem) => ({ pk: item.pk, sk: item.sk });

  const writes: WriteRequest[] = [];
  let checked = 0;
  let mismatches = 0;
  // A note whose customer item is gone entirely (its delete missed the note: GSI lag) is anonymous.
  for (const [id, { item, record }] of notes) {
    if (!record.customer || entities.has(record.customer.id)) continue;
    checked++;
    mismatches++;
    const { customer: _gone, gsi2pk: _pk, gsi2sk: _sk, ...fixed } = item;
    notes.set(id, { item: fixed, record: toNote(fixed) });
    writes.push({ PutRequest: { Item: fixed } });
  }
  const raw: RawLink[] = [];
  for (const { item, record: link } of links) {
    checked++;
    const note = notes.get(link.noteId)?.record;
    const entity = entities.get(link.entityId);
    if (!note || !entity) {
      // An orphan (its note or entity is gone): it counts nowhere and is removed.
      mismatches++;
      writes.push({ DeleteRequest: { Key: keyOf(item) } });
      continue;
    }
    const customerId = note.customer?.id;
    if (live(link.entityId) && WEIGHTS[link.importance] !== undefined) raw.push({ noteId: link.noteId, entityId: link.entityId, customerId, importance: link.importance, setAt: link.setAt });
    if (link.customerId !== customerId || typeof item.rev !== 'number') {
      mismatches++;
      const fixed: LinkItem = { ...link, rev: link.rev };
      delete fixed.customerId;
      if (customerId) fixed.customerId = customerId;
      writes.push({ PutRequest: { Item: linkItem(ws, fixed) } });
    }
  }

  // Rating items, rebuilt from the links of live entities.
  const expected = new Map<string, { entityId: string; customerId: string; entries: Record<string, RatingEntry> }>();
  for (const l of raw) {
    if (!l.customerId) continue;
    const sk = keys.rating(ws, l.entityId, l.customerId).sk;
    const r = expected.get(sk) ?? { entityId: l.entityId, customerId: l.customerId, entries: {} };
    r.entries[l.noteId] = { w: WEIGHTS[l.importance], at: l.setAt };
    expected.set(sk, r);
  }
  for (const [sk, r] of expected) {
    checked++;
    const stored = ratings.get(sk);
    const weight = countedWeight(r.entries);
    // The raw weight: an item without one is drift even where the counted weight is 0.
    if (!stored || stored.item.weight !== weight || !sameEntries(stored.record.entries, r.entries)) {
      mismatches++;
      writes.push({ PutRequest: { Item: ratingItem(ws, { ...r, weight, ver: (stored?.record.ver ?? 0) + 1 }) } });
    }
  }
  for (const [sk, { item, record: stored }] of ratings) {
    // Ratings of an entity whose delete is under way go with it; those of a vanished entity are orphans.
    if (expected.has(sk) || (!live(stored.entityId) && entities.has(stored.entityId))) continue;
    checked++;
    mismatches++;
    writes.push({ DeleteRequest: { Key: keyOf(item) } });
  }

  // own and total of every live hierarchy entity.
  const own = ownScores(raw);
  const parentOf = new Map<string, string | undefined>();
  for (const { record: e } of entities.values()) if (isHierarchyType(e.type)) parentOf.set(e.id, e.parentId);
  const total = subtreeScores(parentOf, own);
  for (const { item, record: e } of entities.values()) {
    if (!live(e.id)) continue;
    checked++;
    const o = own.get(e.id) ?? 0;
    const t = total.get(e.id) ?? 0;
    if (e.own !== o || e.total !== t) {
      mismatches++;
      writes.push({ PutRequest: { Item: { ...item, own: o, total: t } } });
    }
  }
  if (repair) await batchWriteAll(writes, 8);
  return { checked, mismatches, repaired: repair ? writes.length : 0 };
}

export async function verifyScores(options: { workspace?: string | undefined; repair: boolean }): Promise<VerifyReport> {
  const ids = options.workspace ? [options.workspace] : await workspaceIds();
  const report: VerifyReport = { checked: 0, mismatches: 0, repaired: 0 };
  for (const ws of ids) {
    const r = await verifyWorkspace(ws, options.repair);
    report.checked += r.checked;
    report.mismatches += r.mismatches;
    report.repaired += r.repaired;
  }
  return report;
}
