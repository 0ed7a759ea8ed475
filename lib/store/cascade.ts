// Deleting an entity with its whole subtree (docs/architecture.md, "Subtree delete").
//
// Before the answer (deleteEntity), in transactions of at most 100 items:
//   1. the root is marked `deleting` and detached — its parent link removed, its total taken out of
//      every ancestor, conditioned like any hierarchy change — together with the delete's
//      pending-work item (lib/store/work.ts) and the first tombstone chunk ([root]): from here on the
//      rest happens whoever runs it, and no write can reach the subtree (creates, links and moves
//      condition on every ancestor not being deleted);
//   2. the descendants are marked level by level, up to 99 per transaction with their tombstone
//      chunk (lib/store/tombstones.ts), each conditioned on still having the parent it was found
//      under. Children are looked for only under entities that ever had one (hadChildren), so a
//      level of leaves costs no read;
//   3. for a company or user: its notes, and its users' notes, lose their customer (one transaction
//      per note; a note with many links changes stepwise under its own pending work).
// It answers once all of that is done, and the root says so (`goneAt`): the whole subtree is gone
// for every reader (readers hide links and relations to tombstoned ids; a repeated DELETE is 404) and
// every remaining score is exact. Out of time before that,
// Unfinished (408): the pending work finishes it. The links and ratings below are not touched.
//
// The clean-up (finishEntityDelete) runs from the pending-work item (lib/store/sweep.ts): steps 2
// and 3 again (idempotent; they find what an index that lagged behind a write just before step 1
// hid from the first pass), then the tombstone chunks, deepest level first, up to ten chunks of a
// level at a time: their entities are read in batches, their relations (in one pass over the
// workspace's for a large group) and their links entity by entity; their links leave their notes'
// copies (one update per note, 100 notes per transaction), then their ratings are read (in one pass
// for a large group too) and go with the links, their relations (both sides) and a user's e-mail
// look-up; then the entity items, then the chunks. Every step is idempotent and may run twice at
// once; a crash anywhere leaves the pending item, and the next sweep carries on.
import { Plan } from './aggregates.ts';
import { batchGetByKey, batchWriteAll, itemKeyId } from './batch.ts';
import { putItem, updateItem } from './calls.ts';
import { customerEmailOf } from './customers.ts';
import { entityVersion, readChain, readEntityItem, readEntityItems, type EntityItem } from './entities.ts';
import { isConditionFailed } from './errors.ts';
import type { WriteScope } from './idempotency.ts';
import * as keys from './keys.ts';
import type { ItemKey } from './keys.ts';
import { uncopyLinksOf } from './note-link-copy.ts';
import { setNoteCustomer } from './notes.ts';
import { partitionItems, partitionPages, queryAll, type StoredItem } from './query.ts';
import { relationDeletes, relationsOf, relationsOfAny, type RelationItem } from './relations.ts';
import { tableName } from './table.ts';
import { tombstonePut, tombstonesOf, TOMBSTONES_PER_CHUNK, type TombstoneChunk } from './tombstones.ts';
import { MAX_TX_ITEMS, transact } from './tx.ts';
import { ensureWork, inTime, orUnfinished, releaseWork, workPut } from './work.ts';
import { LAMBDA_EXTRA_MS } from '../config.ts';
import { deadlineOf } from '../deadline.ts';
import { NotFound, PreconditionFailed } from '../domain/errors.ts';
import { canHaveChildren, isCustomerType, isHierarchyType, type EntityType } from '../domain/hierarchy.ts';

/** Steps run at once (Queries, note changes, entities cleaned). */
const PARALLEL = 16;
/** Transactions taking links out of notes' copies in flight at once. */
const UNCOPY_PARALLEL = 4;

const underWay = (id: string) => () =>
  `The delete of entity ${id} was accepted and is still under way: the entity is gone, and the rest of its subtree follows without another request. Repeating the DELETE answers 204 once all of it is gone for every reader.`;

/**
 * Deletes an entity and its subtree (steps 1–3 above). Asked again for an entity whose delete has
 * begun, it carries on with steps 2 and 3 and answers when they are done. `versions`: the request's
 * If-Match (lib/domain/etag.ts), when it sent one: the root must be at one of them, and step 1
 * conditions on that version; step 1 leaves `updatedAt` alone, so a retry with the same If-Match
 * carries on a delete that began.
 */
