// The values of a field, as Productboard's field-value operations read and write them
// (/v2/entities/fields/{id}/values[/{valueId}]): the workspace's tag values, a custom select
// field's options, each entity type's status values (lib/domain/field-values.ts).
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedString, strictObject } from './build.ts';
import { dataOf, listOf, nonBlank, pageParameters, repeated, SelfLinks, Uuid } from './common.ts';
import { EntityType } from './entity.ts';
import { MAX_NAME } from './field-values.ts';
import { SELECT_COLORS } from '../field-values.ts';

const SelectColor = /* @__PURE__ */ (() => doc(z.enum(SELECT_COLORS), { id: 'SelectOptionColor' }))();

/** `{id}` of the routes: `tags`, `status`, or a custom select field's uuid. */
export const FieldValuesPath = /* @__PURE__ */ (() =>
  strictObject({
    id: doc(checkedString(z.minLength(1), z.maxLength(200)), "The field: 'tags', 'status', or a custom select field's id"),
  }))();

export const FieldValuePath = /* @__PURE__ */ (() =>
  strictObject({
    id: doc(checkedString(z.minLength(1), z.maxLength(200)), "The field: 'tags' or a custom select field's id"),
    valueId: Uuid,
  }))();

export const ListFieldValuesQuery = /* @__PURE__ */ (() =>
  strictObject({
    'assignedEntityType[]': doc(repeated(EntityType), 'Keeps the values records of these types can hold (a status value: assigned to one of them)'),
    ...pageParameters,
  }))();

/** A value's fields as a create gives them (a restored tag value record is held to them too). */
export const FieldValueFields = /* @__PURE__ */ (() => strictObject({ name: nonBlank(MAX_NAME), color: z.optional(SelectColor) }))();

export const CreateFieldValueBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: strictObject({ fields: FieldValueFields }),
    }),
    { id: 'CreateFieldValueBody' },
  ))();

export const UpdateFieldValueBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: strictObject({
        fields: strictObject(
          { name: z.optional(nonBlank(MAX_NAME)), color: z.optional(SelectColor) },
          z.refine((f) => f.name !== undefined || f.color !== undefined, { error: 'changes nothing: give a name, a color or both' }),
        ),
      }),
    }),
    { id: 'UpdateFieldValueBody' },
  ))();

export const DeleteFieldValueQuery = /* @__PURE__ */ (() =>
  strictObject({
    force: z.optional(
      doc(z.boolean(), 'true: the value is cleared from every entity that holds it; otherwise (the default) a value an entity holds is not deleted'),
    ),
    replaceWith: z.optional(doc(Uuid, 'Another value of the field that every record holding the deleted one then holds')),
  }))();

// ---- Read shapes.

const SelectOptionValue = /* @__PURE__ */ (() =>
  doc(strictObject({ id: Uuid, fields: strictObject({ name: z.string(), color: SelectColor }) }), { id: 'SelectOptionValue' }))();
const StatusValue = /* @__PURE__ */ (() =>
  doc(strictObject({ id: Uuid, fields: strictObject({ name: z.string(), assignedEntityTypes: z.array(EntityType) }) }), { id: 'StatusValue' }))();
export const FieldValueList = /* @__PURE__ */ (() => doc(listOf(z.union([SelectOptionValue, StatusValue])), { id: 'FieldValueList' }))();
export const FieldValueReferenceResponse = /* @__PURE__ */ (() =>
  doc(dataOf(strictObject({ id: Uuid, links: SelfLinks })), { id: 'FieldValueReferenceResponse' }))();
