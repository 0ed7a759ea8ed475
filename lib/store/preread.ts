// Items read ahead of their readers. The request's authentication reads the items its route names
// (the path's item, `prefetch` in lib/routes.ts, and the keys a handler computes from its request,
// lib/http/prefetch.ts) in the same BatchGetItem as the credential; a write reads the items it will
// judge in one BatchGetItem before judging any (readAhead), skipping what the authentication read.
// The store's readers take either instead of reading again. The key travels with each item, so a
// reader asking for another item never takes the wrong one: it reads that one itself.
import { batchGetByKey, itemKeyId } from './batch.ts';
import type { ItemKey } from './keys.ts';
import type { StoredItem } from './query.ts';

/** Every key asked for, found or not, from one consistent read (several BatchGetItems beyond 100 keys). */
export class ReadAhead {
  constructor(
    private readonly asked: ReadonlySet<string>,
    private readonly found: ReadonlyMap<string, StoredItem>,
  ) {}

  /** The answer for `asked` among `items` (a read of these keys and maybe others). */
  static of(asked: readonly ItemKey[], items: readonly StoredItem[]): ReadAhead {
    const ids = new Set(asked.map(itemKeyId));
    const found = new Map<string, StoredItem>();
    for (const i of items) {
      const id = itemKeyId({ pk: String(i.pk), sk: String(i.sk) });
      if (ids.has(id)) found.set(id, i);
    }
    return new ReadAhead(ids, found);
  }

  has(key: ItemKey): boolean {
    return this.asked.has(itemKeyId(key));
  }

  item(key: ItemKey): StoredItem | undefined {
    return this.found.get(itemKeyId(key));
  }

  /** This read and `other` as one (both were read for the same request). */
  with(other: ReadAhead): ReadAhead {
    return new ReadAhead(new Set([...this.asked, ...other.asked]), new Map([...this.found, ...other.found]));
  }
}

/** What a store reader may be handed instead of reading: the route's prefetched items, or a write's read-ahead. */
export type Prereads = ReadAhead;

/**
 * One consistent read of `keys`, but none of those `have` already holds (the items prefetched with
 * the credential): the result answers for both.
 */
export async function readAhead(keys: ItemKey[], have?: ReadAhead): Promise<ReadAhead> {
  const unique = [...new Map(keys.filter((k) => !have?.has(k)).map((k) => [itemKeyId(k), k])).values()];
  const found = unique.length ? await batchGetByKey(unique, { consistent: true }) : new Map<string, StoredItem>();
  const read = new ReadAhead(new Set(unique.map(itemKeyId)), found);
  return have ? have.with(read) : read;
}

/** The item read ahead for `key`, shaped like a GetItem answer, or undefined when none was (then read it). */
export function prereadFor(preread: Prereads | undefined, key: ItemKey): { Item: StoredItem | undefined } | undefined {
  return preread?.has(key) ? { Item: preread.item(key) } : undefined;
}