export async function deleteEntity(ws: string, id: string, versions?: string[], scope?: WriteScope): Promise<void> {
  const until = deadlineOf(Date.now(), scope?.deadline);
  // The request's own lease on its pending work: the sweeper leaves it alone while the request may still run.
  const leaseUntil = until + LAMBDA_EXTRA_MS;
  const begun = await transact(
    'deleteEntity',
    async () => {
      const { chain, complete } = await readChain(ws, id);
      const e = chain[0];
      const stale = (root: EntityItem) => versions !== undefined && !versions.includes(entityVersion(root));
      if (e?.deleting) {
        // Gone for every reader already (an earlier DELETE answered 204, or it lies below the root of
        // one — roots are detached, descendants keep their parent): this one is a reader too.
        if (e.goneAt || e.parentId !== undefined) throw new NotFound('entity', id);
        if (stale(e)) throw new PreconditionFailed('entity', id, versions ?? []);
        return { items: [], result: undefined };
      }
      if (!e || !complete || chain.some((x) => x.deleting)) throw new NotFound('entity', id);
      if (stale(e)) throw new PreconditionFailed('entity', id, versions ?? []);
      const plan = new Plan(ws);
      const self = plan.entity(e);
      self.set = { deleting: new Date().toISOString(), ...(e.parentId ? { deletedFrom: e.parentId } : {}) };
      if (versions) {
        self.expectVersion = e.updatedAt;
        self.expectGrowth = e.growth ?? 0;
      }
      self.remove = ['parentId', 'parentType', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'];
      if (isHierarchyType(e.type)) {
        self.expectTotal = e.total ?? 0;
        for (const a of chain.slice(1)) plan.entity(a).total -= e.total ?? 0;
      }
      const work = workPut(ws, 'deleteEntity', id, { leaseUntil });
      plan.add(work.put);
      plan.add(rootTombstone(ws, e));
      return { items: plan.build(), result: { held: work.held, root: e } };
    },
    scope?.deadline,
  );
  if (!begun) await adoptDelete(ws, id, leaseUntil);
  try {
    await markGone(ws, id, until);
  } finally {
    // What is left (all of the clean-up, or more) is the sweeper's from now on.
    if (begun) await releaseWork(begun.held);
  }
}

/** The first tombstone chunk, the root alone (a key of its own, so writing it again changes nothing). */
const rootTombstone = (ws: string, root: Pick<EntityItem, 'id' | 'type'>) =>
  tombstonePut(ws, root.id, 0, [root.id], { customers: isCustomerType(root.type) ? [root.id] : [], chunk: root.id });

/**
 * Makes sure a delete that has begun has its pending work and its root's tombstone (a mark older
 * than them, adopted by a repeated DELETE or by verify --repair); new work is leased until `leaseUntil`.
 */
export async function adoptDelete(ws: string, rootId: string, leaseUntil = Date.now()): Promise<void> {
  const root = await readEntityItem(ws, rootId);
  if (!root?.deleting) return;
  await ensureWork(ws, 'deleteEntity', rootId, leaseUntil);
  await putItem(rootTombstone(ws, root).Put!);
}

/** What a marking pass needs of an entity, as an index or a read found it. */
interface Found {
  id: string;
  type: EntityType;
  /** The parent it was found under (the mark's condition). */
  parentId?: string;
  hadChildren?: boolean;
  deleting?: boolean;
}

const found = (it: Record<string, unknown>): Found => ({
  id: it.id as string,
  type: it.type as EntityType,
  ...(typeof it.parentId === 'string' ? { parentId: it.parentId } : {}),
  ...(typeof it.hadChildren === 'boolean' ? { hadChildren: it.hadChildren } : {}),
  ...(it.deleting ? { deleting: true } : {}),
});

/** The children of `parentId` as the children index (GSI2, eventually consistent) lists them. */
async function childrenOf(ws: string, parentId: string): Promise<Found[]> {
  const items = await queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': keys.childrenOf(ws, parentId) },
    ProjectionExpression: 'id, #t, parentId, hadChildren, deleting',
    ExpressionAttributeNames: { '#t': 'type' },
  });
  return items.map(found);
}

/** Whether children are worth looking for: a type that can have them, that may have had one. */
const mayHaveChildren = (e: Pick<Found, 'type' | 'hadChildren'>) => canHaveChildren(e.type) && e.hadChildren !== false;

/**
 * Runs `fn` over the items with at most `limit` at once. After a failure no worker takes another
 * item, and the first failure is thrown once every worker has stopped: a failed step leaves no
 * write still in flight behind it. Past `stopAt` (epoch ms) a worker takes no item beyond its first.
 */
async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>, stopAt = Infinity): Promise<void> {
  let i = 0;
  let failure: { error: unknown } | undefined;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (let first = true; !failure && i < items.length && (first || Date.now() < stopAt); first = false) {
        try {
          await fn(items[i++]!);
        } catch (error) {
          failure ??= { error };
        }
      }
    }),
  );
  if (failure) throw failure.error;
}

