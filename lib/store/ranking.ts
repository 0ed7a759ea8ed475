// Entities with their customer scores, for ranking: the descendants of a hierarchy entity
// (rank_by_customer_score, lib/http/mcp/tools/scores.ts: the children index, GSI2, walked level by
// level for the ids) and one level — a parent's children, or a type's entities — for the member
// pages (lib/http/member-pages/). Either way the entity items are then read consistently for their
// precomputed totals — the same numbers GET /v2/entities/{id}/score answers, never recomputed.
import { batchGetAll, batchGetByKey, itemKeyId } from './batch.ts';
import { queryPages } from './calls.ts';
import { childIds, toEntity, type EntityItem } from './entities.ts';
import * as keys from './keys.ts';
import { scoreOfTotal } from './score.ts';
import { tableName } from './table.ts';
import { isHierarchyType, type EntityType } from '../domain/hierarchy.ts';

/**
 * The largest subtree ranked in one call: its descendants are sorted in memory (the walk is one
 * query per parent, the reads 100 items per request), which stays well inside a request's budget.
 */
export const MAX_RANKED_DESCENDANTS = 2_000;

export interface ScoredEntity {
  entity: EntityItem;
  score: number;
}

/** Live hierarchy descendants of `rootId` with their scores; `tooMany` when there are more than MAX_RANKED_DESCENDANTS. */
export async function scoredDescendants(ws: string, rootId: string): Promise<{ tooMany: true } | { tooMany: false; scored: ScoredEntity[] }> {
  const ids: string[] = [];
  const seen = new Set([rootId]);
  let level = [rootId];
  while (level.length > 0) {
    const found = (await Promise.all(level.map((id) => childIds(ws, id)))).flat().filter((id) => !seen.has(id));
    for (const id of found) seen.add(id);
    ids.push(...found);
    if (ids.length > MAX_RANKED_DESCENDANTS) return { tooMany: true };
    level = found;
  }
  const items = await batchGetAll(
    ids.map((id) => keys.entity(ws, id)),
    { consistent: true },
  );
  const scored = items
    .filter((item) => item.kind === 'entity')
    .map(toEntity)
    .filter((e) => !e.deleting && isHierarchyType(e.type))
    .map((entity) => ({ entity, score: scoreOfTotal(entity.total) }));
  return { tooMany: false, scored };
}

/**
 * The most entities one member page ranks (a parent's children, the workspace's products): their
 * items are read in BatchGetItems of 100 keys, so a page reads at most this many, whatever lies
 * below them.
 */
export const MAX_RANKED_ON_PAGE = 2_000;

/** An entity as a ranking shows it: `score` for the types that have one (product hierarchy). */
export interface RankedEntity {
  id: string;
  type: EntityType;
  name: string;
  createdAt: string;
  score?: number;
}

/** Which entities: a parent's children (GSI2, in the order they joined it), or one type's (GSI1, oldest first). */
type RankedSet = { childrenOf: string } | { ofType: EntityType };

/**
 * The live entities of `set` with their customer scores, in the index's order; `tooMany` past
 * `max`. Ids come from the index, then the items are read consistently (100 keys per BatchGetItem,
 * the batches in parallel) for their precomputed totals: the numbers GET /v2/entities/{id}/score
 * answers, never recomputed.
 */
export async function scoredEntities(
  ws: string,
  set: RankedSet,
  max = MAX_RANKED_ON_PAGE,
): Promise<{ tooMany: true } | { tooMany: false; entities: RankedEntity[] }> {
  const ids: string[] = [];
  const index =
    'childrenOf' in set
      ? { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': keys.childrenOf(ws, set.childrenOf) } }
      : { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :p', ExpressionAttributeValues: { ':p': keys.entitiesOfType(ws, set.ofType) } };
  for await (const page of queryPages({ TableName: tableName(), ...index, ProjectionExpression: 'id', Limit: max + 1 })) {
    ids.push(...page.map((it) => String(it.id)));
    if (ids.length > max) return { tooMany: true };
  }
  const keyList = ids.map((id) => keys.entity(ws, id));
  const chunks: Array<typeof keyList> = [];
  for (let i = 0; i < keyList.length; i += 100) chunks.push(keyList.slice(i, i + 100));
  const found = new Map<string, Record<string, unknown>>();
  for (const part of await Promise.all(chunks.map((chunk) => batchGetByKey(chunk, { consistent: true, projection: RANKING_PROJECTION })))) {
    for (const [k, v] of part) found.set(k, v);
  }
  const entities: RankedEntity[] = [];
  for (const key of keyList) {
    const item = found.get(itemKeyId(key));
    if (!item || item.kind !== 'entity' || item.deleting) continue;
    const type = item.type as EntityType;
    const name = (item.fields as { name?: unknown } | undefined)?.name;
    entities.push({
      id: String(item.id),
      type,
      name: typeof name === 'string' ? name : '',
      createdAt: String(item.createdAt),
      ...(isHierarchyType(type) ? { score: scoreOfTotal(item.total) } : {}),
    });
  }
  return { tooMany: false, entities };
}

const RANKING_PROJECTION = {
  expression: 'pk, sk, #k, id, #t, #f.#n, createdAt, #total, deleting',
  names: { '#k': 'kind', '#t': 'type', '#f': 'fields', '#n': 'name', '#total': 'total' },
};
