// POST /v2/entities — create a hierarchy or customer entity, optionally under a parent, with its metadata.source.
import { config } from '#lib/config.ts';
import { ENTITY_FIELDS, entityFieldCheck, fieldWrite, REFERENCE_FIELDS } from '#lib/domain/entity-fields.ts';
import { entityReference } from '#lib/domain/entity-view.ts';
import { aType } from '#lib/domain/hierarchy.ts';
import { CreateEntityBody } from '#lib/domain/schemas/entity-writes.ts';
import { EntityReferenceResponse } from '#lib/domain/schemas/responses.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';
import { customFieldCheck } from '#lib/store/custom-fields.ts';
import { createEntity } from '#lib/store/entity-writes.ts';
import { resolveFieldRefs } from '#lib/store/field-refs.ts';

export const handler = authedApi(
  routes.createEntity,
  { body: CreateEntityBody, responses: { 201: EntityReferenceResponse }, errors: ['resource.notFound'], headers: { idempotencyKey: true } },
  async (req, { body }) => {
    const ws = principalOf(req).workspaceId;
    const { type, fields, relationships, metadata } = body.data;
    const custom = await customFieldCheck(ws, type);
    const write = fieldWrite(fields, {
      standard: ENTITY_FIELDS[type],
      mode: 'create',
      path: ['data', 'fields'],
      custom,
      what: aType(type),
      check: entityFieldCheck(type),
      references: REFERENCE_FIELDS,
    });
    const values = await resolveFieldRefs(ws, write);
    const entity = await createEntity(
      ws,
      { type, values, references: write.references, parent: relationships?.[0]?.target, parentPath: ['data', 'relationships', 0, 'target', 'id'], metadata },
      req,
    );
    return { status: 201, body: { data: entityReference(config.urls, entity) } };
  },
);