const chunksOf = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * Step 2: marks every descendant of the marked root that is not marked yet, level by level.
 * Answers the customers of the subtree (marked now or before): their notes are step 3's.
 */
async function markSubtree(ws: string, rootId: string, until: number, detail: () => string): Promise<string[]> {
  const root = await readEntityItem(ws, rootId);
  if (!root?.deleting) return [];
  const customers = isCustomerType(root.type) ? [rootId] : [];
  let level: Found[] = [found(root as unknown as Record<string, unknown>)];
  for (let depth = 1; level.length > 0; depth++) {
    const below: Found[] = [];
    await forEachLimited(level.filter(mayHaveChildren), PARALLEL, async (parent) => {
      inTime(until, detail);
      below.push(...(await childrenOf(ws, parent.id)));
    });
    // Marked ones (as the index shows them) only lead further down.
    for (const chunk of chunksOf(
      below.filter((c) => !c.deleting),
      TOMBSTONES_PER_CHUNK,
    ))
      await markChunk(ws, rootId, depth, chunk, until, detail);
    customers.push(...below.filter((c) => isCustomerType(c.type)).map((c) => c.id));
    level = below;
  }
  return customers;
}

/**
 * Marks the entities of `chunk` still under the parent they were found under, with their tombstone
 * chunk, in one transaction. A rebuilt attempt reads them again: one moved away before the root was
 * marked (the index had not caught up) is left out, one marked meanwhile needs nothing.
 */
async function markChunk(ws: string, rootId: string, level: number, chunk: readonly Found[], until: number, detail: () => string): Promise<void> {
  await orUnfinished(
    () =>
      transact(
        'markSubtree',
        async (attempt) => {
          let todo = chunk;
          if (attempt > 0) {
            const now = await batchGetByKey(
              chunk.map((c) => keys.entity(ws, c.id)),
              { consistent: true },
            );
            todo = chunk.filter((c) => {
              const item = now.get(itemKeyId(keys.entity(ws, c.id)));
              return item !== undefined && item.parentId === c.parentId && !item.deleting;
            });
          }
          if (todo.length === 0) return { items: [], result: undefined };
          const at = new Date().toISOString();
          const marks = todo.map((c) => ({
            Update: {
              TableName: tableName(),
              Key: keys.entity(ws, c.id),
              UpdateExpression: 'SET deleting = :at REMOVE gsi1pk, gsi1sk, gsi3pk, gsi3sk',
              ConditionExpression: 'attribute_exists(pk) AND parentId = :p AND attribute_not_exists(deleting)',
              ExpressionAttributeValues: { ':at': at, ':p': c.parentId },
            },
          }));
          const customers = todo.filter((c) => isCustomerType(c.type)).map((c) => c.id);
          return {
            items: [
              ...marks,
              tombstonePut(
                ws,
                rootId,
                level,
                todo.map((c) => c.id),
                { customers },
              ),
            ],
            result: undefined,
          };
        },
        until,
      ),
    detail,
  );
}

/** Step 3: every note of the customers loses its customer (their links count as anonymous from then on). */
async function clearCustomers(ws: string, customerIds: readonly string[], until: number, detail: () => string): Promise<void> {
  for (const customerId of customerIds) {
    inTime(until, detail);
    const notes = await queryAll({
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :p',
      ExpressionAttributeValues: { ':p': keys.notesOfCustomer(ws, customerId) },
      ProjectionExpression: 'id',
    });
    await forEachLimited(notes, PARALLEL, async (n) => {
      inTime(until, detail);
      // A note deleted meanwhile has no customer left to clear.
      await orUnfinished(
        () =>
          setNoteCustomer(ws, n.id as string, null, { onlyIf: customerId, scope: { deadline: until } }).catch((err: unknown) => {
            if (!(err instanceof NotFound)) throw err;
          }),
        detail,
      );
    });
  }
}

/**
 * Steps 2 and 3, then the root says so (`goneAt`): from then on the whole subtree is gone for every
 * reader, and a repeated DELETE is answered as any reader is (404).
 */
async function markGone(ws: string, rootId: string, until: number): Promise<void> {
  const detail = underWay(rootId);
  await clearCustomers(ws, await markSubtree(ws, rootId, until, detail), until, detail);
  try {
    await updateItem({
      TableName: tableName(),
      Key: keys.entity(ws, rootId),
      UpdateExpression: 'SET goneAt = if_not_exists(goneAt, :now)',
      ConditionExpression: 'attribute_exists(deleting)',
      ExpressionAttributeValues: { ':now': new Date().toISOString() },
    });
  } catch (err) {
    // Cleaned up already by a sweep that ran meanwhile.
    if (!isConditionFailed(err)) throw err;
  }
}

