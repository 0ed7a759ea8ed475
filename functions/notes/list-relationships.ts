// GET /v2/notes/{id}/relationships — `type` (customer|link), `target[type]`, `pageCursor`, `limit`: the customer
// first, then the links by entity id (lib/http/relationship-lists.ts).
import { NotePath, NoteRelationshipsQuery } from '#lib/domain/schemas/note.ts';
import { NoteRelationshipList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { listNoteRelationships } from '#lib/http/relationship-lists.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(
  routes.listNoteRelationships,
  { params: NotePath, query: NoteRelationshipsQuery, responses: { 200: NoteRelationshipList } },
  listNoteRelationships,
);
