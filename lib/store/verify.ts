// `admin score verify`: recompute every aggregate of a workspace from the raw links and compare.
// Truth: entities (parentId), notes (customer) and links (noteId, entityId, importance, setAt).
// Derived, and rebuilt by --repair: each hierarchy entity's own/total, the rating items, and each
// link's customerId cache. Repair first finishes deletes that crashed half-way (cascade.ts,
// notes.ts), then writes whole corrected items (BatchWrite), so it is meant for a quiet table:
// writes racing with it can be overwritten.
import { BatchWriteCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { isHierarchyType } from '../domain/hierarchy.ts';
import { countedWeight, ownScores, subtreeScores, WEIGHTS, type RatingEntry, type RawLink } from '../domain/score.ts';
import { linkItem, ratingItem, toLink, type LinkItem } from './aggregates.ts';
import { finishEntityDelete } from './cascade.ts';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';
import { finishNoteDelete } from './notes.ts';

export interface VerifyReport {
  checked: number;
  mismatches: number;
  repaired: number;
}

async function partition(ws: string): Promise<Array<Record<string, any>>> {
  const out: Array<Record<string, any>> = [];
  let start: Record<string, any> | undefined;
  do {
    const page: any = await db().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.workspace(ws).pk }, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    out.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

export async function workspaceIds(): Promise<string[]> {
  const ids: string[] = [];
  let start: Record<string, any> | undefined;
  do {
    const page: any = await db().send(
      new ScanCommand({ TableName: tableName(), FilterExpression: 'sk = :s', ExpressionAttributeValues: { ':s': 'WORKSPACE' }, ProjectionExpression: 'id', ExclusiveStartKey: start }),
    );
    for (const it of page.Items ?? []) ids.push(it.id);
    start = page.LastEvaluatedKey;
  } while (start);
  return ids;
}

async function batchWrite(requests: any[]): Promise<void> {
  const chunks: any[][] = [];
  for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(8, chunks.length) }, async () => {
      while (next < chunks.length) {
        let pending = chunks[next++]!;
        for (let attempt = 0; pending.length > 0; attempt++) {
          if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** attempt)));
          const res = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
          pending = res.UnprocessedItems?.[tableName()] ?? [];
        }
      }
    }),
  );
}

const sameEntries = (a: Record<string, RatingEntry> | undefined, b: Record<string, RatingEntry>) => {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => b[k] !== undefined && a![k]!.w === b[k]!.w && Number(a![k]!.at) === b[k]!.at);
};

export async function verifyWorkspace(ws: string, repair: boolean): Promise<VerifyReport> {
  let items = await partition(ws);
  if (repair) {
    const pending = items.filter((it) => it.deleting && (it.kind === 'entity' || it.kind === 'note'));
    for (const it of pending) {
      if (it.kind === 'entity') await finishEntityDelete(ws, it.id);
      else await finishNoteDelete(ws, it.id);
    }
    if (pending.length) items = await partition(ws);
  }
  const entities = new Map<string, Record<string, any>>();
  const notes = new Map<string, Record<string, any>>();
  const links: Array<{ item: Record<string, any>; link: LinkItem }> = [];
  const ratings = new Map<string, Record<string, any>>();
  for (const it of items) {
    if (it.kind === 'entity') entities.set(it.id, it);
    else if (it.kind === 'note') notes.set(it.id, it);
    else if (it.kind === 'link') links.push({ item: it, link: toLink(it) });
    else if (it.kind === 'rating') ratings.set(it.sk, it);
  }
  const live = (id: string) => {
    const e = entities.get(id);
    return e && !e.deleting && isHierarchyType(e.type) ? e : undefined;
  };

  const writes: any[] = [];
  let checked = 0;
  let mismatches = 0;
  // A note whose customer item is gone entirely (its delete missed the note: GSI lag) is anonymous.
  for (const note of notes.values()) {
    if (!note.customer || entities.has(note.customer.id)) continue;
    checked++;
    mismatches++;
    const fixed = { ...note };
    for (const attr of ['customer', 'gsi2pk', 'gsi2sk']) delete fixed[attr];
    notes.set(note.id, fixed);
    writes.push({ PutRequest: { Item: fixed } });
  }
  const raw: RawLink[] = [];
  for (const { item, link } of links) {
    checked++;
    const note = notes.get(link.noteId);
    const entity = entities.get(link.entityId);
    if (!note || !entity) {
      // An orphan (its note or entity is gone): it counts nowhere and is removed.
      mismatches++;
      writes.push({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } });
      continue;
    }
    const customerId: string | undefined = note.customer?.id;
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
    if (!stored || stored.weight !== weight || !sameEntries(stored.entries, r.entries)) {
      mismatches++;
      writes.push({ PutRequest: { Item: ratingItem(ws, { ...r, weight, ver: (stored?.ver ?? 0) + 1 }) } });
    }
  }
  for (const [sk, stored] of ratings) {
    // Ratings of an entity whose delete is under way go with it; those of a vanished entity are orphans.
    if (expected.has(sk) || (!live(stored.entityId) && entities.has(stored.entityId))) continue;
    checked++;
    mismatches++;
    writes.push({ DeleteRequest: { Key: { pk: stored.pk, sk } } });
  }

  // own and total of every live hierarchy entity.
  const own = ownScores(raw);
  const parentOf = new Map<string, string | undefined>();
  for (const e of entities.values()) if (isHierarchyType(e.type)) parentOf.set(e.id, e.parentId);
  const total = subtreeScores(parentOf, own);
  for (const e of entities.values()) {
    if (!live(e.id)) continue;
    checked++;
    const o = own.get(e.id) ?? 0;
    const t = total.get(e.id) ?? 0;
    if (e.own !== o || e.total !== t) {
      mismatches++;
      writes.push({ PutRequest: { Item: { ...e, own: o, total: t } } });
    }
  }
  if (repair) await batchWrite(writes);
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
