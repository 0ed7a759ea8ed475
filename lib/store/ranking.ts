// The descendants of a hierarchy entity with their customer scores, for ranking
// (rank_by_customer_score, lib/http/mcp/tools/scores.ts): the children index (GSI2) walked level by
// level for the ids, then the entity items read consistently for their precomputed totals — the
// same numbers GET /v2/entities/{id}/score answers, never recomputed.
import { batchGetAll } from './batch.ts';
import { childIds, toEntity, type EntityItem } from './entities.ts';
import * as keys from './keys.ts';
import { scoreOfTotal } from './score.ts';
import { isHierarchyType } from '../domain/hierarchy.ts';

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
  const items = await batchGetAll(ids.map((id) => keys.entity(ws, id)), { consistent: true });
  const scored = items
    .filter((item) => item.kind === 'entity')
    .map(toEntity)
    .filter((e) => !e.deleting && isHierarchyType(e.type))
    .map((entity) => ({ entity, score: scoreOfTotal(entity.total) }));
  return { tooMany: false, scored };
}