/** Chunks of one level cleaned together (about 1 000 entities): a note linked to several of them is updated once. */
const CHUNKS_AT_ONCE = 10;
/**
 * From this many entities on, their relations and ratings are read in one pass over the workspace's
 * items of that kind rather than a Query each: a page per megabyte instead of a round trip per
 * entity. Fewer are read entity by entity, so a small delete does not read a large workspace's.
 */
const PASS_FROM = 100;

/**
 * The clean-up of a subtree delete, from its pending work (see the top of this module): true once
 * nothing of the subtree is left but what others own (notes), Unfinished when `until` comes first.
 */
export async function finishEntityDelete(ws: string, rootId: string, until: number): Promise<boolean> {
  const detail = underWay(rootId);
  await markGone(ws, rootId, until);
  for (let chunks = await tombstonesOf(ws, rootId); chunks.length > 0; chunks = await tombstonesOf(ws, rootId)) {
    // Deepest first, so an entity outlives its children as long as it can; the chunks a straggler adds come in the next round.
    // A group left part-way is taken up again before any shallower one.
    for (const group of groupsByLevel(chunks)) if (!(await cleanChunks(ws, rootId, group, until, detail))) break;
  }
  return true;
}

/** Consecutive chunks of one level (they come deepest first), at most CHUNKS_AT_ONCE a group. */
function groupsByLevel(chunks: readonly TombstoneChunk[]): TombstoneChunk[][] {
  const groups: TombstoneChunk[][] = [];
  for (const chunk of chunks) {
    const last = groups.at(-1);
    if (last && last[0]!.level === chunk.level && last.length < CHUNKS_AT_ONCE) last.push(chunk);
    else groups.push([chunk]);
  }
  return groups;
}

/**
 * Chunks of one level: their entities read together and what refers to each of them; the links
 * taken out of their notes' copies, a note's links to all of them in one update; then the links,
 * ratings and relations deleted; then the entity items, then the chunks themselves (their ids are
 * hidden from readers until then). At most half the time left goes to reading, and what was read
 * is then cleaned: every run moves the clean-up on, however short its time. A chunk goes once all
 * of its entities have; true once all of them went.
 */
async function cleanChunks(ws: string, rootId: string, chunks: readonly TombstoneChunk[], until: number, detail: () => string): Promise<boolean> {
  inTime(until, detail);
  const ids = chunks.flatMap((c) => c.ids);
  const level = chunks[0]!.level;
  const entities = await readEntityItems(ws, ids);
  const relations = entities.size >= PASS_FROM ? await relationsOfAny(ws, new Set(entities.keys())) : undefined;
  const readUntil = Date.now() + (until - Date.now()) / 2;
  const handled = new Set(ids.filter((id) => !entities.has(id)));
  const found: EntityRefs[] = [];
  await forEachLimited(
    [...entities.values()],
    PARALLEL,
    async (e) => {
      const refs = await referencesOf(ws, rootId, level, e, relations ? (relations.get(e.id) ?? []) : await relationsOf(ws, e.id), until, detail);
      if (refs) found.push(refs);
      handled.add(e.id);
    },
    readUntil,
  );
  // The links leave the notes' copies before they go (lib/store/note-link-copy.ts).
  await uncopyLinks(ws, found, until, detail);
  const ratings = await ratingsOfAll(
    ws,
    found.map((r) => r.id),
    until,
    detail,
  );
  await batchWriteAll(
    [...found.flatMap((r) => r.deletes), ...ratings].map((Key) => ({ DeleteRequest: { Key } })),
    PARALLEL,
  );
  await batchWriteAll(
    [...entities.keys()].filter((id) => handled.has(id)).map((id) => ({ DeleteRequest: { Key: keys.entity(ws, id) } })),
    PARALLEL,
  );
  const done = chunks.filter((c) => c.ids.every((id) => handled.has(id)));
  if (done.length > 0) await batchWriteAll(done.map((c) => ({ DeleteRequest: { Key: c.key } })));
  return done.length === chunks.length;
}

/** What refers to one marked entity: its links (by note) and the items to delete (links, ratings, both sides of relations). */
interface EntityRefs {
  id: string;
  noteIds: string[];
  deletes: ItemKey[];
}

/**
 * What refers to one marked entity `e` (as read), but the notes themselves; undefined for a
 * customer, whose references are cleared here.
 */
