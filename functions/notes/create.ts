// POST /v2/notes — create a note, optionally with its customer (by id, or a user by e-mail), links
// and metadata.source (the rules: lib/store/note-creation.ts).
import { config } from '#lib/config.ts';
import { dataOf, noteReads } from '#lib/domain/note-reads.ts';
import { noteReference } from '#lib/domain/note-view.ts';
import { CreateNoteBody } from '#lib/domain/schemas/note-writes.ts';
import { NoteReferenceResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { createNoteFrom } from '#lib/store/note-creation.ts';
import { newNoteRecords } from '#lib/store/record-names.ts';

export const handler = authedApi(
  routes.createNote,
  { body: CreateNoteBody, responses: { 201: NoteReferenceResponse }, errors: ['resource.notFound'], headers: { idempotencyKey: true } },
  async (req, { body: { data } }) => {
    const note = await createNoteFrom(principalOf(req), data, req.preread, req);
    return { status: 201, body: { data: noteReference(config.urls, note) } };
  },
  // The note's first reads go with the credential's (lib/http/prefetch.ts).
  { prefetch: ({ body }) => newNoteRecords(noteReads(dataOf(body), { members: true })) },
);
