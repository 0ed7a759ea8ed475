// PUT /v2/notes/{id}/relationships/link/{entityId} — create a link or re-rate it (the latest rating counts).
import { config } from '#lib/config.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { parameter } from '#lib/domain/errors.ts';
import { NoteLinkPath, SetNoteLinkBody } from '#lib/domain/schemas/note-writes.ts';
import { NoteRelationshipResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { upsertLink } from '#lib/store/notes.ts';

export const handler = authedApi(
  routes.setNoteLink,
  { params: NoteLinkPath, body: SetNoteLinkBody, responses: { 200: NoteRelationshipResponse } },
  async (req, { params: { id, entityId }, body: { data } }) => {
    const { link } = await upsertLink(principalOf(req).workspaceId, id, entityId, data.importance, {
      create: false,
      path: parameter('entityId'),
      preread: req.preread,
      scope: req,
    });
    return {
      status: 200,
      body: {
        data: { type: 'link' as const, target: entityReference(config.urls, { id: link.entityId, type: link.entityType }), importance: link.importance },
      },
    };
  },
);
