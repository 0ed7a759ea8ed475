// Comments on notes: Productboard's create body and answer, and the list of a note's comments
// (our extension: Productboard's documents define no read of them).
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { strictObject } from './build.ts';
import { DateTime, Email, listOf, nonBlank, pageParameters, Uuid, dataOf } from './common.ts';

/** Productboard's bound on a comment's text. */
const MAX_COMMENT = 7000;

/** A comment's text as a create gives it (a restored comment record is held to it too). */
export const CommentContent = /* @__PURE__ */ (() => doc(nonBlank(MAX_COMMENT), 'The comment, as text'))();

export const CreateNoteCommentBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: strictObject({ content: CommentContent }),
    }),
    { id: 'CreateNoteCommentBody' },
  ))();

export const NoteCommentReferenceResponse = /* @__PURE__ */ (() => doc(dataOf(strictObject({ id: Uuid })), { id: 'NoteCommentReferenceResponse' }))();

export const NoteCommentsQuery = /* @__PURE__ */ (() => strictObject(pageParameters))();

const NoteComment = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      id: Uuid,
      type: z.literal('noteComment'),
      fields: strictObject({ content: z.string(), author: doc(strictObject({ id: Uuid, email: Email }), 'The member whose token wrote it') }),
      createdAt: DateTime,
    }),
    { id: 'NoteComment' },
  ))();
export const NoteCommentList = /* @__PURE__ */ (() => doc(listOf(NoteComment), { id: 'NoteCommentList' }))();
