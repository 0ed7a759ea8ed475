// `admin score verify`: recompute every aggregate of a workspace from the raw links and compare.
// Truth: entities (parentId), notes (customer) and links (noteId, entityId, importance, setAt).
// Derived, and rebuilt by --repair: each hierarchy entity's own/total and hadChildren, the rating
// items, each link's customerId cache, and the copy of a note's links on the note item
// (lib/store/note-link-copy.ts). Repair writes whole corrected items (BatchWrite), so it is meant for
// a quiet table: writes racing with it can be overwritten.
//
// Work still pending (lib/store/work.ts) is not drift: the entities of a subtree delete under way
// (marked) are not checked and neither are their links, and the links of a note whose stepwise
// customer change is pending count for the customer their rating is filed under until it moves.
// Verify reports how many pending items there are; finishing them is the sweeper's
// (lib/store/sweep.ts). A delete marked by a version older than its pending work has none: that is
// a mismatch, and --repair records it (lib/store/cascade.ts adoptDelete).
//
// It streams: every pass reads the workspace one page at a time (lib/store/calls.ts's page loop) and looks
// up what a page refers to (notes, customers, entities) by BatchGetItem, and repairs are written in
// batches as they are found. What it holds at once is a page, the drift found on the one entity
// being checked (its links are streamed against its rating items, checkOwn), and the entities on the
// path from a top of the hierarchy down to it — never a map of the workspace, nor an entity's links.
//   1. deletes under way without pending work (marks older than it) are counted, and recorded with --repair;
//   2. notes naming a customer whose item is gone are cleared (they count as anonymous);
//   3. links: orphans (note or entity gone) are removed, the customer cache fixed, each link's entry
//      in its note's copy (when the note has one) set as the link is;
//   4. notes with a copy: entries whose link is gone are removed;
//   5. each live hierarchy entity, depth first from the tops of the hierarchy: its rating items
//      checked against its links (and rebuilt where they differ), its own score, and its total from
//      its children's (not below a deleted one: that is a delete's pending work);
//   6. rating items of entities that are gone are removed.
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { linkItem, ratingItem, toLink, toRating, type LinkItem } from './aggregates.ts';
import { batchGetAll, batchGetByKey, batchWriteAll, itemKeyId, type WriteRequest } from './batch.ts';
import { queryPages } from './calls.ts';
import { adoptDelete } from './cascade.ts';
import { toEntity, type EntityItem } from './entities.ts';
import * as keys from './keys.ts';
import { COPY_MARK, copyLinkNow, readCopy, type CopiedLink } from './note-link-copy.ts';
import { toNote } from './notes.ts';
import { scanAll, type StoredItem } from './query.ts';
import { tableName } from './table.ts';
import { ensureWork, readWork, workOf } from './work.ts';
import { canHaveChildren, isHierarchyType } from '../domain/hierarchy.ts';
import { ANONYMOUS_WEIGHT, countedWeight, WEIGHTS, type RatingEntry } from '../domain/score.ts';

export interface VerifyReport {
  checked: number;
  mismatches: number;
  repaired: number;
  /**
   * Pending-work items (lib/store/work.ts) there were at the start of the run or at its end: writes
   * under way, or left by a crash for the sweeper. Work finished while the passes ran can show as
   * mismatches that are not drift, so a report with pending work is one of a table that was not quiet.
   */
  pending: number;
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
    /** Notes whose stepwise customer change is pending: their links count as their cache says until it moves. */
    readonly syncing: ReadonlySet<string>,
    private readonly progress: ProgressListener | undefined,
    private readonly pageSize: number,
  ) {}

  /** Pages of a Query on the table (consistent unless it reads an index). */
  async *pages(input: Omit<QueryCommandInput, 'TableName'>): AsyncGenerator<StoredItem[]> {
    const consistent = input.IndexName === undefined;
    yield* queryPages({ TableName: tableName(), ...(consistent ? { ConsistentRead: true } : {}), Limit: this.pageSize, ...input });
  }

  /** The items of one kind in the workspace's partition, page by page. */
  ofKind(prefix: string, extra: Partial<QueryCommandInput> = {}): AsyncGenerator<StoredItem[]> {
    return this.pages({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.partition(this.ws), ':p': prefix },
      ...extra,
    });
  }

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

