// GET {app_url}/: the workspace's top-level entities — its products, ranked by customer score with
// a bar each, and the planning entities that stand alone (types without a required parent) — each
// a link to its page.
import { formatNumber, typeLabel, typePlural } from './format.ts';
import { empty, entityList, rankingTable } from './parts.ts';
import { pageOk, requireScope, type Viewer } from './viewer.ts';
import { isHierarchyType } from '../../domain/hierarchy.ts';
import { homeTypes, rankOrder } from '../../domain/member-pages.ts';
import { MAX_RANKED_ON_PAGE, scoredEntities } from '../../store/ranking.ts';
import { getWorkspace } from '../../store/workspaces.ts';
import { html } from '../pages/html.ts';
import type { ApiResult } from '../request.ts';

export async function homePageResult(viewer: Viewer): Promise<ApiResult> {
  requireScope(viewer, 'entities:read', 'products, features and customers');
  const types = homeTypes();
  const [workspace, ...sets] = await Promise.all([
    getWorkspace(viewer.workspaceId),
    ...types.map((type) => scoredEntities(viewer.workspaceId, { ofType: type })),
  ]);
  const title = workspace?.name ?? 'Your workspace';
  const sections = types.map((type, i) => {
    const found = sets[i]!;
    const heading = typeLabel(typePlural(type));
    const id = `${type}-heading`;
    const open = (content: ReturnType<typeof html>) => html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${heading}</h2>${content}</section>`;
    if (found.tooMany)
      return open(
        empty(
          `This workspace has more than ${formatNumber(MAX_RANKED_ON_PAGE)} ${typePlural(type)}, more than one page ranks: list them with GET /v2/entities?type[]=${type}.`,
        ),
      );
    const all = found.entities;
    if (all.length === 0) {
      // Products are where everything starts; the other top-level types only show once they exist.
      return type === 'product'
        ? open(
            empty(
              html`No products yet. Create one with <span class="code">POST /v2/entities</span> (type <span class="code">product</span>), put components and features under it, link customer feedback to them, and they appear here ranked by customer score.`,
            ),
          )
        : html``;
    }
    return isHierarchyType(type)
      ? open(
          rankingTable(
            `${formatNumber(all.length)} ${all.length === 1 ? typeLabel(type).toLowerCase() : typePlural(type)}, highest customer score first; equal scores by name.`,
            [...all].sort(rankOrder),
          ),
        )
      : open(
          entityList(
            heading,
            [...all].sort((a, b) => a.name.localeCompare(b.name, 'en')),
          ),
        );
  });
  return pageOk(
    viewer,
    title,
    html`<h1>${title}</h1>
<p class="muted">What your customers ask for, by customer score: every product's score sums the importance its customers gave to it and to everything under it.</p>
${sections}`,
  );
}
