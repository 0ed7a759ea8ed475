// Score aggregates, maintained on write (docs/architecture.md, "The score aggregates"). Item layout, for anyone bulk-loading raw data
// and then running `admin score verify --repair` (which rebuilds everything below from raw links):
//
//   entity  (keys.entity)   hierarchy entities carry   own:   Σ over customers of the weight of their
//                                                             counting rating + 1 per anonymous link
//                                                      total: own + Σ total of the children
//                           (missing own/total = 0; verify --repair writes them)
//   note    (keys.note)     customer?: {id, type}     — the truth for whose rating a link is
//                           linksCopied, L#<entityId>: the copy of its links for reads (lib/store/note-link-copy.ts);
//                           a raw note without it is read through its links (verify checks copies, adds none)
//   link    (keys.link)     { kind: 'link', noteId, entityId, entityType, importance, setAt: epoch ms,
//                             customerId?: cache of the note's customer the aggregates were last
//                             applied with, rev: number, gsi2pk: keys.linksTo(ws, entityId), gsi2sk: noteId,
//                             gsi3pk: keys.linksByTime(ws, entityId), gsi3sk: keys.linkTimePosition(setAt, noteId) }
//                           A raw bulk-loaded link needs noteId, entityId, entityType, importance, setAt
//                           and the gsi2 and gsi3 keys (linkItem writes them; `admin index backfill` adds
//                           gsi3 to links without it); verify --repair fills customerId and rev.
//   rating  (keys.rating)   one per (hierarchy entity, customer) with at least one link:
//                           { kind: 'rating', entityId, customerId, entries: { [noteId]: { w, at } },
//                             weight: w of the counting entry, ver: number }
//                           The counting entry is the latest `at` (ties: greater note id). Keeping all of
//                           a customer's entries on one item makes "fall back to the next most recent"
//                           exact and one read; the item stays far below 400 KB up to
//                           MAX_NOTES_PER_RATING notes of one customer on one entity.
//
// Every change to links, a note's customer, or the hierarchy is one TransactWriteItems holding the
// link/note item, the rating items, and the deltas on the entity and each ancestor, each conditioned
// on the ancestor still having the parent that was read and not being deleted (lib/store/tx.ts retries).
import { itemKeyId } from './batch.ts';
import { getItem, txItemKey } from './calls.ts';
import { growthIs, placeCondition, type Placement } from './entities.ts';
import { StaleChain } from './errors.ts';
import * as keys from './keys.ts';
import { prereadFor, type Prereads } from './preread.ts';
import type { StoredItem } from './query.ts';
import { tableName } from './table.ts';
import type { TxItem } from './tx.ts';
import { InvalidInput, pointer } from '../domain/errors.ts';
import type { EntityType } from '../domain/hierarchy.ts';
import { countedWeight, ANONYMOUS_WEIGHT, WEIGHTS, type Importance, type RatingEntry } from '../domain/score.ts';

/** Notes one customer's rating of one entity holds (its item stays well under DynamoDB's 400 KB). */
export const MAX_NOTES_PER_RATING = 1000;

export interface LinkItem {
  noteId: string;
  entityId: string;
  entityType: EntityType;
  importance: Importance;
  setAt: number;
  customerId?: string;
  rev: number;
}

interface RatingItem {
  entityId: string;
  customerId: string;
  entries: Record<string, RatingEntry>;
  weight: number;
  ver: number;
}

export function linkItem(ws: string, l: LinkItem): Record<string, unknown> {
  return {
    ...keys.link(ws, l.noteId, l.entityId),
    kind: 'link',
    noteId: l.noteId,
    entityId: l.entityId,
    entityType: l.entityType,
    importance: l.importance,
    setAt: l.setAt,
    ...(l.customerId ? { customerId: l.customerId } : {}),
    rev: l.rev,
    gsi2pk: keys.linksTo(ws, l.entityId),
    gsi2sk: l.noteId,
    gsi3pk: keys.linksByTime(ws, l.entityId),
    gsi3sk: keys.linkTimePosition(l.setAt, l.noteId),
  };
}

