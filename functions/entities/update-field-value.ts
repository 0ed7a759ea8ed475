// PATCH /v2/entities/fields/{id}/values/{valueId} — rename or recolor a tag value or a select
// option: every record that holds it reads the new name at once.
import { config } from '#lib/config.ts';
import { fieldValueReference } from '#lib/domain/field-values.ts';
import { FieldValueReferenceResponse } from '#lib/domain/schemas/responses.ts';
import { FieldValuePath, UpdateFieldValueBody } from '#lib/domain/schemas/value-sets.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { updateFieldValue, valueFieldOf } from '#lib/store/field-values.ts';

export const handler = authedApi(
  routes.updateEntityFieldValue,
  { params: FieldValuePath, body: UpdateFieldValueBody, responses: { 200: FieldValueReferenceResponse }, errors: ['conflict.uniqueViolation'] },
  async (req, { params, body }) => {
    const ws = principalOf(req).workspaceId;
    const field = await valueFieldOf(ws, params.id);
    const value = await updateFieldValue(ws, field, params.valueId, body.data.fields, req);
    return { status: 200, body: { data: fieldValueReference(config.baseUrl, params.id, value.id) } };
  },
);
