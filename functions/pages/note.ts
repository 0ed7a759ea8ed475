// GET {app_url}/notes/{id} — a note's page: its content, its customer and the entities it is
// linked to with their importance. Signed out: to the sign-in page and back.
import { PageRecordPath } from '#lib/domain/schemas/member-pages.ts';
import { notePageResult } from '#lib/http/member-pages/note-page.ts';
import { memberPageApi } from '#lib/http/member-pages/shell.ts';
import { toSignIn, viewerOf } from '#lib/http/member-pages/viewer.ts';
import * as routes from '#lib/routes.ts';

export const handler = memberPageApi(
  routes.notePage,
  {
    params: PageRecordPath,
    responses: { 303: null },
    pages: {
      200: 'The note, its customer and its links with importance (303 to the sign-in page without a page session)',
      400: 'A query parameter the page does not take',
      403: "The member's role may not read notes",
      404: "The same page for another workspace's note, an unknown id and a deleted note",
    },
  },
  async (req, { params: { id } }) => {
    const viewer = await viewerOf(req);
    return viewer ? notePageResult(viewer, id) : toSignIn(`/notes/${encodeURIComponent(id)}`);
  },
);
