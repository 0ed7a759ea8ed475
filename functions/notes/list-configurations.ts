// GET /v2/notes/configurations — the note types' configured fields (`type[]`/`type` filter).
import { NOTE_TYPES } from '#lib/domain/configurations.ts';
import { NoteConfigurationsQuery } from '#lib/domain/schemas/configuration.ts';
import { ConfigurationList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { configurationResources } from '#lib/http/configurations.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(
  routes.listNoteConfigurations,
  { query: NoteConfigurationsQuery, responses: { 200: ConfigurationList } },
  async (req, { query }) => {
    const named = [...(query['type[]'] ?? []), ...(query.type ? [query.type] : [])];
    const data = await configurationResources(principalOf(req).workspaceId, 'notes', named.length ? [...new Set(named)] : NOTE_TYPES);
    return { status: 200, body: { data, links: {} } };
  },
);
