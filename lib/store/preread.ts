// An item read ahead of its reader: the request's authentication reads the item its route names
// (lib/routes.ts `prefetch`) in the same BatchGetItem as the credential, and the handler's store
// call takes it instead of reading again. The key travels with the item, so a reader asking for
// another item never takes the wrong one.
import type { ItemKey } from './keys.ts';
import type { StoredItem } from './query.ts';

export interface Preread {
  key: ItemKey;
  /** Undefined: the table has no such item (as of the read). */
  item: StoredItem | undefined;
}

/** The item read ahead for `key`, shaped like a GetItem answer, or undefined when none was (then read it). */
export function prereadFor(preread: Preread | undefined, key: ItemKey): { Item: StoredItem | undefined } | undefined {
  return preread && preread.key.pk === key.pk && preread.key.sk === key.sk ? { Item: preread.item } : undefined;
}
