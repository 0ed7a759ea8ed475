// Reads over planning entities for the MCP tools (lib/http/mcp/tools/planning.ts): the entities a
// plan is linked to, an objective's key results, and the releases of a product area. Each is bounded
// (the tools refuse what would outgrow one call) and reads items consistently.
import { batchGetAll } from './batch.ts';
import { childIds, getEntity, toEntity, type EntityItem } from './entities.ts';
import * as keys from './keys.ts';
import { entitiesAfter } from './pages.ts';
import { MAX_RANKED_DESCENDANTS, scoredDescendants } from './ranking.ts';
import { relationsOf } from './relations.ts';
import { isHierarchyType, type EntityType } from '../domain/hierarchy.ts';

/** The most releases one call looks through for a product area's. */
export const MAX_RELEASES = 500;

/** Live entities by id, in the order asked (missing and deleted ones left out). */
async function liveEntities(ws: string, ids: readonly string[]): Promise<EntityItem[]> {
  const items = await batchGetAll(
    ids.map((id) => keys.entity(ws, id)),
    { consistent: true },
  );
  return items
    .filter((it) => it.kind === 'entity')
    .map(toEntity)
    .filter((e) => !e.deleting);
}

/** The live children of `parentId` of one type (an objective's key results, a group's releases). */
export async function childrenOfType(ws: string, parentId: string, type: EntityType): Promise<EntityItem[]> {
  return (await liveEntities(ws, await childIds(ws, parentId))).filter((e) => e.type === type);
}

interface AreaRelease {
  release: EntityItem;
  /** The area's entities (the area itself or under it) linked to the release. */
  entities: EntityItem[];
}

/**
 * The releases holding a product area (a product, component, feature or subfeature) or anything
 * under it, oldest first: undefined when the area is no live product hierarchy entity; `tooMany`
 * names the bound a larger area or workspace would pass.
 */
export async function releasesOfArea(
  ws: string,
  areaId: string,
): Promise<undefined | { tooMany: 'entities' | 'releases' } | { area: EntityItem; releases: AreaRelease[] }> {
  const area = await getEntity(ws, areaId);
  if (!area || !isHierarchyType(area.type)) return undefined;
  const under = await scoredDescendants(ws, area.id);
  if (under.tooMany) return { tooMany: 'entities' };
  const inArea = new Map([area, ...under.scored.map((s) => s.entity)].map((e) => [e.id, e]));
  const releases: EntityItem[] = [];
  for (let after: string | undefined, more = true; more;) {
    const page = await entitiesAfter(ws, { types: ['release'] }, after, 100);
    releases.push(...page.items.map((i) => i.record));
    if (releases.length > MAX_RELEASES) return { tooMany: 'releases' };
    after = page.items.at(-1)?.position ?? page.resume;
    more = page.items.length === 100 || page.resume !== undefined;
  }
  const out: AreaRelease[] = [];
  for (let i = 0; i < releases.length; i += 16) {
    const batch = releases.slice(i, i + 16);
    const found = await Promise.all(
      batch.map(async (release) => ({
        release,
        entities: (await relationsOf(ws, release.id)).filter((r) => r.type === 'link' && inArea.has(r.targetId)).map((r) => inArea.get(r.targetId)!),
      })),
    );
    out.push(...found.filter((f) => f.entities.length > 0));
  }
  return { area, releases: out };
}

export { MAX_RANKED_DESCENDANTS as MAX_AREA_ENTITIES };
