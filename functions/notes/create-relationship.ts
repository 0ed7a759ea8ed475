// POST /v2/notes/{id}/relationships — link the note to an entity (409 if linked), or give it its
// customer (by id, or a user by e-mail). A note that has a customer gets another one by PUT
// …/relationships/customer, as Productboard documents: here that is 400.
import { config } from '#lib/config.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { CreateNoteRelationshipBody } from '#lib/domain/schemas/note-writes.ts';
import { NotePath } from '#lib/domain/schemas/note.ts';
import { NoteRelationshipResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { customerTarget } from '#lib/store/customers.ts';
import { setNoteCustomer, upsertLink } from '#lib/store/notes.ts';

export const handler = authedApi(
  routes.createNoteRelationship,
  {
    params: NotePath,
    body: CreateNoteRelationshipBody,
    responses: { 201: NoteRelationshipResponse },
    errors: ['conflict.uniqueViolation'],
    headers: { idempotencyKey: true },
  },
  async (req, { params: { id }, body: { data: rel } }) => {
    const principal = principalOf(req);
    const ws = principal.workspaceId;
    if (rel.type === 'link') {
      const { link } = await upsertLink(ws, id, rel.target.id, rel.importance, {
        create: true,
        path: ['data', 'target', 'id'],
        entityType: rel.target.type,
        preread: req.preread,
        scope: req,
      });
      return {
        status: 201,
        body: {
          data: { type: 'link' as const, target: entityReference(config.urls, { id: link.entityId, type: link.entityType }), importance: link.importance },
        },
      };
    }
    const target = await customerTarget(ws, rel.target, ['data', 'target'], principal.scopes.has('users:pii:read'));
    const note = await setNoteCustomer(ws, id, target, { onlyIfNone: true, scope: req });
    return { status: 201, body: { data: { type: 'customer' as const, target: entityReference(config.urls, note.customer!) } } };
  },
);
