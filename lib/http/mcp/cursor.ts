// The tools' page cursors: the API's own sealed cursors (lib/http/pagination.ts), bound to the
// tool, the workspace and the tool's other arguments, so a cursor only continues the very call
// that produced it.
import type { Principal } from '../../auth/principal.ts';
import { InvalidInput } from '../../domain/errors.ts';
import { ApiError } from '../errors.ts';
import { decodeCursor, encodeCursor, type PageKey, type PageScope } from '../pagination.ts';

/** `order`: the list's order, when its cursors name one (lib/http/pagination.ts PageScope.order). */
const scopeOf = (tool: string, principal: Principal, args: Record<string, unknown>, order?: string): PageScope => {
  const { cursor: _cursor, ...rest } = args;
  return { operationId: `mcp:${tool}`, workspaceId: principal.workspaceId, params: {}, query: [], body: rest, ...(order !== undefined ? { order } : {}) };
};

export const nextCursor = (tool: string, principal: Principal, args: Record<string, unknown>, key: PageKey, order?: string): Promise<string> =>
  encodeCursor(scopeOf(tool, principal, args, order), key);

/** Where the call continues: undefined on the first page. */
export async function cursorPosition(
  tool: string,
  principal: Principal,
  args: Record<string, unknown> & { cursor?: string | undefined },
  order?: string,
): Promise<PageKey | undefined> {
  if (args.cursor === undefined) return undefined;
  try {
    return await decodeCursor(scopeOf(tool, principal, args, order), args.cursor);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    throw new InvalidInput(
      'The cursor is not valid for this call: it was altered, or it belongs to a call with other arguments. Pass the nextCursor of the previous result unchanged, with the same arguments.',
      { pointer: '/cursor' },
    );
  }
}
