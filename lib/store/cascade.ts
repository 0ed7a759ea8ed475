// Deleting an entity with its whole subtree, in exact idempotent steps:
//   1. one transaction marks the root `deleting` and detaches it: its parent link is removed and its
//      total leaves every ancestor (conditioned like any hierarchy change). From here the root is gone
//      for readers, and no write can reach the subtree (link creates and moves check every ancestor).
//   2. every descendant is marked `deleting` (top-down; each mark is idempotent). Until marked, a
//      descendant still answers with its own, untouched — so still exact — subtree score.
//   3. notes whose customer is a deleted user/company lose that customer (ratings become anonymous).
//   4. items go bottom-up: an entity's links, rating items and relations (both sides), a user's
//      e-mail look-up, then the entity itself. Marked entities are invisible, so their aggregates
//      no longer matter.
// A crash anywhere leaves marked items that a repeated DELETE or `admin score verify --repair`
// finishes. Steps run by up to 16 workers at once; when one fails, the others take no further item
// and the delete fails only once all of them have stopped, so nothing is still writing after it.
import { Plan } from './aggregates.ts';
import { batchWriteAll } from './batch.ts';
import { deleteItem, updateItem } from './calls.ts';
import { customerEmailOf } from './customers.ts';
import { readChain, readEntityItem, subtree, type EntityItem } from './entities.ts';
import { isConditionFailed } from './errors.ts';
import type { WriteScope } from './idempotency.ts';
import * as keys from './keys.ts';
import type { ItemKey } from './keys.ts';
import { copyLinkNow } from './note-link-copy.ts';
import { setNoteCustomer } from './notes.ts';
import { queryAll } from './query.ts';
import { relationDeletes, relationsOf } from './relations.ts';
import { tableName } from './table.ts';
import { transact } from './tx.ts';
import { NotFound, PreconditionFailed } from '../domain/errors.ts';
import { isCustomerType, isHierarchyType } from '../domain/hierarchy.ts';
import { outcome, settle } from '../settle.ts';

/**
 * The points where a cascade can stop half-way, in order: `detached` (the root, step 1), `marking`
 * (each descendant marked), `marked` (all of them), then per entity bottom-up: `customerCleared`
 * (each note of a deleted customer cleared), `cleared` (its links and ratings gone), `deleted`.
 */
export type CascadeStep = 'detached' | 'marking' | 'marked' | 'customerCleared' | 'cleared' | 'deleted';

/** Test hook: called at each step with the entity it concerns; throwing simulates a crash there. */
export const cascadeHooks: { afterStep?: (step: CascadeStep, entityId: string) => void } = {};
const step = (name: CascadeStep, id: string) => cascadeHooks.afterStep?.(name, id);

/**
 * Deletes an entity and its subtree. Asked again for an entity whose delete stopped half-way
 * (a timeout or crash after step 1), it finishes that delete. `versions`: the request's If-Match
 * (lib/domain/etag.ts), when it sent one: the root must be at one of them, and step 1 conditions on
 * that version, so a change in between makes the rebuild from a fresh read answer 412. Step 1 leaves
 * `updatedAt` alone, so a retry with the same If-Match finishes a delete that stopped half-way.
 */
