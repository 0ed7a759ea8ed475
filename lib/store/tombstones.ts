// The ids a subtree delete has marked, for the readers that meet them by id without reading their
// items: a note's links (its copy of them, or the link items) and an entity's relations name their
// targets, and those stay in the table until the clean-up removes them (lib/store/cascade.ts). Each
// transaction that marks entities writes one chunk of their ids, so "marked" and "listed here" are
// the same fact; a chunk goes only after the links, copies and relations of its entities are gone.
// Readers of one workspace read every chunk of it with one consistent Query — while nothing is being
// deleted, a Query that finds nothing — and only when they have something to hide (gone()).
import { randomUUID } from 'node:crypto';
import * as keys from './keys.ts';
import { partitionItems, type StoredItem } from './query.ts';
import { tableName } from './table.ts';
import type { TxItem } from './tx.ts';

/** Ids per chunk: a marking transaction holds at most this many entity updates beside its chunk. */
export const TOMBSTONES_PER_CHUNK = 99;

export interface TombstoneChunk {
  key: keys.ItemKey;
  rootId: string;
  /** Depth below the deleted root (0: the root): the clean-up goes deepest first. */
  level: number;
  ids: string[];
  customers: string[];
}

/**
 * The Put of one chunk: the ids one transaction marks (at most TOMBSTONES_PER_CHUNK), `customers`
 * those of them that are companies or users (their notes lose them). `chunk` names it within its
 * level (a fresh id unless given).
 */
export function tombstonePut(
  ws: string,
  rootId: string,
  level: number,
  ids: readonly string[],
  options: { customers: readonly string[]; chunk?: string },
): TxItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.tombstones(ws, rootId, level, options.chunk ?? randomUUID()),
        kind: 'tombstones',
        rootId,
        level,
        ids: [...ids],
        customers: [...options.customers],
      },
    },
  };
}

const toChunk = (item: StoredItem): TombstoneChunk => ({
  key: { pk: item.pk as string, sk: item.sk as string },
  rootId: item.rootId as string,
  level: Number(item.level),
  ids: (item.ids as string[] | undefined) ?? [],
  customers: (item.customers as string[] | undefined) ?? [],
});

/** The chunks of one subtree's delete, deepest level first. */
export async function tombstonesOf(ws: string, rootId: string): Promise<TombstoneChunk[]> {
  const items = await partitionItems(ws, keys.tombstonesOf(rootId));
  return items.map(toChunk).sort((a, b) => b.level - a.level);
}

/** Every marked id of the workspace whose clean-up is not finished (one consistent Query). */
async function markedIds(ws: string): Promise<ReadonlySet<string>> {
  const items = await partitionItems(ws, keys.tombstonesPrefix, ['ids']);
  return new Set(items.flatMap((it) => (it.ids as string[] | undefined) ?? []));
}

/** The marked ids of a workspace, read when first asked for and then kept: one per request (or page). */
export type Gone = () => Promise<ReadonlySet<string>>;

export function goneIn(ws: string): Gone {
  let read: Promise<ReadonlySet<string>> | undefined;
  return () => (read ??= markedIds(ws));
}
