// GET /v2/entities — `type`/`type[]`, `fields[]`, `pageCursor`, `limit`; oldest first.
import { checkKnownFields, fieldsFromQuery } from '#lib/domain/fields.ts';
import { typesFromQuery } from '#lib/http/entity-types.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { api } from '#lib/http/pipeline.ts';
import { entityRecord } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import { configuredFields } from '#lib/store/custom-fields.ts';
import { entitiesAfter } from '#lib/store/pages.ts';

export const handler = api('listEntities', async (req) => {
  const ws = principalOf(req).workspaceId;
  const types = typesFromQuery(req.query);
  const selection = fieldsFromQuery(req.query);
  const configured = await configuredFields(ws, types);
  checkKnownFields(selection, configured);
  const page = await pageOf(req);
  const slice = await entitiesAfter(ws, { types }, stringKey(page.after), page.limit + 1);
  const body = await page.envelope(
    slice.items,
    (item) => item.position,
    (rows) => Promise.all(rows.map(({ record }) => entityRecord(ws, record, selection, configured.get(record.type) ?? []))),
    slice.resume,
  );
  return { status: 200, body };
});