async function referencesOf(
  ws: string,
  rootId: string,
  level: number,
  e: EntityItem,
  relations: readonly RelationItem[],
  until: number,
  detail: () => string,
): Promise<EntityRefs | undefined> {
  inTime(until, detail);
  const id = e.id;
  // Children the marking missed (the index lagged behind a create or a move just before the root was marked).
  if (mayHaveChildren(e)) {
    const stray = (await childrenOf(ws, id)).filter((c) => !c.deleting);
    for (const chunk of chunksOf(stray, TOMBSTONES_PER_CHUNK)) await markChunk(ws, rootId, level + 1, chunk, until, detail);
  }
  if (isCustomerType(e.type)) {
    await clearCustomers(ws, [id], until, detail);
    const email = customerEmailOf(e);
    if (email !== undefined) await batchWriteAll([{ DeleteRequest: { Key: keys.customerEmail(ws, email, id) } }]);
    return undefined;
  }
  const links = await queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': keys.linksTo(ws, id) },
    ProjectionExpression: 'pk, sk, noteId',
  });
  const linkKeys: ItemKey[] = links.map((it) => ({ pk: it.pk as string, sk: it.sk as string }));
  return {
    id,
    noteIds: links.map((l) => l.noteId as string),
    // Both sides of each relation (link, isBlockedBy, isBlocking): the other entity may live on.
    deletes: [...linkKeys, ...relations.flatMap((r) => relationDeletes(ws, r))],
  };
}

/**
 * The rating items of the marked entities, read consistently (a marked entity's ratings no longer
 * change: lib/store/aggregates.ts, planLinkChange). Their links' cached customers cannot name them:
 * a note whose customer changed after an entity was marked leaves the rating where the aggregates
 * last put it.
 */
async function ratingsOfAll(ws: string, ids: readonly string[], until: number, detail: () => string): Promise<ItemKey[]> {
  const key = (it: StoredItem): ItemKey => ({ pk: it.pk as string, sk: it.sk as string });
  const out: ItemKey[] = [];
  if (ids.length >= PASS_FROM) {
    const wanted = new Set(ids);
    for await (const page of partitionPages(ws, keys.kindPrefix.rating, ['pk', 'sk'])) {
      inTime(until, detail);
      for (const it of page) if (wanted.has(keys.ratingEntityId(it.sk as string))) out.push(key(it));
    }
    return out;
  }
  await forEachLimited(ids, PARALLEL, async (id) => {
    inTime(until, detail);
    const items = await partitionItems(ws, keys.ratingsOfEntityPrefix(id), ['pk', 'sk']);
    out.push(...items.map(key));
  });
  return out;
}

/** Links one update takes out of a note's copy: its REMOVE names them all, and an update expression is at most 4 KB. */
const UNCOPY_PER_UPDATE = 200;

/**
 * Takes the entities out of their notes' copies: one update per note (all of its links to them, in
 * rounds of UNCOPY_PER_UPDATE for a note with more), 100 notes per transaction (a note gone
 * meanwhile is left out). Within a round each note is in one transaction only, so the transactions
 * cannot conflict with one another.
 */
async function uncopyLinks(ws: string, found: readonly EntityRefs[], until: number, detail: () => string): Promise<void> {
  const byNote = new Map<string, string[]>();
  for (const r of found) for (const n of r.noteIds) byNote.set(n, [...(byNote.get(n) ?? []), r.id]);
  while (byNote.size > 0) {
    const updates = [...byNote].map(([n, entityIds]): [string, string[]] => [n, entityIds.slice(0, UNCOPY_PER_UPDATE)]);
    for (const [n, entityIds] of byNote) {
      if (entityIds.length > UNCOPY_PER_UPDATE) byNote.set(n, entityIds.slice(UNCOPY_PER_UPDATE));
      else byNote.delete(n);
    }
    await forEachLimited(chunksOf(updates, MAX_TX_ITEMS), UNCOPY_PARALLEL, (batch) =>
      orUnfinished(
        () =>
          transact(
            'uncopyLinks',
            async (attempt) => {
              let todo = batch;
              if (attempt > 0) {
                const now = await batchGetByKey(
                  batch.map(([n]) => keys.note(ws, n)),
                  { consistent: true, projection: { expression: '#pk, #sk', names: { '#pk': 'pk', '#sk': 'sk' } } },
                );
                todo = batch.filter(([n]) => now.has(itemKeyId(keys.note(ws, n))));
              }
              return { items: todo.map(([n, entityIds]) => uncopyLinksOf(ws, n, entityIds)), result: undefined };
            },
            until,
          ),
        detail,
      ),
    );
  }
}
