// GET /v2/notes/{id}/relationships — `type` (customer|link), `target[type]`, `pageCursor`, `limit`: the customer
// first, then the links by entity id (lib/http/relationship-lists.ts).
import { NotePath, NoteRelationshipList, NoteRelationshipsQuery } from '#lib/domain/schemas/note.ts';
import { api } from '#lib/http/pipeline.ts';
import { listNoteRelationships } from '#lib/http/relationship-lists.ts';

export const handler = api(
  'listNoteRelationships',
  { params: NotePath, query: NoteRelationshipsQuery, responses: { 200: NoteRelationshipList } },
  listNoteRelationships,
);
