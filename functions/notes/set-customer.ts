// PUT /v2/notes/{id}/relationships/customer — set or replace the note's customer (by id, or a user
// by e-mail); its ratings move with it.
import { config } from '#lib/config.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { SetNoteCustomerBody } from '#lib/domain/schemas/note-writes.ts';
import { NotePath } from '#lib/domain/schemas/note.ts';
import { NoteRelationshipResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { customerTarget } from '#lib/store/customers.ts';
import { setNoteCustomer } from '#lib/store/notes.ts';

export const handler = authedApi(
  routes.setNoteCustomer,
  { params: NotePath, body: SetNoteCustomerBody, responses: { 200: NoteRelationshipResponse } },
  async (req, { params: { id }, body: { data } }) => {
    const principal = principalOf(req);
    const ws = principal.workspaceId;
    const target = await customerTarget(ws, data.target, ['data', 'target'], principal.scopes.has('users:pii:read'));
    const note = await setNoteCustomer(ws, id, target, { preread: req.preread, scope: req });
    return { status: 200, body: { data: { type: 'customer' as const, target: entityReference(config.urls, note.customer!) } } };
  },
);
