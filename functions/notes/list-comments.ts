// GET /v2/notes/{id}/comments — a note's comments, oldest first (our extension: Productboard's
// documents define how to write a comment, not how to read one back); `pageCursor`, `limit`.
import { NotFound } from '#lib/domain/errors.ts';
import { noteCommentView } from '#lib/domain/note-view.ts';
import { NoteCommentsQuery } from '#lib/domain/schemas/comment.ts';
import { NotePath } from '#lib/domain/schemas/note.ts';
import { NoteCommentList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { getNote } from '#lib/store/notes.ts';
import { noteCommentsAfter } from '#lib/store/pages.ts';

export const handler = authedApi(
  routes.listNoteComments,
  { params: NotePath, query: NoteCommentsQuery, responses: { 200: NoteCommentList } },
  async (req, { params: { id }, query }) => {
    const ws = principalOf(req).workspaceId;
    if (!(await getNote(ws, id, req.preread))) throw new NotFound('note', id);
    const page = await pageOf(req, query);
    const slice = await noteCommentsAfter(ws, id, stringKey(page.after), page.limit + 1);
    const body = await page.envelope(slice, (records) => records.map((record) => noteCommentView(record)));
    return { status: 200, body };
  },
);
