// GET /v2/entities — `type`/`type[]`, `fields[]`, Productboard's filters (lib/http/list-filters.ts),
// `pageCursor`, `limit`; oldest first.
import { ENTITY_TYPES } from '#lib/domain/configurations.ts';
import { checkKnownFields, fieldsFromQuery } from '#lib/domain/fields.ts';
import { ListEntitiesQuery } from '#lib/domain/schemas/entity.ts';
import { EntityList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { entityQueryOf } from '#lib/http/list-filters.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { entityRecords } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { fieldCatalog } from '#lib/store/custom-fields.ts';
import { entitiesAfter } from '#lib/store/pages.ts';

export const handler = authedApi(routes.listEntities, { query: ListEntitiesQuery, responses: { 200: EntityList } }, async (req, { query }) => {
  const principal = principalOf(req);
  const ws = principal.workspaceId;
  const pii = principal.scopes.has('users:pii:read');
  const named = [...(query.type ? [query.type] : []), ...(query['type[]'] ?? [])];
  const types = named.length ? [...new Set(named)] : [...ENTITY_TYPES];
  const selection = fieldsFromQuery(query);
  const catalog = await fieldCatalog(ws, types);
  checkKnownFields(selection, catalog.configured);
  const page = await pageOf(req, query);
  const slice = await entitiesAfter(ws, await entityQueryOf(ws, types, query, pii), stringKey(page.after), page.limit + 1);
  const body = await page.envelope(slice, (records) => entityRecords(ws, records, selection, catalog, pii));
  return { status: 200, body };
});
