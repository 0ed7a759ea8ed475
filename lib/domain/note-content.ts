// Which content a note's type takes: a textNote's is HTML, a conversationNote's the parts of a
// conversation (lib/domain/schemas/conversation.ts). The body schemas take either shape under
// `content`, since an update's body does not say the type; these rules hold the content against
// the note's type once it is known. A note's type never changes.
import { InvalidInput, pointer, type Path } from './errors.ts';
import type { PatchOp } from './patch.ts';
import type { NoteType } from './schemas/note.ts';

const CONTENT_OF: Record<NoteType, string> = {
  textNote: 'HTML text',
  conversationNote: 'a list of conversation parts ({externalId, authorType, content, timestamp, authorName?})',
};

/** A note's type and the content given for it agree (null and absent always do). */
export function checkNoteContent(type: NoteType, content: unknown, path: Path): void {
  if (content === undefined || content === null || Array.isArray(content) === (type === 'conversationNote')) return;
  throw new InvalidInput(`A ${type}'s content is ${CONTENT_OF[type]}; got ${Array.isArray(content) ? 'a list of conversation parts' : 'text'}.`, pointer(path));
}

/** The patch operations on `content` fit the note's type: parts are added and removed only on a conversationNote. */
export function checkNotePatch(type: NoteType, ops: readonly PatchOp[]): void {
  for (const op of ops) {
    if (op.field !== 'content' || op.op === 'clear') continue;
    if (op.op === 'set') checkNoteContent(type, op.value, [...op.path, 'value']);
    else if (type !== 'conversationNote') {
      throw new InvalidInput(
        `'${op.op}' on content applies to a conversationNote's parts; this note is a ${type}, whose content is ${CONTENT_OF[type]}: use 'set'.`,
        pointer([...op.path, 'op']),
      );
    }
  }
}

/** An update's `type`, when it gives one, is the note's own. */
export function checkSameNoteType(note: { id: string; type: NoteType }, given: NoteType | undefined, path: Path): void {
  if (given !== undefined && given !== note.type)
    throw new InvalidInput(`Note ${note.id} is a ${note.type}; a note's type cannot be changed (to ${given}).`, pointer(path));
}
