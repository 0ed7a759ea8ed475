// POST /v2/entities/search — body {data: {types, archived?, fields?}}; pageCursor and limit in the
// query. The cursor is bound to the body's `data` too, so a cursor of one search fails on another.
import { ENTITY_TYPES, isEntityType, type EntityType } from '#lib/domain/configurations.ts';
import { checkKnownFields, fieldsFromBody } from '#lib/domain/fields.ts';
import { ApiError, pointer } from '#lib/http/errors.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { api } from '#lib/http/pipeline.ts';
import { entityRecord } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import { configuredFields } from '#lib/store/custom-fields.ts';
import { entitiesAfter, listKeyOf, type Item } from '#lib/store/pages.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function onlyKeys(o: Record<string, unknown>, allowed: readonly string[], path: string[]) {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) {
      throw new ApiError('request.invalid', `Unknown property '${k.slice(0, 100)}'${path.length ? ` in ${path.join('.')}` : ''}; allowed: ${allowed.join(', ')}.`, {
        source: pointer([...path, k]),
      });
    }
  }
}

/** The search body, checked: every mistake answered with a pointer to it. */
function parseSearch(body: unknown): { data: Record<string, unknown>; types: EntityType[]; archived: boolean | undefined } {
  if (!isObject(body)) throw new ApiError('request.invalid', 'The body must be an object {data: {types, archived?, fields?}}.', { source: pointer([]) });
  onlyKeys(body, ['data'], []);
  const data = body.data;
  if (!isObject(data)) throw new ApiError('request.invalid', "'data' is required and must be an object.", { source: pointer(['data']) });
  onlyKeys(data, ['types', 'archived', 'fields'], ['data']);
  if (!Array.isArray(data.types)) throw new ApiError('request.invalid', "'data.types' is required and must be an array of entity types.", { source: pointer(['data', 'types']) });
  if (data.types.length === 0) throw new ApiError('request.invalid', "'data.types' must name at least one entity type.", { source: pointer(['data', 'types']) });
  const types: EntityType[] = [];
  data.types.forEach((t, i) => {
    if (typeof t !== 'string') throw new ApiError('request.invalid', `'data.types[${i}]' must be a string.`, { source: pointer(['data', 'types', i]) });
    if (!isEntityType(t)) {
      throw new ApiError('request.invalid', `Unknown entity type '${t.slice(0, 100)}'; known types: ${ENTITY_TYPES.join(', ')}.`, { source: pointer(['data', 'types', i]) });
    }
    if (!types.includes(t)) types.push(t);
  });
  if (data.archived !== undefined && typeof data.archived !== 'boolean') {
    throw new ApiError('request.invalid', "'data.archived' must be a boolean.", { source: pointer(['data', 'archived']) });
  }
  return { data, types, archived: data.archived as boolean | undefined };
}

export const handler = api('searchEntities', async (req) => {
  const ws = principalOf(req).workspaceId;
  const { data, types, archived } = parseSearch(req.body);
  const selection = fieldsFromBody(data.fields);
  const configured = await configuredFields(ws, types);
  checkKnownFields(selection, configured);
  const page = await pageOf(req, { body: data });
  const keep = archived === undefined ? undefined : (item: Item) => (item.fields?.archived === true) === archived;
  const items = await entitiesAfter(ws, types, stringKey(page.after), page.limit + 1, keep);
  const body = await page.envelope(items, listKeyOf, (rows) =>
    Promise.all(rows.map((item) => entityRecord(ws, item, selection, configured.get(item.type) ?? []))),
  );
  return { status: 200, body };
});
