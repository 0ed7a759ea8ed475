// Comments on notes (Productboard's createNoteComment; reading them back is our extension): one
// item each in the note's partition range (keys.comment), listed oldest first, as a discussion
// thread reads. A comment is written only while its note is live (one transaction with a check of
// the note), and the note's comments go when the note does (removeNoteComments, after its delete).
import { randomUUID } from 'node:crypto';
import { batchWriteAll } from './batch.ts';
import { getItem } from './calls.ts';
import { transactOnce, type WriteScope } from './idempotency.ts';
import * as keys from './keys.ts';
import { partitionItems, type StoredItem } from './query.ts';
import { tableName } from './table.ts';

export interface StoredComment {
  id: string;
  noteId: string;
  content: string;
  author: { id: string; email: string };
  createdAt: string;
}

export const toComment = (item: StoredItem): StoredComment => ({
  id: String(item.id),
  noteId: String(item.noteId),
  content: String(item.content),
  author: item.author as StoredComment['author'],
  createdAt: String(item.createdAt),
});

/** A comment by `author` on a live note; `missing` is what to throw when the note is gone. */
export async function addComment(
  ws: string,
  noteId: string,
  input: { content: string; author: { id: string; email: string } },
  missing: () => Error,
  scope?: WriteScope,
): Promise<StoredComment> {
  const id = randomUUID();
  return transactOnce(
    'addComment',
    async (attempt) => {
      // A failed check on a rebuild means the note is gone (or being deleted): not a race to retry.
      if (attempt > 0 && !(await liveNoteExists(ws, noteId))) throw missing();
      const createdAt = new Date().toISOString();
      const comment: StoredComment = { id, noteId, content: input.content, author: input.author, createdAt };
      return {
        items: [
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.note(ws, noteId),
              ConditionExpression: 'attribute_exists(pk) AND kind = :kind AND attribute_not_exists(deleting)',
              ExpressionAttributeValues: { ':kind': 'note' },
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.comment(ws, noteId, createdAt, id), kind: 'comment', ...comment },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
        result: comment,
      };
    },
    scope,
  );
}

async function liveNoteExists(ws: string, noteId: string): Promise<boolean> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.note(ws, noteId), ConsistentRead: true });
  return Item?.kind === 'note' && !Item.deleting;
}

/** Deletes every comment of a note (once the note is gone; idempotent). Returns how many there were. */
export async function removeNoteComments(ws: string, noteId: string): Promise<number> {
  const items = await partitionItems(ws, keys.commentsOfNotePrefix(noteId), ['pk', 'sk']);
  await batchWriteAll(items.map((it) => ({ DeleteRequest: { Key: { pk: it.pk, sk: it.sk } } })));
  return items.length;
}
