// GET /v2/notes/configurations/{type}
import { isNoteType, NOTE_TYPES } from '#lib/domain/configurations.ts';
import { ApiError } from '#lib/http/errors.ts';
import { configurationResources } from '#lib/http/configurations.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';

export const handler = api('getNoteConfiguration', async (req) => {
  const type = req.params.type!;
  if (!isNoteType(type)) throw new ApiError('resource.notFound', `No note type '${type.slice(0, 100)}'; known types: ${NOTE_TYPES.join(', ')}.`);
  const [data] = await configurationResources(principalOf(req).workspaceId, 'notes', [type]);
  return { status: 200, body: { data } };
});
