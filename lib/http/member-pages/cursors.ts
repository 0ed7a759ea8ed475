// Where a page's list continues, in its links: the REST lists' opaque cursors (lib/http/pagination.ts),
// bound to the workspace, the page, its record and the list, so a position read from one link
// means nothing anywhere else.
import type { Viewer } from './viewer.ts';
import { PageError } from '../pages/page-error.ts';
import { decodeCursor, encodeCursor, stringKey, type PageScope } from '../pagination.ts';

const scopeOf = (viewer: Viewer, page: string, id: string, list: string): PageScope => ({
  operationId: `${page}#${list}`,
  workspaceId: viewer.workspaceId,
  params: { id },
  query: [],
});

export const listCursor = (viewer: Viewer, page: string, id: string, list: string, position: string): Promise<string> =>
  encodeCursor(scopeOf(viewer, page, id, list), position);

/** The position a list's cursor carries; a cursor from anywhere else is an error page. */
export async function listPosition(viewer: Viewer, page: string, id: string, list: string, cursor: string | undefined): Promise<string | undefined> {
  if (cursor === undefined) return undefined;
  try {
    return stringKey(await decodeCursor(scopeOf(viewer, page, id, list), cursor));
  } catch {
    throw new PageError(400, 'This link does not work here', 'The page link is damaged or belongs to another page. Open the page again from its first page.');
  }
}
