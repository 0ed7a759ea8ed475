// POST /v2/entities/search — the service specification's body {data: {types, archived?, fields?}}
// or Productboard's {data: {filter?, return?}} (lib/domain/schemas/entity.ts); pageCursor and limit
// in the query. The cursor is bound to the body's `data` too, so a cursor of one search fails on another.
import { checkKnownFields, fieldsFromBody } from '#lib/domain/fields.ts';
import { SearchEntitiesBody, SearchEntitiesQuery } from '#lib/domain/schemas/entity.ts';
import { EntityList } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { entitySearchQueryOf } from '#lib/http/list-filters.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { entityRecords } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { fieldCatalog } from '#lib/store/custom-fields.ts';
import { entitiesAfter } from '#lib/store/pages.ts';

export const handler = authedApi(
  routes.searchEntities,
  { query: SearchEntitiesQuery, body: SearchEntitiesBody, responses: { 200: EntityList } },
  async (req, { query, body: { data } }) => {
    const principal = principalOf(req);
    const ws = principal.workspaceId;
    const pii = principal.scopes.has('users:pii:read');
    const search =
      data.form === 'specification'
        ? { types: [...new Set(data.types)], ...(data.archived !== undefined ? { archived: data.archived } : {}) }
        : await entitySearchQueryOf(ws, data.filter, pii);
    const selection = fieldsFromBody(data.fields, data.form === 'specification' ? ['data', 'fields'] : ['data', 'return', 'fields']);
    const catalog = await fieldCatalog(ws, search.types);
    checkKnownFields(selection, catalog.configured);
    const page = await pageOf(req, query, { body: data });
    const slice = await entitiesAfter(ws, search, stringKey(page.after), page.limit + 1);
    const body = await page.envelope(slice, (records) => entityRecords(ws, records, selection, catalog, pii));
    return { status: 200, body };
  },
);
