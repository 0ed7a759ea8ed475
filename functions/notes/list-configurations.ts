// GET /v2/notes/configurations — the note types' configured fields (`type[]`/`type` filter).
import { isNoteType, NOTE_TYPES, type NoteType } from '#lib/domain/configurations.ts';
import { InvalidInput, parameter } from '#lib/domain/errors.ts';
import { configurationResources } from '#lib/http/configurations.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';

export const handler = api('listNoteConfigurations', async (req) => {
  const types: NoteType[] = [];
  for (const name of ['type[]', 'type']) {
    for (const t of req.query.all(name)) {
      if (!isNoteType(t)) throw new InvalidInput(`Unknown note type '${t.slice(0, 100)}'; known types: ${NOTE_TYPES.join(', ')}.`, parameter(name));
      if (!types.includes(t)) types.push(t);
    }
  }
  const data = await configurationResources(principalOf(req).workspaceId, 'notes', types.length ? types : NOTE_TYPES);
  return { status: 200, body: { data, links: {} } };
});
