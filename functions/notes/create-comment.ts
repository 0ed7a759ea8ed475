// POST /v2/notes/{id}/comments — a comment on a note, written by the token's member (Productboard's
// createNoteComment). Read back through GET /v2/notes/{id}/comments (our extension).
import { NotFound } from '#lib/domain/errors.ts';
import { CreateNoteCommentBody } from '#lib/domain/schemas/comment.ts';
import { NotePath } from '#lib/domain/schemas/note.ts';
import { NoteCommentReferenceResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { addComment } from '#lib/store/comments.ts';

export const handler = authedApi(
  routes.createNoteComment,
  { params: NotePath, body: CreateNoteCommentBody, responses: { 201: NoteCommentReferenceResponse }, headers: { idempotencyKey: true } },
  async (req, { params: { id }, body }) => {
    const principal = principalOf(req);
    const comment = await addComment(
      principal.workspaceId,
      id,
      { content: body.data.content, author: { id: principal.memberId, email: principal.email } },
      () => new NotFound('note', id),
      req,
    );
    return { status: 201, body: { data: { id: comment.id } } };
  },
);