export async function deleteEntity(ws: string, id: string, versions?: string[], scope?: WriteScope): Promise<void> {
  const resume = await transact('deleteEntity', async () => {
    const { chain, complete } = await readChain(ws, id);
    const e = chain[0];
    const stale = (root: EntityItem) => versions !== undefined && !versions.includes(root.updatedAt);
    if (e?.deleting) {
      if (stale(e)) throw new PreconditionFailed('entity', id);
      return { items: [], result: true };
    }
    if (!e || !complete || chain.some((x) => x.deleting)) throw new NotFound('entity', id);
    if (stale(e)) throw new PreconditionFailed('entity', id);
    const plan = new Plan(ws);
    const self = plan.entity(e);
    self.set = { deleting: new Date().toISOString(), ...(e.parentId ? { deletedFrom: e.parentId } : {}) };
    if (versions) self.expectVersion = e.updatedAt;
    self.remove = ['parentId', 'parentType', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'];
    if (isHierarchyType(e.type)) {
      self.expectTotal = e.total ?? 0;
      for (const a of chain.slice(1)) plan.entity(a).total -= e.total ?? 0;
    }
    return { items: plan.build(), result: false };
  }, scope?.deadline);
  if (!resume) step('detached', id);
  await finishEntityDelete(ws, id, scope);
}

/**
 * Runs `fn` over the items with at most `limit` at once. After a failure no worker takes another
 * item, and the first failure is thrown once every worker has stopped: a failed step leaves no
 * write still in flight behind it.
 */
async function forEachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  let failure: { error: unknown } | undefined;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (!failure && i < items.length) {
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

/** The keys of the items a Query finds (projected to pk and sk). */
async function keysOf(input: Parameters<typeof queryAll>[0]): Promise<ItemKey[]> {
  const items = await queryAll({ ...input, ProjectionExpression: 'pk, sk' });
  return items.map((it) => ({ pk: it.pk as string, sk: it.sk as string }));
}


/** Steps 2–4 for the subtree under a marked root (idempotent; safe to run again after a crash). */
export async function finishEntityDelete(ws: string, rootId: string, scope?: WriteScope): Promise<void> {
  const { ids, levels } = await subtree(ws, rootId);
  const now = new Date().toISOString();
  await forEachLimited(ids.slice(1), 16, async (id) => {
    try {
      await updateItem({
        TableName: tableName(),
        Key: keys.entity(ws, id),
        UpdateExpression: 'SET deleting = if_not_exists(deleting, :now) REMOVE gsi1pk, gsi1sk, gsi3pk, gsi3sk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now },
      });
    } catch (err) {
      if (!(isConditionFailed(err))) throw err;
    }
    step('marking', id);
  });
  step('marked', rootId);
  // Deepest level first, so a crash never leaves an entity whose parent item is already gone.
  for (const level of [...levels].reverse()) await forEachLimited(level, 16, (id) => removeEntityItems(ws, id, scope));
}

async function removeEntityItems(ws: string, id: string, scope: WriteScope | undefined): Promise<void> {
  const e = await readEntityItem(ws, id);
  if (!e) return;
  if (isCustomerType(e.type)) {
    const notes = await queryAll({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': keys.notesOfCustomer(ws, id) }, ProjectionExpression: 'id' });
    for (const n of notes) {
      // A note deleted meanwhile has no customer left to clear.
      await setNoteCustomer(ws, n.id as string, null, { onlyIf: id, scope }).catch((err: unknown) => {
        if (!(err instanceof NotFound)) throw err;
      });
      step('customerCleared', id);
    }
    const email = customerEmailOf(e);
    if (email !== undefined) await batchWriteAll([{ DeleteRequest: { Key: keys.customerEmail(ws, email, id) } }]);
  } else {
    // The links leave the notes' copies before they go (lib/store/note-link-copy.ts): a crash between
    // hides a link whose entity is going anyway. That, the ratings and the relations go out together;
    // every one has settled before a failure is thrown, so no write is left in flight behind it.
    const uncopied = queryAll({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': keys.linksTo(ws, id) }, ProjectionExpression: 'pk, sk, noteId' }).then(async (linked) => {
      await forEachLimited(linked, 16, (l) => copyLinkNow(ws, l.noteId as string, id));
      return linked.map((it) => ({ pk: it.pk as string, sk: it.sk as string }));
    });
    const [linksRead, ratingsRead, relationsRead] = await Promise.all([
      settle(uncopied),
      settle(keysOf({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': keys.ratingsOfEntityPrefix(id) }, ConsistentRead: true })),
      // Both sides of each relation (link, isBlockedBy, isBlocking): the other entity may live on.
      settle(relationsOf(ws, id)),
    ]);
    const relations = outcome(relationsRead).flatMap((r) => relationDeletes(ws, r));
    await batchWriteAll([...outcome(linksRead), ...outcome(ratingsRead), ...relations].map((Key) => ({ DeleteRequest: { Key } })));
  }
  step('cleared', id);
  await deleteItem({ TableName: tableName(), Key: keys.entity(ws, id) });
  step('deleted', id);
}
