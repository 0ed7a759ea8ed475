// DELETE /v2/entities/fields/{id}/values/{valueId} — delete a tag value or a select option. One that
// an entity holds is kept unless `force` clears it from every entity that holds it or `replaceWith`
// gives them another value instead.
import { InvalidInput, parameter } from '#lib/domain/errors.ts';
import { DeleteFieldValueQuery, FieldValuePath } from '#lib/domain/schemas/value-sets.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { deleteFieldValue, valueFieldOf } from '#lib/store/field-values.ts';
import { refuseIfHeld } from '#lib/store/value-holders.ts';

export const handler = authedApi(
  routes.deleteEntityFieldValue,
  { params: FieldValuePath, query: DeleteFieldValueQuery, responses: { 204: null } },
  async (req, { params, query }) => {
    if (query.force === true && query.replaceWith !== undefined)
      throw new InvalidInput('force and replaceWith exclude each other: give one of them.', parameter('replaceWith'));
    const ws = principalOf(req).workspaceId;
    const field = await valueFieldOf(ws, params.id);
    const unlessHeld = query.force !== true && query.replaceWith === undefined ? () => refuseIfHeld(ws, field, params.valueId) : undefined;
    await deleteFieldValue(ws, field, params.valueId, query.replaceWith, req, unlessHeld);
    return { status: 204 };
  },
);
