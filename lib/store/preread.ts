// Items read ahead of their readers. The request's authentication reads the item its route names
// (lib/routes.ts `prefetch`) in the same BatchGetItem as the credential; a write reads the items it
// will judge in one BatchGetItem before judging any (readAhead). The store's readers take either
// instead of reading again. The key travels with each item, so a reader asking for another item
// never takes the wrong one: it reads that one itself.
import { batchGetByKey, itemKeyId } from './batch.ts';
import type { ItemKey } from './keys.ts';
import type { StoredItem } from './query.ts';

export interface Preread {
  key: ItemKey;
  /** Undefined: the table has no such item (as of the read). */
  item: StoredItem | undefined;
}

/** Every key asked for, found or not, from one consistent read (several BatchGetItems beyond 100 keys). */
export class ReadAhead {
  constructor(
    private readonly asked: ReadonlySet<string>,
    private readonly found: ReadonlyMap<string, StoredItem>,
  ) {}

  has(key: ItemKey): boolean {
    return this.asked.has(itemKeyId(key));
  }

  item(key: ItemKey): StoredItem | undefined {
    return this.found.get(itemKeyId(key));
  }
}

/** What a store reader may be handed instead of reading: the route's prefetched item, or a write's read-ahead. */
export type Prereads = Preread | ReadAhead;

export async function readAhead(keys: ItemKey[]): Promise<ReadAhead> {
  const unique = [...new Map(keys.map((k) => [itemKeyId(k), k])).values()];
  const found = unique.length ? await batchGetByKey(unique, { consistent: true }) : new Map<string, StoredItem>();
  return new ReadAhead(new Set(unique.map(itemKeyId)), found);
}

/** The item read ahead for `key`, shaped like a GetItem answer, or undefined when none was (then read it). */
export function prereadFor(preread: Prereads | undefined, key: ItemKey): { Item: StoredItem | undefined } | undefined {
  if (preread instanceof ReadAhead) return preread.has(key) ? { Item: preread.item(key) } : undefined;
  return preread && preread.key.pk === key.pk && preread.key.sk === key.sk ? { Item: preread.item } : undefined;
}
