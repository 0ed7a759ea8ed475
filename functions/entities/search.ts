// POST /v2/entities/search — body {data: {types, archived?, fields?}}; pageCursor and limit in the
// query. The cursor is bound to the body's `data` too, so a cursor of one search fails on another.
import { ENTITY_TYPES, isEntityType, type EntityType } from '#lib/domain/configurations.ts';
import { checkKnownFields, fieldsFromBody } from '#lib/domain/fields.ts';
import { array, data, invalid, object, onlyKeys, string } from '#lib/domain/input.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { api } from '#lib/http/pipeline.ts';
import { entityRecord } from '#lib/http/records.ts';
import { principalOf } from '#lib/http/request.ts';
import { configuredFields } from '#lib/store/custom-fields.ts';
import { entitiesAfter } from '#lib/store/pages.ts';

/** The search body, checked: every mistake answered with a pointer to it. */
function parseSearch(body: unknown): { data: Record<string, unknown>; types: EntityType[]; archived: boolean | undefined } {
  onlyKeys(object(body, []), ['data'], []);
  const d = data(body);
  onlyKeys(d, ['types', 'archived', 'fields'], ['data']);
  if (d.types === undefined) invalid(['data', 'types'], "'data/types' is required: an array of entity types.");
  const list = array(d.types, ['data', 'types']);
  if (list.length === 0) invalid(['data', 'types'], "'data/types' must name at least one entity type.");
  const types: EntityType[] = [];
  list.forEach((t, i) => {
    const name = string(t, ['data', 'types', i]);
    if (!isEntityType(name)) invalid(['data', 'types', i], `Unknown entity type '${name.slice(0, 100)}'; known types: ${ENTITY_TYPES.join(', ')}.`);
    if (!types.includes(name)) types.push(name);
  });
  if (d.archived !== undefined && typeof d.archived !== 'boolean') invalid(['data', 'archived'], "'data/archived' must be a boolean.");
  return { data: d, types, archived: d.archived };
}

export const handler = api('searchEntities', async (req) => {
  const ws = principalOf(req).workspaceId;
  const { data, types, archived } = parseSearch(req.body);
  const selection = fieldsFromBody(data.fields);
  const configured = await configuredFields(ws, types);
  checkKnownFields(selection, configured);
  const page = await pageOf(req, { body: data });
  const slice = await entitiesAfter(ws, { types, archived }, stringKey(page.after), page.limit + 1);
  const body = await page.envelope(
    slice.items,
    (item) => item.position,
    (rows) => Promise.all(rows.map(({ record }) => entityRecord(ws, record, selection, configured.get(record.type) ?? []))),
    slice.resume,
  );
  return { status: 200, body };
});
