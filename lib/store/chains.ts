// The chain of a link target — the entity, then its ancestors nearest first — with the ancestors
// from a per-instance cache of placements (entity id → type and parent) instead of one consistent
// GetItem per level. Safe without any invalidation: every transaction that uses a chain conditions
// each entity of it on the parent the cache assumed and on not being deleted (placeCondition in
// lib/store/entities.ts; the caller adds the ancestors' conditions when a change moves no score),
// so a move or a delete made anywhere since fails the transaction, and lib/store/tx.ts rebuilds it
// with `fresh` reads, which also refresh the cache. The target itself is always read (with the
// write's other reads): its own liveness and type are judged on the item as it is now. One
// transaction can name an entity through two chains (a link to a component and one to a feature
// under it): when they disagree on its place, Plan.entity throws StaleChain and tx.ts rebuilds fresh.
import { readEntityItem, readEntityItems, type EntityItem, type Placement } from './entities.ts';
import * as keys from './keys.ts';
import { prereadFor, type Prereads } from './preread.ts';
import { MAX_DEPTH } from '../domain/hierarchy.ts';

/** Entries kept per instance; the least recently used goes first. */
const MAX_PLACEMENTS = 10_000;
const placements = new Map<string, Placement>();

const cacheKey = (ws: string, id: string) => `${ws}/${id}`;

/** Keeps the placements of a whole, live chain (read fresh, or in one snapshot: lib/store/demand.ts). */
export function remember(ws: string, chain: Placement[]): void {
  for (const { id, type, parentId, parentType } of chain) {
    const k = cacheKey(ws, id);
    placements.delete(k);
    placements.set(k, { id, type, ...(parentId ? { parentId, parentType: parentType! } : {}) });
  }
  for (const k of placements.keys()) {
    if (placements.size <= MAX_PLACEMENTS) break;
    placements.delete(k);
  }
}

/** `id` and its ancestors as cached, or undefined when any level is not. */
function cachedChain(ws: string, id: string): Placement[] | undefined {
  const chain: Placement[] = [];
  let next: string | undefined = id;
  while (next !== undefined) {
    const k = cacheKey(ws, next);
    const p = placements.get(k);
    if (!p || chain.length >= MAX_DEPTH) return undefined;
    placements.delete(k);
    placements.set(k, p);
    chain.push(p);
    next = p.parentId;
  }
  return chain;
}

/**
 * The ancestors of `id` the cache knows, nearest first, as far as it knows them: a hint of what to
 * read, never trusted without the read (lib/store/demand.ts checks them in its snapshot).
 */
export function cachedAncestors(ws: string, id: string): string[] {
  const out: string[] = [];
  for (let next = placements.get(cacheKey(ws, id))?.parentId; next !== undefined && out.length < MAX_DEPTH; next = placements.get(cacheKey(ws, next))?.parentId)
    out.push(next);
  return out;
}

export interface TargetChain {
  chain: Placement[];
  /** False when an ancestor item is missing (its subtree's delete is finishing). */
  complete: boolean;
  /** The ancestors came from the cache: the transaction must condition every one of them. */
  cached: boolean;
}

/**
 * The chains of link targets: each target (from `preread` where it read it, the others in one
 * BatchGetItem) and its ancestors — cached unless `fresh` (a rebuilt transaction), otherwise read a
 * level at a time for all the targets, each entity once (a GetItem when a level has one), and
 * remembered when a chain is whole and live.
 */
export async function targetChains(ws: string, ids: readonly string[], options: { preread?: Prereads | undefined; fresh: boolean }): Promise<TargetChain[]> {
  // Every entity read here, by id; null: read and not there.
  const read = new Map<string, EntityItem | null>();
  const readAll = async (wanted: Iterable<string>) => {
    const fresh = [...new Set(wanted)].filter((id) => !read.has(id));
    if (fresh.length === 0) return;
    // One entity (a single link's next level): a GetItem, as targetChain reads it.
    if (fresh.length === 1) {
      read.set(fresh[0]!, (await readEntityItem(ws, fresh[0]!)) ?? null);
      return;
    }
    const found = await readEntityItems(ws, fresh);
    for (const id of fresh) read.set(id, found.get(id) ?? null);
  };
  const unread: string[] = [];
  for (const id of ids) {
    const ahead = prereadFor(options.preread, keys.entity(ws, id));
    if (!ahead) unread.push(id);
    else if (!read.has(id)) read.set(id, (await readEntityItem(ws, id, options.preread)) ?? null);
  }
  await readAll(unread);
  const cached = new Map<string, Placement[]>();
  if (!options.fresh) {
    for (const id of ids) {
      const parentId = read.get(id)?.parentId;
      const above = parentId === undefined ? undefined : cachedChain(ws, parentId);
      if (above) cached.set(id, above);
    }
  }
  // The ancestors of the targets not cached, a level at a time.
  let level = ids.filter((id) => !cached.has(id)).map((id) => read.get(id)?.parentId);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const parents = level.filter((p): p is string => p !== undefined);
    if (parents.length === 0) break;
    await readAll(parents);
    level = parents.map((p) => read.get(p)?.parentId);
  }
  return ids.map((id): TargetChain => {
    const target = read.get(id);
    if (!target) return { chain: [], complete: false, cached: false };
    const above = cached.get(id);
    if (above) return { chain: [target, ...above], complete: true, cached: true };
    const chain: EntityItem[] = [target];
    let next = target.parentId;
    while (next !== undefined && chain.length <= MAX_DEPTH) {
      const e = read.get(next);
      if (!e) break;
      chain.push(e);
      next = e.parentId;
    }
    const complete = next === undefined;
    if (complete && chain.every((e) => !e.deleting)) remember(ws, chain);
    return { chain, complete, cached: false };
  });
}

/** The chain of one link target (targetChains). */
export async function targetChain(ws: string, id: string, options: { preread?: Prereads | undefined; fresh: boolean }): Promise<TargetChain> {
  return (await targetChains(ws, [id], options))[0]!;
}
