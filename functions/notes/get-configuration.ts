// GET /v2/notes/configurations/{type} — one note type's fields (with JSON Schemas) and relationships; the aliases `simple` and `conversation` name textNote and conversationNote.
import { isNoteType, NOTE_TYPES } from '#lib/domain/configurations.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { ConfigurationPath } from '#lib/domain/schemas/configuration.ts';
import { canonicalNoteType, isOpportunity, NO_OPPORTUNITY_NOTES } from '#lib/domain/schemas/note.ts';
import { ConfigurationResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { configurationResources } from '#lib/http/configurations.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(
  routes.getNoteConfiguration,
  { params: ConfigurationPath, responses: { 200: ConfigurationResponse } },
  async (req, { params }) => {
    const type = canonicalNoteType(params.type);
    if (isOpportunity(type)) throw new NotFound('note type', type, `No note type '${type}': ${NO_OPPORTUNITY_NOTES}.`);
    if (!isNoteType(type)) throw new NotFound('note type', type, `No note type '${type.slice(0, 100)}'; known types: ${NOTE_TYPES.join(', ')}.`);
    const [data] = await configurationResources(principalOf(req).workspaceId, 'notes', [type]);
    return { status: 200, body: { data: data! } };
  },
);
