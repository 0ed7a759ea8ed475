import { config } from '#lib/config.ts';
import { uuidParam } from '#lib/domain/input.ts';
import { noteView } from '#lib/domain/note-view.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { notFound } from '#lib/store/entity-writes.ts';
import { getNote, noteLinks } from '#lib/store/notes.ts';

export const handler = api('getNote', async (req) => {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const note = await getNote(ws, id);
  if (!note) throw notFound('note', id);
  const links = await noteLinks(ws, id);
  return { status: 200, body: { data: noteView(config.baseUrl, note, links) } };
});
