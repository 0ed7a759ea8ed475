// Notes, their customer and their links. Each change is one transaction that also carries the
// rating items and aggregate deltas (lib/store/aggregates.ts). Fan-out bound: a note whose change
// needs more than one transaction's items (many links, deep hierarchy) is changed in steps — first
// the note itself with a pending-work item saying what remains (lib/store/work.ts), then the links in
// transactions of as many as one holds — each step exact on its own and idempotent; the request
// carries the steps on, and the sweeper finishes them after a crash or a timeout (lib/store/sweep.ts).
import { randomUUID } from 'node:crypto';
import { Plan, planLinkChange, toLink, type LinkItem } from './aggregates.ts';
import { deleteItem, getItem } from './calls.ts';
import { targetChain, targetChains, type TargetChain } from './chains.ts';
import { readChain, readEntityItem, type Placement } from './entities.ts';
import { isConditionFailed } from './errors.ts';
import { RECORD_ITEMS, transactOnce, type WriteScope } from './idempotency.ts';
import * as keys from './keys.ts';
import { copyAttributes, copyUpdate, MAX_COPIED_LINKS, readCopy, uncopyLink, type CopiedLink } from './note-link-copy.ts';
import { prereadFor, readAhead, type Prereads, type ReadAhead } from './preread.ts';
import { partitionItems, type StoredItem } from './query.ts';
import { queued } from './queue.ts';
import { recordUpdate, type RecordChange } from './record-update.ts';
import { tableName } from './table.ts';
import { MAX_TX_ITEMS, transact, type TxItem } from './tx.ts';
import { carryOn, earlierWork, finishEarlier, inTime, orUnfinished, readWork, workPut, type HeldWork } from './work.ts';
import { LAMBDA_EXTRA_MS } from '../config.ts';
import { deadlineOf } from '../deadline.ts';
import { Conflict, InvalidInput, NotFound, pointer, PreconditionFailed, type InputLocation, type Path } from '../domain/errors.ts';
import { versionOf } from '../domain/etag.ts';
import { aType, isCustomerType, isHierarchyType, type CustomerType } from '../domain/hierarchy.ts';
import { invalid } from '../domain/input.ts';
import type { Metadata } from '../domain/metadata.ts';
import type { StoredNote } from '../domain/note-view.ts';
import type { NoteType } from '../domain/schemas/note.ts';
import type { Importance } from '../domain/score.ts';
import { outcome, settle } from '../settle.ts';

export interface NoteItem extends StoredNote {
  deleting?: string;
  /** Bumped by every new link, so a whole-note change (customer, delete) notices a link it did not read. */
  linkRev?: number;
  /** The note's links as copied on its item, by entity id (lib/store/note-link-copy.ts), when it has a complete copy. */
  linkCopy?: CopiedLink[];
}

/** The note's version (its ETag, lib/domain/etag.ts): its fields' `updatedAt` and the links added since it was created. */
export const noteVersion = (note: NoteItem): string => versionOf(note.updatedAt, note.linkRev);

interface CustomerRef {
  id: string;
  type: CustomerType;
}

/** A note item as the store wrote it (lib/store/keys.ts note), typed; `kind` is checked by the reader. */
export function toNote(item: StoredItem): NoteItem {
  const n = item as Partial<NoteItem>;
  return {
    id: n.id!,
    type: n.type!,
    fields: n.fields ?? {},
    ...(n.customer ? { customer: { id: n.customer.id, type: n.customer.type } } : {}),
    ...(n.metadata ? { metadata: n.metadata } : {}),
    createdAt: n.createdAt!,
    updatedAt: n.updatedAt!,
    ...(n.deleting ? { deleting: n.deleting } : {}),
    ...(typeof n.linkRev === 'number' ? { linkRev: n.linkRev } : {}),
    ...withCopy(readCopy(item)),
  };
}

const withCopy = (linkCopy: CopiedLink[] | undefined) => (linkCopy ? { linkCopy } : {});

export const isNoteItem = (item: StoredItem | undefined): item is StoredItem => item?.kind === 'note';

