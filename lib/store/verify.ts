// `admin score verify`: recompute every aggregate of a workspace from the raw links and compare.
// Truth: entities (parentId), notes (customer) and links (noteId, entityId, importance, setAt).
// Derived, and rebuilt by --repair: each hierarchy entity's own/total, the rating items, each
// link's customerId cache, and the copy of a note's links on the note item (lib/store/note-link-copy.ts). Repair first finishes deletes that crashed half-way (cascade.ts,
// notes.ts), then writes whole corrected items (BatchWrite), so it is meant for a quiet table:
// writes racing with it can be overwritten.
//
// It streams: every pass reads the workspace one page at a time (lib-dynamodb's paginators) and looks
// up what a page refers to (notes, customers, entities) by BatchGetItem, and repairs are written in
// batches as they are found. What it holds at once is a page, the links of the one entity being
// checked (its ratings are rebuilt from them), and the entities on the path from a top of the
// hierarchy down to it — never a map of the workspace.
//   1. (--repair) deletes that stopped half-way are finished;
//   2. notes naming a customer whose item is gone are cleared (they count as anonymous);
//   3. links: orphans (note or entity gone) are removed, the customer cache fixed, each link's entry
//      in its note's copy (when the note has one) set as the link is;
//   4. notes with a copy: entries whose link is gone are removed;
//   5. each live hierarchy entity, depth first from the tops of the hierarchy: its ratings rebuilt
//      from its links, its own score, and its total from its children's;
//   6. rating items of entities that are gone are removed.
import { paginateQuery, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { linkItem, ratingItem, toLink, toRating, type LinkItem } from './aggregates.ts';
import { batchGetAll, batchWriteAll, type WriteRequest } from './batch.ts';
import { finishEntityDelete } from './cascade.ts';
import { db, tableName } from './client.ts';
import { toEntity, type EntityItem } from './entities.ts';
import * as keys from './keys.ts';
import { COPY_MARK, copyLinkNow, readCopy, type CopiedLink } from './note-link-copy.ts';
import { finishNoteDelete, toNote } from './notes.ts';
import { scanAll, type StoredItem } from './query.ts';
import { isHierarchyType } from '../domain/hierarchy.ts';
import { countedWeight, ownScores, WEIGHTS, type RatingEntry, type RawLink } from '../domain/score.ts';

export interface VerifyReport {
  checked: number;
  mismatches: number;
  repaired: number;
}

/** The passes, in order, and how far the current one got: what a progress display shows. */
export const VERIFY_PHASES = ['deletes', 'notes', 'links', 'copies', 'entities', 'ratings'] as const;
export interface VerifyProgress {
  workspace: string;
  phase: (typeof VERIFY_PHASES)[number];
  /** Items read in this phase so far. */
  items: number;
  checked: number;
  mismatches: number;
}
export type ProgressListener = (p: VerifyProgress) => void;

export async function workspaceIds(): Promise<string[]> {
  const items = await scanAll({ FilterExpression: 'sk = :s', ExpressionAttributeValues: { ':s': keys.workspaceSortKey }, ProjectionExpression: 'id' });
  return items.map((it) => it.id as string);
}

/** Pages of a Query on the table (consistent unless it reads an index). */
async function* pages(input: Omit<QueryCommandInput, 'TableName'>): AsyncGenerator<StoredItem[]> {
  const consistent = input.IndexName === undefined;
  for await (const page of paginateQuery({ client: db(), pageSize: 500 }, { TableName: tableName(), ...(consistent ? { ConsistentRead: true } : {}), ...input })) {
    yield page.Items ?? [];
  }
}

/** The items of one kind in a workspace's partition, page by page. */
const ofKind = (ws: string, prefix: string, extra: Partial<QueryCommandInput> = {}) =>
  pages({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': prefix }, ...extra });

/** Items by key, read in batches; absent keys are missing from the map. */
async function byKey(list: Array<{ pk: string; sk: string }>): Promise<Map<string, StoredItem>> {
  const unique = [...new Map(list.map((k) => [k.sk, k])).values()];
  const found = await batchGetAll(unique, { consistent: true });
  return new Map(found.map((it) => [it.sk as string, it]));
}

const sameEntries = (a: Record<string, RatingEntry> | undefined, b: Record<string, RatingEntry>) => {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => b[k] !== undefined && a![k]!.w === b[k].w && Number(a![k]!.at) === b[k].at);
};

const keyOf = (item: StoredItem) => ({ pk: item.pk as string, sk: item.sk as string });
const live = (e: EntityItem | undefined): e is EntityItem => e !== undefined && !e.deleting && isHierarchyType(e.type);

/** One workspace's verification: counters, and the repairs buffered into batches. */
class Run {
  checked = 0;
  mismatches = 0;
  repaired = 0;
  private writes: WriteRequest[] = [];
  private phase: VerifyProgress['phase'] = 'deletes';
  private items = 0;

  constructor(
    readonly ws: string,
    readonly repair: boolean,
    private readonly progress: ProgressListener | undefined,
  ) {}

  begin(phase: VerifyProgress['phase']): void {
    this.phase = phase;
    this.items = 0;
    this.report();
  }

  read(n: number): void {
    this.items += n;
    this.report();
  }

  private report(): void {
    this.progress?.({ workspace: this.ws, phase: this.phase, items: this.items, checked: this.checked, mismatches: this.mismatches });
  }

  /** A mismatch, and the write that repairs it. */
  async fix(write: WriteRequest): Promise<void> {
    this.mismatches++;
    if (!this.repair) return;
    this.writes.push(write);
    if (this.writes.length >= 200) await this.flush();
  }

  /**
   * A note's copy of one link that differs from the link (undefined: the link is gone): counted, and
   * repaired at once by an update of that one attribute, so repairs of one note never overwrite each other.
   */
  async fixCopy(noteId: string, entityId: string, link: CopiedLink | undefined): Promise<void> {
    this.mismatches++;
    if (!this.repair) return;
    await copyLinkNow(this.ws, noteId, entityId, link);
    this.repaired++;
  }

  async flush(): Promise<void> {
    if (!this.writes.length) return;
    const batch = this.writes;
    this.writes = [];
    await batchWriteAll(batch, 8);
    this.repaired += batch.length;
  }

  /**
   * The customer each note of `noteIds` counts for now: its customer, or undefined when it has none
   * or the customer's item is gone (such a note counts as anonymous). Absent notes are missing.
   */
  async customersOf(noteIds: string[], read?: Map<string, StoredItem>): Promise<Map<string, string | undefined>> {
    const notes = read ?? (await this.notes(noteIds));
    const named = [...notes.values()].map(toNote).filter((n) => n.customer);
    const customers = await byKey(named.map((n) => keys.entity(this.ws, n.customer!.id)));
    const out = new Map<string, string | undefined>();
    for (const item of notes.values()) {
      const n = toNote(item);
      out.set(n.id, n.customer && customers.has(keys.entity(this.ws, n.customer.id).sk) ? n.customer.id : undefined);
    }
    return out;
  }

  /** Note items by id (absent notes are missing), keyed by sort key. */
  notes(noteIds: string[]): Promise<Map<string, StoredItem>> {
    return byKey(noteIds.map((id) => keys.note(this.ws, id)));
  }
}

async function finishDeletes(run: Run): Promise<void> {
  run.begin('deletes');
  for (const prefix of [keys.kindPrefix.entity, keys.kindPrefix.note]) {
    for await (const page of ofKind(run.ws, prefix, { FilterExpression: 'attribute_exists(deleting)', ProjectionExpression: 'id, kind' })) {
      run.read(page.length);
      for (const it of page) {
        if (it.kind === 'entity') await finishEntityDelete(run.ws, it.id as string);
        else if (it.kind === 'note') await finishNoteDelete(run.ws, it.id as string);
      }
    }
  }
}

/** A note whose customer item is gone entirely (its delete missed the note: GSI lag) is anonymous. */
async function checkNoteCustomers(run: Run): Promise<void> {
  run.begin('notes');
  for await (const page of ofKind(run.ws, keys.kindPrefix.note, { FilterExpression: 'attribute_exists(customer)' })) {
    run.read(page.length);
    const customers = await byKey(page.map((it) => keys.entity(run.ws, toNote(it).customer!.id)));
    for (const item of page) {
      if (customers.has(keys.entity(run.ws, toNote(item).customer!.id).sk)) continue;
      run.checked++;
      const { customer: _gone, gsi2pk: _pk, gsi2sk: _sk, ...fixed } = item;
      await run.fix({ PutRequest: { Item: fixed } });
    }
  }
}

/** Every link: an orphan (its note or entity is gone) counts nowhere and is removed; the customer cache follows the note. */
async function checkLinks(run: Run): Promise<void> {
  run.begin('links');
  for await (const page of ofKind(run.ws, keys.kindPrefix.link)) {
    run.read(page.length);
    const links = page.map(toLink);
    const notes = await run.notes(links.map((l) => l.noteId));
    const customers = await run.customersOf(links.map((l) => l.noteId), notes);
    const entities = await byKey(links.map((l) => keys.entity(run.ws, l.entityId)));
    for (const [i, link] of links.entries()) {
      run.checked++;
      const item = page[i]!;
      const note = notes.get(keys.note(run.ws, link.noteId).sk);
      const copy = note && readCopy(note);
      const copied = copy?.find((c) => c.entityId === link.entityId);
      if (!customers.has(link.noteId) || !entities.has(keys.entity(run.ws, link.entityId).sk)) {
        await run.fix({ DeleteRequest: { Key: keyOf(item) } });
        if (copied) await run.fixCopy(link.noteId, link.entityId, undefined);
        continue;
      }
      if (copy && (copied?.entityType !== link.entityType || copied.importance !== link.importance)) {
        await run.fixCopy(link.noteId, link.entityId, link);
      }
      const customerId = customers.get(link.noteId);
      if (link.customerId !== customerId || typeof item.rev !== 'number') {
        const fixed: LinkItem = { ...link, rev: link.rev };
        delete fixed.customerId;
        if (customerId) fixed.customerId = customerId;
        await run.fix({ PutRequest: { Item: linkItem(run.ws, fixed) } });
      }
    }
  }
}

/** Each note with a copy of its links: an entry whose link item is gone is removed (entries of existing links were checked with the links). */
async function checkCopies(run: Run): Promise<void> {
  run.begin('copies');
  for await (const page of ofKind(run.ws, keys.kindPrefix.note, { FilterExpression: 'attribute_exists(#copied)', ExpressionAttributeNames: { '#copied': COPY_MARK } })) {
    run.read(page.length);
    const copies = page.map((item) => ({ noteId: item.id as string, copy: readCopy(item) ?? [] }));
    const links = await byKey(copies.flatMap(({ noteId, copy }) => copy.map((c) => keys.link(run.ws, noteId, c.entityId))));
    for (const { noteId, copy } of copies) {
      run.checked++;
      for (const c of copy) if (!links.has(keys.link(run.ws, noteId, c.entityId).sk)) await run.fixCopy(noteId, c.entityId, undefined);
    }
  }
}

/** The entity's ratings rebuilt from its links, compared with the stored ones; answers its own score. */
async function checkOwn(run: Run, e: EntityItem): Promise<number> {
  const raw: RawLink[] = [];
  for await (const page of pages({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': keys.linksTo(run.ws, e.id) } })) {
    run.read(page.length);
    const links = page.map(toLink).filter((l) => l.entityId === e.id && WEIGHTS[l.importance] !== undefined);
    const customers = await run.customersOf(links.map((l) => l.noteId));
    for (const l of links) {
      if (customers.has(l.noteId)) raw.push({ noteId: l.noteId, entityId: e.id, customerId: customers.get(l.noteId), importance: l.importance, setAt: l.setAt });
    }
  }
  const expected = new Map<string, Record<string, RatingEntry>>();
  for (const l of raw) {
    if (!l.customerId) continue;
    const entries = expected.get(l.customerId) ?? {};
    entries[l.noteId] = { w: WEIGHTS[l.importance], at: l.setAt };
    expected.set(l.customerId, entries);
  }
  const seen = new Set<string>();
  for await (const page of ofKind(run.ws, keys.ratingsOfEntityPrefix(e.id))) {
    for (const item of page) {
      const stored = toRating(item);
      const entries = expected.get(stored.customerId);
      run.checked++;
      if (!entries) {
        await run.fix({ DeleteRequest: { Key: keyOf(item) } });
        continue;
      }
      seen.add(stored.customerId);
      const weight = countedWeight(entries);
      // The raw weight: an item without one is drift even where the counted weight is 0.
      if (item.weight !== weight || !sameEntries(stored.entries, entries)) {
        await run.fix({ PutRequest: { Item: ratingItem(run.ws, { entityId: e.id, customerId: stored.customerId, entries, weight, ver: stored.ver + 1 }) } });
      }
    }
  }
  for (const [customerId, entries] of expected) {
    if (seen.has(customerId)) continue;
    run.checked++;
    await run.fix({ PutRequest: { Item: ratingItem(run.ws, { entityId: e.id, customerId, entries, weight: countedWeight(entries), ver: 1 }) } });
  }
  return ownScores(raw).get(e.id) ?? 0;
}

/**
 * The total of `item`'s subtree, depth first through the children index; checks own and total of
 * every live hierarchy entity on the way. A child marked for deletion still passes on its children's
 * totals (as the aggregates do until the cascade removes them) but has no score of its own.
 */
async function checkSubtree(run: Run, item: StoredItem): Promise<number> {
  const e = toEntity(item);
  const own = live(e) ? await checkOwn(run, e) : 0;
  let total = own;
  for await (const page of pages({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': keys.childrenOf(run.ws, e.id) } })) {
    // The index may lag: each child is read again, consistently, and must still name this parent.
    const children = await byKey(page.map((c) => keys.entity(run.ws, c.id as string)));
    for (const child of children.values()) {
      if (child.parentId === e.id && isHierarchyType(toEntity(child).type)) total += await checkSubtree(run, child);
    }
  }
  if (live(e)) {
    run.checked++;
    if (e.own !== own || e.total !== total) await run.fix({ PutRequest: { Item: { ...item, own, total } } });
  }
  return total;
}

/**
 * Every live hierarchy entity, depth first from the tops of the hierarchy: hierarchy entities with no
 * parent standing (a product, the detached root of a delete under way, an orphan). Deleted ones are
 * walked through, not checked, so a live entity under them is still reached exactly once.
 */
async function checkEntities(run: Run): Promise<void> {
  run.begin('entities');
  for await (const page of ofKind(run.ws, keys.kindPrefix.entity)) {
    run.read(page.length);
    const hierarchy = page.filter((it) => isHierarchyType(toEntity(it).type));
    const parents = await byKey(hierarchy.filter((it) => it.parentId).map((it) => keys.entity(run.ws, it.parentId as string)));
    for (const item of hierarchy) {
      const parent = item.parentId ? parents.get(keys.entity(run.ws, item.parentId as string).sk) : undefined;
      // Under a hierarchy parent still standing, it is reached from that parent's subtree.
      if (parent && isHierarchyType(toEntity(parent).type)) continue;
      await checkSubtree(run, item);
    }
  }
}

/** Ratings of an entity that is gone entirely are orphans (those of an entity being deleted go with it). */
async function checkOrphanRatings(run: Run): Promise<void> {
  run.begin('ratings');
  for await (const page of ofKind(run.ws, keys.kindPrefix.rating)) {
    run.read(page.length);
    const entities = await byKey(page.map((it) => keys.entity(run.ws, it.entityId as string)));
    for (const item of page) {
      if (entities.has(keys.entity(run.ws, item.entityId as string).sk)) continue;
      run.checked++;
      await run.fix({ DeleteRequest: { Key: keyOf(item) } });
    }
  }
}

export async function verifyWorkspace(ws: string, repair: boolean, progress?: ProgressListener): Promise<VerifyReport> {
  const run = new Run(ws, repair, progress);
  if (repair) await finishDeletes(run);
  // Each pass's repairs land before the next reads what they fixed.
  for (const pass of [checkNoteCustomers, checkLinks, checkCopies, checkEntities, checkOrphanRatings]) {
    await pass(run);
    await run.flush();
  }
  return { checked: run.checked, mismatches: run.mismatches, repaired: run.repaired };
}

export async function verifyScores(options: { workspace?: string | undefined; repair: boolean; progress?: ProgressListener }): Promise<VerifyReport> {
  const ids = options.workspace ? [options.workspace] : await workspaceIds();
  const report: VerifyReport = { checked: 0, mismatches: 0, repaired: 0 };
  for (const ws of ids) {
    const r = await verifyWorkspace(ws, options.repair, options.progress);
    report.checked += r.checked;
    report.mismatches += r.mismatches;
    report.repaired += r.repaired;
  }
  return report;
}