/** A link item as stored; a bulk-loaded one may lack `rev` and the customer cache (verify --repair adds them). */
export function toLink(item: StoredItem): LinkItem {
  const l = item as Partial<LinkItem>;
  return {
    noteId: l.noteId!,
    entityId: l.entityId!,
    entityType: l.entityType!,
    importance: l.importance!,
    setAt: Number(l.setAt),
    ...(l.customerId ? { customerId: l.customerId } : {}),
    rev: typeof l.rev === 'number' ? l.rev : 0,
  };
}

export function toRating(item: StoredItem): RatingItem {
  const r = item as Partial<RatingItem>;
  return { entityId: r.entityId!, customerId: r.customerId!, entries: r.entries ?? {}, weight: r.weight ?? 0, ver: r.ver ?? 0 };
}

export function ratingItem(ws: string, r: RatingItem): Record<string, unknown> {
  return { ...keys.rating(ws, r.entityId, r.customerId), kind: 'rating', ...r };
}

async function readRating(ws: string, entityId: string, customerId: string, preread?: Prereads): Promise<RatingItem | undefined> {
  const key = keys.rating(ws, entityId, customerId);
  const { Item } = prereadFor(preread, key) ?? (await getItem({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return Item ? { ...toRating(Item), entityId, customerId } : undefined;
}

interface EntityDelta {
  e: Placement;
  own: number;
  total: number;
  expectTotal?: number;
  /** The `updatedAt` the entity must still have (a request's If-Match, lib/domain/etag.ts). */
  expectVersion?: string;
  /** Extra SET/REMOVE clauses for the entity itself (moves, deletes). */
  set?: Record<string, unknown>;
  remove?: string[];
  /** Counts a change of the entity's links (`linkRev`, lib/store/demand.ts reads it). */
  bumpLinkRev?: boolean;
  /** Counts an entity placed under it (`growth`, lib/store/entities.ts). */
  grows?: boolean;
  /** The `growth` the entity must still have (absent in the item counts as 0). */
  expectGrowth?: number;
}

/**
 * The items of one transaction under construction. Deltas on the same entity (two links under one
 * ancestor, a move within one product) merge into one update, since a transaction may touch an
 * item only once.
 */
export class Plan {
  private readonly items: TxItem[] = [];
  private readonly entities = new Map<string, EntityDelta>();
  private readonly touched = new Set<string>();

  constructor(private readonly ws: string) {}

  /** A non-entity item (note, link, rating, customer check); each key at most once. */
  add(item: TxItem): void {
    const k = keyOf(item);
    if (this.touched.has(k)) throw new PlanCollision(k);
    this.touched.add(k);
    this.items.push(item);
  }

  /** `ownDelta` on chain[0]'s own and total and on every ancestor's total; conditions on all of them. */
  chainDelta(chain: Placement[], ownDelta: number): void {
    chain.forEach((e, i) => {
      const d = this.entity(e);
      if (i === 0) d.own += ownDelta;
      d.total += ownDelta;
    });
  }

  /** Condition only: the chain still stands as read. */
  checkChain(chain: Placement[]): void {
    for (const e of chain) this.entity(e);
  }

  /** An entity joins the chain's first entity as its child: the chain still stands as read, and each entity of it counts the growth. */
  grow(chain: Placement[]): void {
    for (const e of chain) this.entity(e).grows = true;
  }

  /**
   * The entity's delta. Every chain that names it must agree on its place: its update can carry the
   * condition of one reading only, so two that differ (a cached ancestor against a fresh read of the
   * same entity as another link's target) would let the other chain's ancestors go unchecked.
   */
  entity(e: Placement): EntityDelta {
    let d = this.entities.get(e.id);
    if (!d) {
      d = { e, own: 0, total: 0 };
      this.entities.set(e.id, d);
    } else if (d.e.parentId !== e.parentId || !d.e.deleting !== !e.deleting) throw new StaleChain(e.id);
    return d;
  }

  get size(): number {
    return this.items.length + this.entities.size;
  }

  /** Whether the plan already holds an update or a condition of this entity (another change under it adds none). */
  touches(entityId: string): boolean {
    return this.entities.has(entityId);
  }

  build(): TxItem[] {
    const out = [...this.items];
    let n = 0;
    for (const d of this.entities.values()) {
      const prefix = `:e${n++}`;
      const cond = placeCondition(d.e, prefix);
      const values: Record<string, unknown> = { ...cond.values };
      let expr = cond.expr;
      const names: Record<string, string> = {};
      if (d.expectTotal !== undefined) {
        names['#total'] = 'total';
        expr += ` AND #total = ${prefix}T`;
        values[`${prefix}T`] = d.expectTotal;
      }
      if (d.expectGrowth !== undefined) expr += ` AND ${growthIs(d.expectGrowth, values, `${prefix}G`)}`;
      if (d.expectVersion !== undefined) {
        names['#version'] = 'updatedAt';
        expr += ` AND #version = ${prefix}V`;
        values[`${prefix}V`] = d.expectVersion;
      }
      const sets: string[] = [];
      if (d.own !== 0 || d.total !== 0) {
        Object.assign(names, { '#own': 'own', '#total': 'total' });
        sets.push(`#own = if_not_exists(#own, ${prefix}z) + ${prefix}o`, `#total = if_not_exists(#total, ${prefix}z) + ${prefix}t`);
        Object.assign(values, { [`${prefix}z`]: 0, [`${prefix}o`]: d.own, [`${prefix}t`]: d.total });
      }
      if (d.grows) {
        names['#growth'] = 'growth';
        sets.push(`#growth = if_not_exists(#growth, ${prefix}z) + ${prefix}one`);
        Object.assign(values, { [`${prefix}z`]: 0, [`${prefix}one`]: 1 });
      }
      if (d.bumpLinkRev) {
        names['#lr'] = 'linkRev';
        sets.push(`#lr = if_not_exists(#lr, ${prefix}z) + ${prefix}one`);
        Object.assign(values, { [`${prefix}z`]: 0, [`${prefix}one`]: 1 });
      }
      let i = 0;
      for (const [attr, v] of Object.entries(d.set ?? {})) {
        names[`#s${i}`] = attr;
        values[`${prefix}s${i}`] = v;
        sets.push(`#s${i} = ${prefix}s${i}`);
        i++;
      }
      const removes = (d.remove ?? []).map((attr, j) => {
        names[`#r${j}`] = attr;
        return `#r${j}`;
      });
      const key = keys.entity(this.ws, d.e.id);
      if (sets.length === 0 && removes.length === 0) {
        out.push({
          ConditionCheck: {
            TableName: tableName(),
            Key: key,
            ConditionExpression: expr,
            ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
            ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
          },
        });
        continue;
      }
      const update = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
      out.push({
        Update: {
          TableName: tableName(),
          Key: key,
          UpdateExpression: update,
          ConditionExpression: expr,
          ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
          ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        },
      });
    }
    return out;
  }
}

class PlanCollision extends Error {
  constructor(key: string) {
    super(`Item ${key} twice in one transaction`);
    this.name = 'PlanCollision';
  }
}

const keyOf = (item: TxItem): string => itemKeyId(txItemKey(item)!);

/** The state a link should end in: its importance, customer, and set time (undefined = now). */
interface LinkTarget {
  customerId?: string | undefined;
  importance: Importance;
  setAt?: number;
}

/**
 * Adds to `plan` everything one link change needs: the link item write (conditioned on the revision
 * read), the rating items of the customers involved (conditioned on their version), and the own/total
 * deltas on the linked entity and its ancestors. `chain` is the linked entity and its ancestors as
 * read, or undefined when the entity no longer exists (then only the link item changes, as when its
 * delete has begun); `preread`
 * may hold the rating items. Returns the link as written (undefined for a removal).
 */
export async function planLinkChange(
  ws: string,
  plan: Plan,
  args: {
    noteId: string;
    entityId: string;
    entityType: EntityType;
    chain: Placement[] | undefined;
    before?: LinkItem;
    after?: LinkTarget;
    preread?: Prereads | undefined;
  },
): Promise<LinkItem | undefined> {
  const { noteId, entityId, before, after } = args;
  // A target whose delete has begun scores for no one: its ratings and links are the clean-up's
  // (lib/store/cascade.ts), so only the link item changes.
  const chain = args.chain?.[0]?.deleting ? undefined : args.chain;
  const ratings = new Map<string, { item: RatingItem | undefined; entries: Record<string, RatingEntry> }>();
  const pair = async (customerId: string) => {
    let r = ratings.get(customerId);
    if (!r) {
      const item = chain ? await readRating(ws, entityId, customerId, args.preread) : undefined;
      r = { item, entries: { ...(item?.entries ?? {}) } };
      ratings.set(customerId, r);
    }
    return r;
  };
  let anonymousDelta = 0;
  if (before) {
    if (before.customerId) delete (await pair(before.customerId)).entries[noteId];
    else anonymousDelta -= ANONYMOUS_WEIGHT;
  }
  let written: LinkItem | undefined;
  if (after) {
    let setAt = after.setAt;
    if (after.customerId) {
      const r = await pair(after.customerId);
      // Strictly later than anything this customer set on this entity, so "latest" follows commit order.
      if (setAt === undefined) setAt = Math.max(Date.now(), ...Object.values(r.entries).map((e) => e.at + 1));
      if (!(noteId in r.entries) && Object.keys(r.entries).length >= MAX_NOTES_PER_RATING) {
        throw new InvalidInput(`A customer can rate one entity through at most ${MAX_NOTES_PER_RATING} notes.`, pointer(['data']));
      }
      r.entries[noteId] = { w: WEIGHTS[after.importance], at: setAt };
    } else anonymousDelta += ANONYMOUS_WEIGHT;
    written = {
      noteId,
      entityId,
      entityType: args.entityType,
      importance: after.importance,
      setAt: setAt ?? Date.now(),
      ...(after.customerId ? { customerId: after.customerId } : {}),
      rev: (before?.rev ?? 0) + 1,
    };
    plan.add({
      Put: {
        TableName: tableName(),
        Item: linkItem(ws, written),
        ...(before
          ? { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': before.rev } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      },
    });
  } else if (before) {
    plan.add({
      Delete: {
        TableName: tableName(),
        Key: keys.link(ws, noteId, entityId),
        ConditionExpression: 'rev = :rev',
        ExpressionAttributeValues: { ':rev': before.rev },
      },
    });
  }
  if (!chain) return written;

  let ownDelta = anonymousDelta;
  for (const [customerId, r] of ratings) {
    const weight = countedWeight(r.entries);
    ownDelta += weight - (r.item?.weight ?? 0);
    const key = keys.rating(ws, entityId, customerId);
    const guard = r.item
      ? { ConditionExpression: 'ver = :ver', ExpressionAttributeValues: { ':ver': r.item.ver } }
      : { ConditionExpression: 'attribute_not_exists(pk)' };
    if (Object.keys(r.entries).length === 0) {
      if (r.item) plan.add({ Delete: { TableName: tableName(), Key: key, ...guard } });
    } else {
      const next: RatingItem = { entityId, customerId, entries: r.entries, weight, ver: (r.item?.ver ?? 0) + 1 };
      plan.add({ Put: { TableName: tableName(), Item: ratingItem(ws, next), ...guard } });
    }
  }
  // The linked entity is always conditioned (it must still stand where it was read); ancestors only
  // when the score moves.
  if (ownDelta !== 0) plan.chainDelta(chain, ownDelta);
  else plan.checkChain(chain.slice(0, 1));
  return written;
}