/** Deletes under way must have their pending work: a mark older than it is counted, and recorded with --repair. */
async function checkDeletes(run: Run): Promise<void> {
  run.begin('deletes');
  for (const prefix of [keys.kindPrefix.entity, keys.kindPrefix.note]) {
    for await (const page of run.ofKind(prefix, { FilterExpression: 'attribute_exists(deleting)', ProjectionExpression: 'id, kind, parentId' })) {
      run.read(page.length);
      for (const it of page) {
        const id = it.id as string;
        // A marked entity under a marked parent belongs to its root's delete.
        if (it.kind === 'entity' && it.parentId !== undefined) continue;
        const kind = it.kind === 'entity' ? 'deleteEntity' : 'deleteNote';
        run.checked++;
        if (await readWork(run.ws, kind, id)) continue;
        run.mismatches++;
        if (!run.repair) continue;
        if (kind === 'deleteEntity') await adoptDelete(run.ws, id);
        else await ensureWork(run.ws, kind, id, Date.now());
        run.repaired++;
      }
    }
  }
}

/** A note whose customer item is gone entirely (its delete missed the note: GSI lag) is anonymous. */
async function checkNoteCustomers(run: Run): Promise<void> {
  run.begin('notes');
  for await (const page of run.ofKind(keys.kindPrefix.note, { FilterExpression: 'attribute_exists(customer)' })) {
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
  for await (const page of run.ofKind(keys.kindPrefix.link)) {
    run.read(page.length);
    const links = page.map(toLink);
    const notes = await run.notes(links.map((l) => l.noteId));
    const customers = await run.customersOf(
      links.map((l) => l.noteId),
      notes,
    );
    const entities = await byKey(links.map((l) => keys.entity(run.ws, l.entityId)));
    for (const [i, link] of links.entries()) {
      run.checked++;
      const item = page[i]!;
      const note = notes.get(keys.note(run.ws, link.noteId).sk);
      const copy = note && readCopy(note);
      const copied = copy?.find((c) => c.entityId === link.entityId);
      const entity = entities.get(keys.entity(run.ws, link.entityId).sk);
      if (!customers.has(link.noteId) || !entity) {
        await run.fix({ DeleteRequest: { Key: keyOf(item) } });
        if (copied) await run.fixCopy(link.noteId, link.entityId, undefined);
        continue;
      }
      // A link to an entity whose delete is under way is the clean-up's (copy included).
      if (entity.deleting) continue;
      if (copy && (copied?.entityType !== link.entityType || copied.importance !== link.importance)) {
        await run.fixCopy(link.noteId, link.entityId, link);
      }
      const customerId = run.syncing.has(link.noteId) ? link.customerId : customers.get(link.noteId);
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
  for await (const page of run.ofKind(keys.kindPrefix.note, {
    FilterExpression: 'attribute_exists(#copied)',
    ExpressionAttributeNames: { '#copied': COPY_MARK },
  })) {
    run.read(page.length);
    const copies = page.map((item) => ({ noteId: item.id as string, copy: readCopy(item) ?? [] }));
    const links = await byKey(copies.flatMap(({ noteId, copy }) => copy.map((c) => keys.link(run.ws, noteId, c.entityId))));
    for (const { noteId, copy } of copies) {
      run.checked++;
      for (const c of copy) if (!links.has(keys.link(run.ws, noteId, c.entityId).sk)) await run.fixCopy(noteId, c.entityId, undefined);
    }
  }
}

/** Links of one entity whose rating entries one BatchGetItem looks up: 100 keys at most, and a projection well under DynamoDB's 4 KB expression limit. */
const ENTRY_LOOKUP = 100;

/**
 * What an entity's links say about its rating items, gathered a page at a time. Only the drift is
 * kept (`corrections`), so memory follows the drift found, not the number of links.
 */
interface LinkTally {
  /** ANONYMOUS_WEIGHT for each link from a note without a customer (lib/domain/score.ts ownScores). */
  anonymous: number;
  /** Links whose customer's rating item holds their entry as it should be. */
  matched: number;
  /** Links whose customer's rating item holds their entry with another weight or time. */
  wrong: number;
  /** Per customer, the entries missing from its rating item or wrong in it, as the links say. */
  corrections: Map<string, Record<string, RatingEntry>>;
}

/** One customer's entry in the rating items, as a link says it should be. */
interface LinkEntry {
  customerId: string;
  noteId: string;
  entry: RatingEntry;
}

/** The links' notes' entries in their customers' rating items of `entityId`: only those entries are read (a projection), never whole rating items. */
async function storedEntries(run: Run, entityId: string, links: LinkEntry[]): Promise<Map<string, Record<string, RatingEntry>>> {
  const notes = [...new Set(links.map((l) => l.noteId))];
  const names: Record<string, string> = { '#pk': 'pk', '#sk': 'sk', '#e': 'entries' };
  notes.forEach((noteId, i) => (names[`#n${i}`] = noteId));
  const expression = ['#pk', '#sk', ...notes.map((_, i) => `#e.#n${i}`)].join(', ');
  const customers = [...new Set(links.map((l) => l.customerId))];
  const found = await batchGetByKey(
    customers.map((c) => keys.rating(run.ws, entityId, c)),
    { consistent: true, projection: { expression, names } },
  );
  const out = new Map<string, Record<string, RatingEntry>>();
  for (const c of customers) {
    const item = found.get(itemKeyId(keys.rating(run.ws, entityId, c)));
    if (item) out.set(c, (item.entries as Record<string, RatingEntry> | undefined) ?? {});
  }
  return out;
}

/** Pass A: the entity's links, page by page, each checked against its entry in its customer's rating item. */
async function tallyLinks(run: Run, e: EntityItem): Promise<LinkTally> {
  const tally: LinkTally = { anonymous: 0, matched: 0, wrong: 0, corrections: new Map() };
  for await (const page of run.pages({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': keys.linksTo(run.ws, e.id) },
  })) {
    run.read(page.length);
    const links = page.map(toLink).filter((l) => l.entityId === e.id && WEIGHTS[l.importance] !== undefined);
    const customers = await run.customersOf(links.map((l) => l.noteId));
    const rated: LinkEntry[] = [];
    for (const l of links) {
      // A link whose note is gone counts nowhere (the links pass removes it).
      if (!customers.has(l.noteId)) continue;
      const customerId = run.syncing.has(l.noteId) ? l.customerId : customers.get(l.noteId);
      if (customerId === undefined) tally.anonymous += ANONYMOUS_WEIGHT;
      else rated.push({ customerId, noteId: l.noteId, entry: { w: WEIGHTS[l.importance], at: l.setAt } });
    }
    for (let i = 0; i < rated.length; i += ENTRY_LOOKUP) {
      const chunk = rated.slice(i, i + ENTRY_LOOKUP);
      const stored = await storedEntries(run, e.id, chunk);
      for (const { customerId, noteId, entry } of chunk) {
        const s = stored.get(customerId)?.[noteId];
        if (s && s.w === entry.w && Number(s.at) === entry.at) {
          tally.matched++;
          continue;
        }
        if (s) tally.wrong++;
        const corrections = tally.corrections.get(customerId) ?? {};
        corrections[noteId] = entry;
        tally.corrections.set(customerId, corrections);
      }
    }
  }
  return tally;
}

/** The entity's rating items, page by page. */
const ratingPages = (run: Run, e: EntityItem) => run.ofKind(keys.ratingsOfEntityPrefix(e.id));

/**
 * Pass B without drift: true when the rating items hold exactly the links' entries — the links found
 * no missing or wrong entry, the items hold as many entries as links matched (so none without a link),
 * and each item's weight is its counted one. Adds each item's counted weight to `own` as it goes.
 */
async function ratingsAgree(run: Run, e: EntityItem, tally: LinkTally): Promise<{ agree: boolean; own: number; items: number; entries: number }> {
  let [own, items, entries, agree] = [0, 0, 0, tally.corrections.size === 0];
  for await (const page of ratingPages(run, e)) {
    for (const item of page) {
      const stored = toRating(item);
      const n = Object.keys(stored.entries).length;
      const weight = countedWeight(stored.entries);
      items++;
      entries += n;
      own += weight;
      // The raw weight: an item without one is drift even where the counted weight is 0.
      if (n === 0 || item.weight !== weight) agree = false;
    }
  }
  return { agree: agree && entries === tally.matched, own, items, entries };
}

/**
 * The entries of one stored rating item that have a live link saying so (its note's customer is the
 * item's customer), read by key: for when some stored entry has no link.
 */
async function linkedEntries(run: Run, e: EntityItem, customerId: string, stored: Record<string, RatingEntry>): Promise<Record<string, RatingEntry>> {
  const out: Record<string, RatingEntry> = {};
  const noteIds = Object.keys(stored);
  for (let i = 0; i < noteIds.length; i += ENTRY_LOOKUP) {
    const chunk = noteIds.slice(i, i + ENTRY_LOOKUP);
    const links = await byKey(chunk.map((n) => keys.link(run.ws, n, e.id)));
    const customers = await run.customersOf(chunk.filter((n) => links.has(keys.link(run.ws, n, e.id).sk)));
    for (const noteId of chunk) {
      const item = links.get(keys.link(run.ws, noteId, e.id).sk);
      const l = item && toLink(item);
      const counts = l && (run.syncing.has(noteId) ? l.customerId : customers.get(noteId)) === customerId;
      if (l && counts && WEIGHTS[l.importance] !== undefined) out[noteId] = { w: WEIGHTS[l.importance], at: l.setAt };
    }
  }
  return out;
}

/**
 * Pass B with drift: each rating item gets the entries the links say — its stored entries (those
 * with a link, read by key, when `byKey`) with the corrections of its customer — and is rewritten,
 * or deleted when none is left; customers with corrections and no item get one. Answers the sum of
 * the counted weights.
 */
async function rebuildRatings(run: Run, e: EntityItem, corrections: Map<string, Record<string, RatingEntry>>, byKey: boolean): Promise<number> {
  let own = 0;
  for await (const page of ratingPages(run, e)) {
    for (const item of page) {
      const stored = toRating(item);
      const kept = byKey ? await linkedEntries(run, e, stored.customerId, stored.entries) : normalized(stored.entries);
      const entries = { ...kept, ...corrections.get(stored.customerId) };
      corrections.delete(stored.customerId);
      run.checked++;
      if (!Object.keys(entries).length) {
        await run.fix({ DeleteRequest: { Key: keyOf(item) } });
        continue;
      }
      const weight = countedWeight(entries);
      own += weight;
      // The raw weight: an item without one is drift even where the counted weight is 0.
      if (item.weight !== weight || !sameEntries(stored.entries, entries)) {
        await run.fix({ PutRequest: { Item: ratingItem(run.ws, { entityId: e.id, customerId: stored.customerId, entries, weight, ver: stored.ver + 1 }) } });
      }
    }
  }
  for (const [customerId, entries] of corrections) {
    run.checked++;
    own += countedWeight(entries);
    await run.fix({ PutRequest: { Item: ratingItem(run.ws, { entityId: e.id, customerId, entries, weight: countedWeight(entries), ver: 1 }) } });
  }
  return own;
}

const normalized = (entries: Record<string, RatingEntry>): Record<string, RatingEntry> =>
  Object.fromEntries(Object.entries(entries).map(([n, x]) => [n, { w: x.w, at: Number(x.at) }]));

/**
 * The entity's rating items checked against its links, and its own score (what ownScores gives on
 * those links), without holding the links: pass A streams the links and keeps only the drift, pass B
 * streams the rating items (a second time, and then by key, only when there is drift).
 */
async function checkOwn(run: Run, e: EntityItem): Promise<number> {
  const tally = await tallyLinks(run, e);
  const clean = await ratingsAgree(run, e, tally);
  if (clean.agree) {
    run.checked += clean.items;
    return tally.anonymous + clean.own;
  }
  // Stored entries beyond those the links matched or found wrong have no link: check each by key.
  const byKey = clean.entries !== tally.matched + tally.wrong;
  return tally.anonymous + (await rebuildRatings(run, e, tally.corrections, byKey));
}

/**
 * The total of `item`'s subtree, depth first through the children index; checks own, total and
 * hadChildren of every live hierarchy entity on the way. A deleted (marked) entity is walked through,
 * not checked, and neither is what is below it (`underDeleted`): a descendant not marked yet is the
 * pending work of its root's delete (checkDeletes counts a delete without it).
 */
async function checkSubtree(run: Run, item: StoredItem, underDeleted = false): Promise<number> {
  const e = toEntity(item);
  const own = live(e) && !underDeleted ? await checkOwn(run, e) : 0;
  let total = own;
  let children = 0;
  for await (const page of run.pages({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': keys.childrenOf(run.ws, e.id) },
  })) {
    // The index may lag: each child is read again, consistently, and must still name this parent.
    const found = await byKey(page.map((c) => keys.entity(run.ws, c.id as string)));
    for (const child of found.values()) {
      if (child.parentId !== e.id) continue;
      children++;
      if (isHierarchyType(toEntity(child).type)) total += await checkSubtree(run, child, underDeleted || e.deleting !== undefined);
    }
  }
  if (live(e) && !underDeleted) {
    run.checked++;
    if (e.own !== own || e.total !== total || (children > 0 && e.hadChildren === false)) {
      await run.fix({ PutRequest: { Item: { ...item, own, total, ...(children > 0 ? { hadChildren: true } : {}) } } });
    }
  }
  return total;
}

/** A customer that may have users must say so (hadChildren), or a delete of it would not look for them. */
async function checkCustomerChildren(run: Run, item: StoredItem): Promise<void> {
  const e = toEntity(item);
  if (e.deleting || e.hadChildren !== false || !canHaveChildren(e.type)) return;
  for await (const page of run.pages({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': keys.childrenOf(run.ws, e.id) },
    Limit: 1,
  })) {
    if (page.length === 0) continue;
    const child = (await byKey(page.map((c) => keys.entity(run.ws, c.id as string)))).values().next().value;
    if (child?.parentId === e.id) {
      await run.fix({ PutRequest: { Item: { ...item, hadChildren: true } } });
      return;
    }
  }
}

/**
 * Every live hierarchy entity, depth first from the tops of the hierarchy: hierarchy entities with no
 * parent standing (a product, the detached root of a delete under way, an orphan). Deleted ones are
 * walked through, not checked, so a live entity under them is still reached exactly once.
 */
async function checkEntities(run: Run): Promise<void> {
  run.begin('entities');
  for await (const page of run.ofKind(keys.kindPrefix.entity)) {
    run.read(page.length);
    for (const it of page) if (!isHierarchyType(toEntity(it).type)) await checkCustomerChildren(run, it);
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
  for await (const page of run.ofKind(keys.kindPrefix.rating)) {
    run.read(page.length);
    const entities = await byKey(page.map((it) => keys.entity(run.ws, it.entityId as string)));
    for (const item of page) {
      if (entities.has(keys.entity(run.ws, item.entityId as string).sk)) continue;
      run.checked++;
      await run.fix({ DeleteRequest: { Key: keyOf(item) } });
    }
  }
}

/** Items per page of every Query verify makes; tests make it small to cross page boundaries. */
const VERIFY_PAGE_SIZE = 500;

export async function verifyWorkspace(ws: string, repair: boolean, progress?: ProgressListener, pageSize = VERIFY_PAGE_SIZE): Promise<VerifyReport> {
  const work = await workOf(ws);
  const run = new Run(ws, repair, new Set(work.filter((w) => w.work === 'noteCustomer').map((w) => w.subject)), progress, pageSize);
  // Each pass's repairs land before the next reads what they fixed.
  for (const pass of [checkDeletes, checkNoteCustomers, checkLinks, checkCopies, checkEntities, checkOrphanRatings]) {
    await pass(run);
    await run.flush();
  }
  const pending = new Set([...work, ...(await workOf(ws))].map((w) => `${w.work}#${w.subject}`)).size;
  return { checked: run.checked, mismatches: run.mismatches, repaired: run.repaired, pending };
}

export async function verifyScores(options: { workspace?: string | undefined; repair: boolean; progress?: ProgressListener }): Promise<VerifyReport> {
  const ids = options.workspace ? [options.workspace] : await workspaceIds();
  const report: VerifyReport = { checked: 0, mismatches: 0, repaired: 0, pending: 0 };
  for (const ws of ids) {
    const r = await verifyWorkspace(ws, options.repair, options.progress);
    report.checked += r.checked;
    report.mismatches += r.mismatches;
    report.repaired += r.repaired;
    report.pending += r.pending;
  }
  return report;
}
