// DELETE /v2/entities/fields/{id}/values/{valueId} — delete a tag value or a select option: it is
// cleared from every record that holds it (`replaceWith`: those records hold that value instead).
import { InvalidInput, parameter } from '#lib/domain/errors.ts';
import { DeleteFieldValueQuery, FieldValuePath } from '#lib/domain/schemas/value-sets.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { deleteFieldValue, valueFieldOf } from '#lib/store/field-values.ts';

export const handler = authedApi(
  routes.deleteEntityFieldValue,
  { params: FieldValuePath, query: DeleteFieldValueQuery, responses: { 204: null } },
  async (req, { params, query }) => {
    if (query.force === false) {
      throw new InvalidInput(
        'force=false asks to refuse a value records still hold; this service always clears a deleted value from every record (force=true), so omit force or send true.',
        parameter('force'),
      );
    }
    if (query.force === true && query.replaceWith !== undefined)
      throw new InvalidInput('force and replaceWith exclude each other: give one of them.', parameter('replaceWith'));
    const ws = principalOf(req).workspaceId;
    const field = await valueFieldOf(ws, params.id);
    await deleteFieldValue(ws, field, params.valueId, query.replaceWith, req);
    return { status: 204 };
  },
);
