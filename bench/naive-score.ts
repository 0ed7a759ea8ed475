// The compute-on-read baseline the benchmark compares the precomputed score with: walk the subtree
// (children via GSI2), query every entity's links (GSI2 linksTo), and apply the score rule. It reads
// the customer from the link's cached customerId rather than from each note, which makes it cheaper
// than a faithful compute-on-read, so the ratio it yields is a lower bound.
import { ownScores, type RawLink } from '#lib/domain/score.ts';
import { toLink } from '#lib/store/aggregates.ts';
import { subtree } from '#lib/store/entities.ts';
import { keys } from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/query.ts';

async function linksTo(ws: string, entityId: string): Promise<RawLink[]> {
  const items = await queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': keys.linksTo(ws, entityId) },
    ProjectionExpression: 'noteId, entityId, customerId, importance, setAt',
  });
  return items.map(toLink).map(({ noteId, entityId: id, customerId, importance, setAt }) => ({ noteId, entityId: id, customerId, importance, setAt }));
}

/** score(root) recomputed from the raw links of its subtree, a few entities' queries at a time. */
export async function naiveScore(ws: string, rootId: string, parallel = 4): Promise<number> {
  const { ids } = await subtree(ws, rootId);
  const links: RawLink[] = [];
  for (let i = 0; i < ids.length; i += parallel) {
    for (const batch of await Promise.all(ids.slice(i, i + parallel).map((id) => linksTo(ws, id)))) links.push(...batch);
  }
  let sum = 0;
  for (const v of ownScores(links).values()) sum += v;
  return sum;
}
