// PUT /v2/notes/{id}/relationships/link/{entityId} — create a link or re-rate it (the latest rating counts).
import { config } from '#lib/config.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { data, onlyKeys, uuidParam } from '#lib/domain/input.ts';
import { importance } from '#lib/domain/note-input.ts';
import { api } from '#lib/http/pipeline.ts';
import { principalOf } from '#lib/http/request.ts';
import { upsertLink } from '#lib/store/notes.ts';

export const handler = api('setNoteLink', async (req) => {
  const ws = principalOf(req).workspaceId;
  const id = uuidParam(req.params.id, 'id');
  const entityId = uuidParam(req.params.entityId, 'entityId');
  const d = data(req.body);
  onlyKeys(d, ['importance'], ['data']);
  const imp = importance(d.importance, ['data', 'importance']);
  const { link } = await upsertLink(ws, id, entityId, imp, { create: false, path: ['data'] });
  return {
    status: 200,
    body: { data: { type: 'link', target: entityReference(config.baseUrl, { id: link.entityId, type: link.entityType }), importance: link.importance } },
  };
});
