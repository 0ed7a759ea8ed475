// GET /v2/entities/fields/{id}/values — the values of the tags, the status field or a custom select
// field (lib/store/field-values.ts), `assignedEntityType[]` keeping those records of these types can
// hold; `pageCursor`, `limit`.
import { selectValueView, statusValueView } from '#lib/domain/field-values.ts';
import { FieldValueList } from '#lib/domain/schemas/responses.ts';
import { FieldValuesPath, ListFieldValuesQuery } from '#lib/domain/schemas/value-sets.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { valueFieldOf } from '#lib/store/field-values.ts';
import { fieldValuesAfter } from '#lib/store/pages.ts';

export const handler = authedApi(
  routes.listEntityFieldValues,
  { params: FieldValuesPath, query: ListFieldValuesQuery, responses: { 200: FieldValueList } },
  async (req, { params, query }) => {
    const ws = principalOf(req).workspaceId;
    const field = await valueFieldOf(ws, params.id);
    const page = await pageOf(req, query);
    const slice = await fieldValuesAfter(ws, field, query['assignedEntityType[]'], stringKey(page.after), page.limit + 1);
    const body = await page.envelope(slice, (records) =>
      records.map((record) => (record.kind === 'status' ? statusValueView(record.value) : selectValueView(record.value))),
    );
    return { status: 200, body };
  },
);