async function readNoteItem(ws: string, id: string, preread?: Prereads): Promise<NoteItem | undefined> {
  const key = keys.note(ws, id);
  const { Item } = prereadFor(preread, key) ?? (await getItem({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return isNoteItem(Item) ? toNote(Item) : undefined;
}

export async function getNote(ws: string, id: string, preread?: Prereads): Promise<NoteItem | undefined> {
  const n = await readNoteItem(ws, id, preread);
  return n && !n.deleting ? n : undefined;
}

async function liveNote(ws: string, id: string): Promise<NoteItem> {
  const n = await getNote(ws, id);
  if (!n) throw new NotFound('note', id);
  return n;
}

/** A note's links (consistent Query on the note's link prefix). */
async function noteLinks(ws: string, noteId: string): Promise<LinkItem[]> {
  const items = await partitionItems(ws, keys.linksOfNotePrefix(noteId));
  return items.map(toLink);
}

async function readLink(ws: string, noteId: string, entityId: string, preread?: Prereads): Promise<LinkItem | undefined> {
  const key = keys.link(ws, noteId, entityId);
  const { Item } = prereadFor(preread, key) ?? (await getItem({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return Item ? toLink(Item) : undefined;
}

/**
 * The note still has the customer that was read and is not being deleted; `links`, the new links
 * and re-rates as written, bump linkRev by the number of new ones (`newLinks`) and go into the
 * note's copy of its links when it has one.
 */
function noteCheck(ws: string, note: NoteItem, options: { newLinks: number; links?: readonly CopiedLink[] }): TxItem {
  const condition = note.customer
    ? 'attribute_exists(pk) AND attribute_not_exists(deleting) AND customer.id = :c'
    : 'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(customer)';
  const values: Record<string, unknown> = note.customer ? { ':c': note.customer.id } : {};
  const names: Record<string, string> = {};
  const copy = note.linkCopy && options.links?.length ? copyUpdate(note.linkCopy, options.links, names, values) : {};
  const sets = [...(options.newLinks > 0 ? ['linkRev = if_not_exists(linkRev, :zero) + :added'] : []), ...(copy.set ? [copy.set] : [])];
  if (options.newLinks > 0) Object.assign(values, { ':zero': 0, ':added': options.newLinks });
  if (sets.length || copy.remove) {
    return {
      Update: {
        TableName: tableName(),
        Key: keys.note(ws, note.id),
        UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', copy.remove ? `REMOVE ${copy.remove}` : ''].filter(Boolean).join(' '),
        ConditionExpression: condition,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      },
    };
  }
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.note(ws, note.id),
      ConditionExpression: condition,
      ...(note.customer ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

/** Condition: no link was added to the note since it was read. */
const sameLinks = (note: NoteItem, values: Record<string, unknown>) => {
  if (note.linkRev === undefined) return 'attribute_not_exists(linkRev)';
  values[':linkRev'] = note.linkRev;
  return 'linkRev = :linkRev';
};

const liveEntityCheck = (ws: string, id: string): TxItem => ({
  ConditionCheck: { TableName: tableName(), Key: keys.entity(ws, id), ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)' },
});

/** A customer target: a live user or company of this workspace (NotFound otherwise; InvalidInput on a type mismatch). */
async function checkCustomer(ws: string, target: { id: string; type?: string | undefined }, path: Path, preread?: Prereads): Promise<CustomerRef> {
  const e = await readEntityItem(ws, target.id, preread);
  if (!e || e.deleting) throw new NotFound('customer', target.id, undefined, pointer([...path, 'id']));
  if (!isCustomerType(e.type)) invalid([...path, 'id'], `Entity ${target.id} is ${aType(e.type)}; a customer is a user or a company.`);
  if (target.type !== undefined && target.type !== e.type) invalid([...path, 'type'], `Entity ${target.id} is ${aType(e.type)}, not ${aType(target.type)}.`);
  return { id: e.id, type: e.type };
}

/** Where a request names a link's target: the id's path in the body, or a parameter (the route's own path). */
type TargetAt = Path | InputLocation;
const locate = (at: TargetAt): InputLocation => ('length' in at ? (at.length > 0 ? pointer(at) : {}) : at);

/**
 * A link target, from its chain as read: a live hierarchy entity with live ancestors, of the type
 * the request says when it says one (`at` is the target id's; a wrong type is refused at its sibling `type`).
 */
function liveLinkTarget(entityId: string, { chain, complete }: Pick<TargetChain, 'chain' | 'complete'>, at: TargetAt, expectedType?: string): Placement[] {
  if (chain.length === 0 || !complete || chain.some((e) => e.deleting)) throw new NotFound('entity', entityId, undefined, locate(at));
  const actual = chain[0]!.type;
  if (expectedType !== undefined && expectedType !== actual && 'length' in at)
    invalid([...at.slice(0, -1), 'type'], `Entity ${entityId} is ${aType(actual)}, not ${aType(expectedType)}.`);
  if (!isHierarchyType(actual))
    throw new InvalidInput(`Entity ${entityId} is ${aType(actual)}; a link targets a product, component, feature or subfeature.`, locate(at));
  return chain;
}

/** The linked entity's chain for a change that only moves or removes a rating: undefined when the entity is gone. */
async function existingChain(ws: string, entityId: string): Promise<Placement[] | undefined> {
  const { chain } = await readChain(ws, entityId);
  return chain.length ? chain : undefined;
}

/**
 * A note's stored item. Also for bulk loading raw notes (bench, tests): `name` is a shortcut for
 * `fields.name`, type defaults to textNote and updatedAt to createdAt.
 */
export function noteItem(
  ws: string,
  n: {
    id: string;
    type?: string;
    fields?: Record<string, unknown>;
    name?: string;
    customer?: CustomerRef | undefined;
    metadata?: Metadata | undefined;
    createdAt: string;
    updatedAt?: string;
  },
  links?: readonly CopiedLink[],
): Record<string, unknown> {
  const fields = n.fields ?? (n.name !== undefined ? { name: n.name } : {});
  return {
    ...keys.note(ws, n.id),
    kind: 'note',
    id: n.id,
    type: n.type ?? 'textNote',
    fields,
    ...(n.customer
      ? {
          customer: { id: n.customer.id, type: n.customer.type },
          gsi2pk: keys.notesOfCustomer(ws, n.customer.id),
          gsi2sk: keys.listPosition(n.createdAt, n.id),
        }
      : {}),
    ...(n.metadata ? { metadata: n.metadata } : {}),
    createdAt: n.createdAt,
    updatedAt: n.updatedAt ?? n.createdAt,
    gsi1pk: keys.notesOf(ws),
    gsi1sk: keys.listPosition(n.createdAt, n.id),
    ...keys.ownerIndex(ws, 'note', { id: n.id, createdAt: n.createdAt, fields }),
    ...(links ? copyAttributes(links) : {}),
  };
}

export interface NewLink {
  entityId: string;
  /** The type the request says the entity has, if it says one. */
  entityType?: string | undefined;
  importance: Importance;
  /** Where the target id is in the request. */
  path: Path;
}

/**
 * Creates a note with its customer and links in one transaction. `ahead`: the first attempt's reads
 * (lib/store/record-names.ts `newNoteRecords`); a rebuilt attempt reads everything afresh, the chains above the targets too.
 */
export async function createNote(
  ws: string,
  input: {
    type: NoteType;
    values: Record<string, unknown>;
    metadata?: Metadata | undefined;
    customer?: { id: string; type?: string | undefined; path: Path };
    links: NewLink[];
  },
  ahead?: ReadAhead,
  scope?: WriteScope,
): Promise<NoteItem> {
  const id = randomUUID();
  const until = deadlineOf(Date.now(), scope?.deadline);
  let stepwise: HeldWork | undefined;
  // With an Idempotency-Key, a retry answers the first request's note (lib/store/idempotency.ts).
  const note = await transactOnce(
    'createNote',
    async (attempt) => {
      const pre = attempt === 0 ? ahead : undefined;
      // Whatever was not read ahead goes out at once: the customer, each link target's chain. Their
      // verdicts are still taken in that order.
      const [customerRead, reads] = await Promise.all([
        input.customer ? settle(checkCustomer(ws, input.customer, input.customer.path, pre)) : undefined,
        targetChains(
          ws,
          input.links.map((l) => l.entityId),
          { preread: pre, fresh: attempt > 0 },
        ),
      ]);
      const customer = customerRead && outcome(customerRead);
      const now = new Date().toISOString();
      const note: NoteItem = {
        id,
        type: input.type,
        fields: input.values,
        ...(customer ? { customer } : {}),
        ...(input.metadata ? { metadata: input.metadata } : {}),
        createdAt: now,
        updatedAt: now,
      };
      const chains = input.links.map((l, i) => liveLinkTarget(l.entityId, reads[i]!, l.path, l.entityType));
      // The note carries the copy of its links; stepwise, each link's own step adds its part.
      const base = (links: CopiedLink[] | undefined) => {
        const plan = new Plan(ws);
        plan.add({ Put: { TableName: tableName(), Item: noteItem(ws, note, links), ConditionExpression: 'attribute_not_exists(pk)' } });
        if (customer) plan.add(liveEntityCheck(ws, customer.id));
        return plan;
      };
      let plan = base(input.links.map((l, i) => ({ entityId: l.entityId, entityType: chains[i]![0]!.type, importance: l.importance })));
      for (const [i, l] of input.links.entries()) {
        const chain = chains[i]!;
        await planLinkChange(ws, plan, {
          noteId: id,
          entityId: l.entityId,
          entityType: chain[0]!.type,
          chain,
          after: { customerId: customer?.id, importance: l.importance },
          preread: pre,
        });
        if (reads[i]!.cached) plan.checkChain(chain);
      }
      stepwise = undefined;
      if (plan.size > MAX_TX_ITEMS - RECORD_ITEMS) {
        // Too big for one transaction: the note first, with the links still to make as pending work, then the links in steps.
        plan = base(input.links.length > MAX_COPIED_LINKS ? undefined : []);
        const work = workPut(ws, 'noteLinks', id, { leaseUntil: until + LAMBDA_EXTRA_MS, links: input.links.map((l) => [l.entityId, l.importance]) });
        plan.add(work.put);
        stepwise = work.held;
      }
      return { items: plan.build(), result: note, steps: stepwise !== undefined };
    },
    scope,
    // A duplicate of a create whose links are still being made answers once they are (or as the first one did).
    async (first) => ((await readWork(ws, 'noteLinks', first.id)) ? linksUnderWay(first.id, input.links.length) : undefined),
  );
  // A replayed note (another id) had its links made by its first request, or by the pending work it left.
  if (stepwise && note.id === id) {
    await carryOn(stepwise, () =>
      finishNoteLinks(
        ws,
        id,
        input.links.map((l) => [l.entityId, l.importance]),
        until,
      ),
    );
  }
  return note;
}

/** Links a step of a note's fan-out reads at once: more than one transaction can take (each link adds at least its own item and its entity's). */
const STEP_LINKS = 50;

/**
 * What a step of a note's fan-out reads in one go: the links as they are now, their targets and the
 * ratings of them by the links' customers and `ratedBy` (one BatchGetItem), the chains above the
 * targets (lib/store/chains.ts targetChains).
 */
async function readSteps(
  ws: string,
  noteId: string,
  links: ReadonlyArray<{ entityId: string; customerId?: string | undefined }>,
  attempt: number,
  ratedBy?: string,
) {
  const raters = [...new Set([ratedBy, ...links.map((l) => l.customerId)].filter((c): c is string => c !== undefined))];
  const entityIds = links.map((l) => l.entityId);
  const ahead = await readAhead(entityIds.flatMap((id) => [keys.link(ws, noteId, id), keys.entity(ws, id), ...raters.map((c) => keys.rating(ws, id, c))]));
  const targets = await targetChains(ws, entityIds, { preread: ahead, fresh: attempt > 0 });
  return { ahead, targets };
}

/** Whether one more link change fits the transaction: its link item, `ratings` rating items, the entities of its chain not in it yet, and `reserve` items still to come. */
const fits = (plan: Plan, chain: readonly Placement[] | undefined, ratings: number, reserve = 0) =>
  plan.size + 1 + ratings + (chain ?? []).filter((e) => !plan.touches(e.id)).length + reserve <= MAX_TX_ITEMS;

/** What a step answers when nothing is left to do at all (the note is gone). */
const ALL_DONE = Number.POSITIVE_INFINITY;

/**
 * Works through `todo` in transactions (lib/store/tx.ts, rebuilt from fresh reads on a conflict):
 * `step` plans what it can of the first STEP_LINKS left and answers how many of them it is done with
 * (ALL_DONE: the rest too). A step contended near the deadline leaves the rest to the pending work:
 * Unfinished (`detail`), never a 429 saying nothing changed; so does `until` coming first.
 */
async function inSteps<T>(
  label: string,
  todo: readonly T[],
  until: number,
  detail: () => string,
  step: (batch: readonly T[], attempt: number) => Promise<{ items: TxItem[]; result: number }>,
): Promise<void> {
  for (let left = todo; left.length > 0;) {
    inTime(until, detail);
    const batch = left.slice(0, STEP_LINKS);
    const done = await orUnfinished(() => transact(label, (attempt) => step(batch, attempt), until), detail);
    // One change always fits an empty transaction: a step that took none would never end.
    if (done < 1) throw new Error(`${label}: a step took none of ${batch.length}`);
    left = left.slice(done);
  }
}

/** What a note's creation answers while links it asked for are still being made. */
const linksUnderWay = (noteId: string, links: number) => `Note ${noteId} was created; ${links} links are being added to it and follow without another request.`;

/**
 * The links a note's creation still has to make (its pending work), in transactions of as many as
 * one holds: each link as a client's would be made, the note's revision and copy updated once per
 * transaction. A link that exists already (made by an earlier run, or by a client since) or whose
 * target is gone or refuses it now is done. True once every link is; Unfinished when `until` comes first.
 */
export async function finishNoteLinks(ws: string, noteId: string, links: ReadonlyArray<readonly [string, Importance]>, until: number): Promise<boolean> {
  const made = new Set((await noteLinks(ws, noteId)).map((l) => l.entityId));
  const detail = () => linksUnderWay(noteId, links.length);
  await inSteps(
    'finishNoteLinks',
    links.filter(([entityId]) => !made.has(entityId)),
    until,
    detail,
    async (batch, attempt) => {
      // The note deleted meanwhile: nothing is left to do.
      const note = await getNote(ws, noteId);
      if (!note) return { items: [], result: ALL_DONE };
      const { ahead, targets } = await readSteps(
        ws,
        noteId,
        batch.map(([entityId]) => ({ entityId })),
        attempt,
        note.customer?.id,
      );
      const plan = new Plan(ws);
      const written: CopiedLink[] = [];
      let taken = 0;
      for (const [i, [entityId, importance]] of batch.entries()) {
        // Named twice: made once.
        if (written.some((l) => l.entityId === entityId)) {
          taken++;
          continue;
        }
        let chain: Placement[];
        try {
          chain = liveLinkTarget(entityId, targets[i]!, []);
        } catch (err) {
          if (!(err instanceof NotFound || err instanceof InvalidInput)) throw err;
          taken++;
          continue;
        }
        if (await readLink(ws, noteId, entityId, ahead)) {
          taken++;
          continue;
        }
        // The note's own update comes last.
        if (!fits(plan, chain, note.customer ? 1 : 0, 1)) break;
        taken++;
        try {
          const link = await planLinkChange(ws, plan, {
            noteId,
            entityId,
            entityType: chain[0]!.type,
            chain,
            after: { customerId: note.customer?.id, importance },
            preread: ahead,
          });
          written.push(link!);
        } catch (err) {
          // Refused before it planned anything (a customer's cap of notes rating one entity).
          if (!(err instanceof InvalidInput)) throw err;
          continue;
        }
        if (targets[i]!.cached) plan.checkChain(chain);
      }
      if (written.length === 0) return { items: [], result: taken };
      plan.add(noteCheck(ws, note, { newLinks: written.length, links: written }));
      return { items: plan.build(), result: taken };
    },
  );
  return true;
}

/** A change of a note's fields (null clears one) and metadata (merged key by key). */
type NoteChange = RecordChange;

/**
 * Updates a live note: `change` gets the note as read now (patch operations apply to these values).
 * Conditioned on the `updatedAt` it read (rebuilt from a fresh read when another write got there
 * first); keeps the owner index in step. Links and the customer are not touched, so the score is not.
 * `versions`: the request's If-Match (lib/domain/etag.ts), when it sent one.
 */
export async function updateNote(
  ws: string,
  id: string,
  change: (current: NoteItem) => NoteChange | Promise<NoteChange>,
  versions?: string[],
  scope?: WriteScope,
): Promise<NoteItem> {
  return transact(
    'updateNote',
    async () => {
      const note = await liveNote(ws, id);
      if (versions && !versions.includes(noteVersion(note))) throw new PreconditionFailed('note', id, versions);
      // With If-Match, a link added since the read changes the version too.
      const values: Record<string, unknown> = {};
      const links = versions ? ` AND ${sameLinks(note, values)}` : '';
      const { updated, item } = recordUpdate(ws, 'note', keys.note(ws, id), note, await change(note), {
        expression: `attribute_exists(pk) AND attribute_not_exists(deleting)${links}`,
        values,
      });
      return { items: [item], result: updated };
    },
    scope?.deadline,
  );
}

/**
 * Creates a link or re-rates it (its rating becomes the latest of the note's customer on the entity).
 * `create`: an existing link is a Conflict. `preread`: the note, when the route prefetched it.
 */
export async function upsertLink(
  ws: string,
  noteId: string,
  entityId: string,
  importance: Importance,
  options: { create: boolean; path: TargetAt; entityType?: string | undefined; preread?: Prereads | undefined; scope?: WriteScope | undefined },
): Promise<{ created: boolean; link: LinkItem }> {
  return queued(`${ws}/${noteId}`, () =>
    transactOnce(
      'upsertLink',
      async (attempt) => {
        // The first attempt takes the note the route prefetched with the credential; then one
        // BatchGetItem reads the rest (the note when it was not prefetched, the link, the target, the
        // customer's rating of the target) and the chain above the target comes from lib/store/chains.ts.
        // Failures are still reported in the order a client expects.
        const prefetched = attempt === 0 ? options.preread : undefined;
        const noteKey = keys.note(ws, noteId);
        const notePrefetched = prereadFor(prefetched, noteKey) !== undefined;
        const known = notePrefetched ? await getNote(ws, noteId, prefetched) : undefined;
        const ahead = await readAhead([
          ...(notePrefetched ? [] : [noteKey]),
          keys.link(ws, noteId, entityId),
          keys.entity(ws, entityId),
          ...(known?.customer ? [keys.rating(ws, entityId, known.customer.id)] : []),
        ]);
        const note = notePrefetched ? known : await getNote(ws, noteId, ahead);
        if (!note) throw new NotFound('note', noteId);
        // The target first: a link to an entity being deleted waits for the sweeper, so it must
        // read as the missing entity, not as a conflict.
        const target = await targetChain(ws, entityId, { preread: ahead, fresh: attempt > 0 });
        const chain = liveLinkTarget(entityId, target, options.path, options.entityType);
        const before = await readLink(ws, noteId, entityId, ahead);
        if (before && options.create) {
          throw new Conflict(`Note ${noteId} is already linked to entity ${entityId}.`);
        }
        const plan = new Plan(ws);
        plan.add(noteCheck(ws, note, { newLinks: before ? 0 : 1, links: [{ entityId, entityType: chain[0]!.type, importance }] }));
        const link = await planLinkChange(ws, plan, {
          noteId,
          entityId,
          entityType: chain[0]!.type,
          chain,
          ...(before ? { before } : {}),
          after: { customerId: note.customer?.id, importance },
          preread: ahead,
        });
        if (target.cached) plan.checkChain(chain);
        return { items: plan.build(), result: { created: !before, link: link! } };
      },
      options.scope,
    ),
  );
}

/**
 * A client's unlink. Links a note's creation still has to make (a request cut short) are made
 * first, so that one of them cannot come back after this answer.
 */
export async function deleteLink(ws: string, noteId: string, entityId: string, scope?: WriteScope): Promise<void> {
  const until = deadlineOf(Date.now(), scope?.deadline);
  const [, earlier] = await Promise.all([liveNote(ws, noteId), readWork(ws, 'noteLinks', noteId)]);
  await finishEarlier(
    earlier ? [earlier] : [],
    (w) => finishNoteLinks(ws, noteId, w.links ?? [], until),
    { label: 'deleteLink', resource: `the links of note ${noteId}` },
    until + LAMBDA_EXTRA_MS,
  );
  // One link with its rating.
  await transact(
    'removeLink',
    async () => {
      const [before, chain] = await Promise.all([readLink(ws, noteId, entityId), existingChain(ws, entityId)]);
      // A link to an entity whose delete has begun is gone for every reader (lib/store/tombstones.ts)
      // until the clean-up removes it: a client's unlink finds none, as a read would.
      if (!before || !chain || chain[0]!.deleting) throw new NotFound('link', entityId, `Note ${noteId} has no link to entity ${entityId}.`);
      const plan = new Plan(ws);
      await planLinkChange(ws, plan, { noteId, entityId, entityType: before.entityType, chain, before });
      plan.add(uncopyLink(ws, noteId, entityId));
      return { items: plan.build(), result: undefined };
    },
    scope?.deadline,
  );
}

/**
 * Sets (or, with null, clears) a note's customer: every link's rating moves to the new customer with
 * its set time kept. `onlyIf`: do nothing unless the current customer is this one (customer deletes);
 * `onlyIfNone`: InvalidInput when the note has a customer (a create that must not replace one).
 * `preread`: the note, when the route prefetched it.
 */
export async function setNoteCustomer(
  ws: string,
  noteId: string,
  customer: { id: string; type?: string | undefined; path: Path } | null,
  options: { onlyIf?: string; onlyIfNone?: boolean; preread?: Prereads | undefined; scope?: WriteScope | undefined } = {},
): Promise<NoteItem> {
  const until = deadlineOf(Date.now(), options.scope?.deadline);
  // Stepwise: the pending work this request recorded (none: an earlier change's to finish).
  let stepwise: { held?: HeldWork } | undefined;
  const result = await transactOnce(
    'setNoteCustomer',
    async (attempt) => {
      stepwise = undefined;
      // The note (prefetched on the first attempt), the new customer and the note's links are read
      // together and judged in that order; then one BatchGetItem for the link targets and the ratings
      // the change moves, the chains above the targets from lib/store/chains.ts.
      const [noteRead, nextRead, linksRead] = await Promise.all([
        getNote(ws, noteId, attempt === 0 ? options.preread : undefined),
        customer ? settle(checkCustomer(ws, customer, customer.path)) : undefined,
        settle(noteLinks(ws, noteId)),
      ]);
      if (!noteRead) throw new NotFound('note', noteId);
      const note = noteRead;
      if (options.onlyIf !== undefined && note.customer?.id !== options.onlyIf) return { items: [], result: note };
      // A note that has a customer gets another one only by replacing it (PUT …/relationships/customer).
      if (options.onlyIfNone && note.customer) {
        invalid(
          customer?.path ?? [],
          `Note ${noteId} already has a customer (${note.customer.type} ${note.customer.id}); replace it with PUT /v2/notes/${noteId}/relationships/customer.`,
        );
      }
      const next = nextRead && outcome(nextRead);
      const links = outcome(linksRead);
      const updated: NoteItem = { ...note, updatedAt: new Date().toISOString() };
      delete updated.customer;
      if (next) updated.customer = next;
      if (note.customer?.id === next?.id && note.customer?.type === next?.type) {
        // Same customer: nothing to write, unless an earlier stepwise change stopped half-way; finish it.
        if (links.some((l) => l.customerId !== note.customer?.id)) stepwise = {};
        return { items: [], result: note };
      }
      const base = () => {
        const plan = new Plan(ws);
        const set = next ? 'SET customer = :c, gsi2pk = :g2, gsi2sk = :g2s, updatedAt = :u' : 'SET updatedAt = :u REMOVE customer, gsi2pk, gsi2sk';
        const values: Record<string, unknown> = { ':u': updated.updatedAt };
        if (next) Object.assign(values, { ':c': next, ':g2': keys.notesOfCustomer(ws, next.id), ':g2s': keys.listPosition(note.createdAt, noteId) });
        if (note.customer) values[':old'] = note.customer.id;
        const links = sameLinks(note, values);
        plan.add({
          Update: {
            TableName: tableName(),
            Key: keys.note(ws, noteId),
            UpdateExpression: set,
            ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(deleting) AND ${note.customer ? 'customer.id = :old' : 'attribute_not_exists(customer)'} AND ${links}`,
            ExpressionAttributeValues: values,
          },
        });
        if (next) plan.add(liveEntityCheck(ws, next.id));
        return plan;
      };
      const moving = links.filter((l) => l.customerId !== next?.id);
      const ahead = await readAhead(
        moving.flatMap((l) => [keys.entity(ws, l.entityId), ...[l.customerId, next?.id].flatMap((c) => (c ? [keys.rating(ws, l.entityId, c)] : []))]),
      );
      const targets = await targetChains(
        ws,
        moving.map((l) => l.entityId),
        { preread: ahead, fresh: attempt > 0 },
      );
      let plan = base();
      for (const [i, link] of moving.entries()) {
        const target = targets[i]!;
        const chain = target.chain.length ? target.chain : undefined;
        await planLinkChange(ws, plan, {
          noteId,
          entityId: link.entityId,
          entityType: link.entityType,
          chain,
          before: link,
          after: { customerId: next?.id, importance: link.importance, setAt: link.setAt },
          preread: ahead,
        });
        if (chain && target.cached) plan.checkChain(chain);
        if (plan.size > MAX_TX_ITEMS - RECORD_ITEMS) break;
      }
      if (plan.size > MAX_TX_ITEMS - RECORD_ITEMS) {
        // Too big for one transaction: the note's customer first, with pending work that moves its links' ratings, then the links in steps.
        plan = base();
        const work = workPut(ws, 'noteCustomer', noteId, { leaseUntil: until + LAMBDA_EXTRA_MS });
        plan.add(work.put);
        stepwise = { held: work.held };
      }
      return { items: plan.build(), result: updated };
    },
    options.scope,
  );
  if (stepwise) await carryOn(stepwise.held, () => syncLinkCustomers(ws, noteId, until));
  return result;
}

/**
 * Moves every link whose rating is still filed under another customer than the note's, in
 * transactions of as many as one holds (idempotent): a stepwise customer change's pending work. True
 * once none is left; Unfinished when `until` comes first.
 */
export async function syncLinkCustomers(ws: string, noteId: string, until: number): Promise<boolean> {
  const detail = () => `The customer of note ${noteId} is changed; its links' ratings are moving to it and follow without another request.`;
  // Links made after this read are filed under the note's customer already.
  await inSteps('syncLinkCustomers', await noteLinks(ws, noteId), until, detail, async (batch, attempt) => {
    const note = await readNoteItem(ws, noteId);
    if (!note || note.deleting) return { items: [], result: ALL_DONE };
    const customerId = note.customer?.id;
    const { ahead, targets } = await readSteps(ws, noteId, batch, attempt, customerId);
    const plan = new Plan(ws);
    plan.add(noteCheck(ws, note, { newLinks: 0 }));
    let taken = 0;
    for (const [i, { entityId }] of batch.entries()) {
      const link = await readLink(ws, noteId, entityId, ahead);
      const target = targets[i]!;
      const chain = target.chain.length ? target.chain : undefined;
      if (link && link.customerId !== customerId) {
        if (!fits(plan, chain, (link.customerId ? 1 : 0) + (customerId ? 1 : 0))) break;
        await planLinkChange(ws, plan, {
          noteId,
          entityId,
          entityType: link.entityType,
          chain,
          before: link,
          after: { customerId, importance: link.importance, setAt: link.setAt },
          preread: ahead,
        });
        if (chain && target.cached) plan.checkChain(chain);
      }
      taken++;
    }
    // The note's check alone: nothing in this step to move.
    return { items: plan.size > 1 ? plan.build() : [], result: taken };
  });
  return true;
}

/** Deletes a note and its links, taking their ratings out of the aggregates. */
export async function deleteNote(ws: string, noteId: string, versions?: string[], scope?: WriteScope): Promise<void> {
  const until = deadlineOf(Date.now(), scope?.deadline);
  const leaseUntil = until + LAMBDA_EXTRA_MS;
  // Stepwise: the pending work this request recorded (none: an earlier delete's, carried on).
  let stepwise: { held?: HeldWork } | undefined;
  await transact(
    'deleteNote',
    async (attempt) => {
      stepwise = undefined;
      const read = await readNoteItem(ws, noteId);
      if (read?.deleting) {
        // A stepwise delete that stopped half-way (a timeout, a crash): carry it on.
        stepwise = {};
        return { items: [], result: undefined };
      }
      const note = await liveNote(ws, noteId);
      if (versions && !versions.includes(noteVersion(note))) throw new PreconditionFailed('note', noteId, versions);
      const plan = new Plan(ws);
      const values: Record<string, unknown> = {};
      const links = sameLinks(note, values);
      // Deleted at the version the If-Match accepted, or retried from a fresh read.
      const version = versions ? ' AND updatedAt = :was' : '';
      if (versions) values[':was'] = note.updatedAt;
      plan.add({
        Delete: {
          TableName: tableName(),
          Key: keys.note(ws, noteId),
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(deleting) AND ${links}${version}`,
          ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        },
      });
      const linked = await noteLinks(ws, noteId);
      // More links than a transaction holds items go in steps without planning them here.
      const fitsOne = linked.length < MAX_TX_ITEMS;
      if (fitsOne) {
        const { ahead, targets } = await readSteps(ws, noteId, linked, attempt);
        for (const [i, link] of linked.entries()) {
          const target = targets[i]!;
          const chain = target.chain.length ? target.chain : undefined;
          await planLinkChange(ws, plan, { noteId, entityId: link.entityId, entityType: link.entityType, chain, before: link, preread: ahead });
          if (chain && target.cached) plan.checkChain(chain);
          if (plan.size > MAX_TX_ITEMS) break;
        }
      }
      if (fitsOne && plan.size <= MAX_TX_ITEMS) return { items: plan.build(), result: undefined };
      // Too big for one transaction: mark the note (gone for readers and for new links) with pending
      // work that removes its links, then the links in steps.
      const work = workPut(ws, 'deleteNote', noteId, { leaseUntil });
      stepwise = { held: work.held };
      return {
        items: [
          work.put,
          {
            Update: {
              TableName: tableName(),
              Key: keys.note(ws, noteId),
              UpdateExpression: 'SET deleting = :now REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk',
              ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(deleting)${version}`,
              ExpressionAttributeValues: { ':now': new Date().toISOString(), ...(versions ? { ':was': note.updatedAt } : {}) },
            },
          },
        ],
        result: undefined,
      };
    },
    scope?.deadline,
  );
  if (!stepwise) return;
  await carryOn(stepwise.held ?? (await earlierWork(ws, 'deleteNote', noteId)), () => finishNoteDelete(ws, noteId, until));
}

/**
 * Second half of a stepwise note delete, its pending work: the links in transactions of as many as
 * one holds, then the note item. True once the note is gone; Unfinished when `until` comes first.
 */
export async function finishNoteDelete(ws: string, noteId: string, until: number): Promise<boolean> {
  const detail = () => `Note ${noteId} is deleted; its links are being removed and follow without another request.`;
  // The note is marked: no link is made to it from now on.
  await inSteps('finishNoteDelete', await noteLinks(ws, noteId), until, detail, async (batch, attempt) => {
    const { ahead, targets } = await readSteps(ws, noteId, batch, attempt);
    const plan = new Plan(ws);
    let taken = 0;
    for (const [i, { entityId }] of batch.entries()) {
      // Gone already (an entity delete's clean-up, an earlier run): nothing to remove.
      const link = await readLink(ws, noteId, entityId, ahead);
      const target = targets[i]!;
      const chain = target.chain.length ? target.chain : undefined;
      if (link) {
        if (!fits(plan, chain, link.customerId ? 1 : 0)) break;
        await planLinkChange(ws, plan, { noteId, entityId, entityType: link.entityType, chain, before: link, preread: ahead });
        if (chain && target.cached) plan.checkChain(chain);
      }
      taken++;
    }
    return { items: plan.build(), result: taken };
  });
  try {
    await deleteItem({ TableName: tableName(), Key: keys.note(ws, noteId), ConditionExpression: 'attribute_exists(deleting)' });
  } catch (err) {
    // Already gone (a concurrent finisher): nothing left to do.
    if (!isConditionFailed(err)) throw err;
  }
  return true;
}
