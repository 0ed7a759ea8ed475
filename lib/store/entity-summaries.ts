// The names and types of entities a page mentions (a note's customer and links, an entity's
// relations): one BatchGetItem per 100 ids, only the attributes a mention shows. Records being
// deleted are left out, as every reader leaves them out.
import { batchGetByKey, itemKeyId } from './batch.ts';
import * as keys from './keys.ts';
import type { EntityType } from '../domain/hierarchy.ts';

export interface EntitySummary {
  id: string;
  type: EntityType;
  name: string;
}

const PROJECTION = { expression: 'pk, sk, #k, id, #t, #f.#n, deleting', names: { '#k': 'kind', '#t': 'type', '#f': 'fields', '#n': 'name' } };

/** The live entities among `ids`, by id. */
export async function entitySummaries(ws: string, ids: Iterable<string>): Promise<Map<string, EntitySummary>> {
  const wanted = [...new Set(ids)];
  const out = new Map<string, EntitySummary>();
  if (wanted.length === 0) return out;
  const found = await batchGetByKey(
    wanted.map((id) => keys.entity(ws, id)),
    { projection: PROJECTION },
  );
  for (const id of wanted) {
    const item = found.get(itemKeyId(keys.entity(ws, id)));
    if (!item || item.kind !== 'entity' || item.deleting) continue;
    const name = (item.fields as { name?: unknown } | undefined)?.name;
    out.set(id, { id, type: item.type as EntityType, name: typeof name === 'string' ? name : '' });
  }
  return out;
}
