// POST /v2/entities/fields/{id}/values — a new tag value or option of a custom select field (its
// name free in the field, any case); status values are each type's fixed set and cannot be added.
import { config } from '#lib/config.ts';
import { fieldValueReference } from '#lib/domain/field-values.ts';
import { FieldValueReferenceResponse } from '#lib/domain/schemas/responses.ts';
import { CreateFieldValueBody, FieldValuesPath } from '#lib/domain/schemas/value-sets.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { createFieldValue, valueFieldOf } from '#lib/store/field-values.ts';

export const handler = authedApi(
  routes.createEntityFieldValue,
  {
    params: FieldValuesPath,
    body: CreateFieldValueBody,
    responses: { 201: FieldValueReferenceResponse },
    errors: ['resource.notFound', 'conflict.uniqueViolation'],
    headers: { idempotencyKey: true },
  },
  async (req, { params, body }) => {
    const ws = principalOf(req).workspaceId;
    const field = await valueFieldOf(ws, params.id);
    const value = await createFieldValue(ws, field, body.data.fields, req);
    return { status: 201, body: { data: fieldValueReference(config.baseUrl, params.id, value.id) } };
  },
);
