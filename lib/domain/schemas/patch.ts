// `data.patch` of updateEntity and updateNote: Productboard's field operations. `path` names a field
// (`name`, `tags`, a custom field's uuid), not a JSON pointer. A value is parsed by the write shape
// of the field it names (lib/domain/schemas/field-values.ts), so a patch stores exactly what the
// same value under `data.fields` would; which fields the record's type has, and how operations
// combine, is checked once the record is read (lib/domain/field-patch.ts).
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, checkedString, strictObject } from './build.ts';
import { ConversationPartRefs, ConversationPartsInput } from './conversation.ts';
import { STANDARD_FIELDS, TagsInput, type StandardFieldId } from './field-values.ts';

/**
 * The list fields: the ones `addItems` and `removeItems` apply to, with what each takes. A note's
 * content is one only on a conversation note (lib/domain/note-content.ts); its parts are removed by
 * externalId.
 */
export const LIST_FIELDS = {
  tags: { addItems: TagsInput, removeItems: TagsInput },
  content: { addItems: ConversationPartsInput, removeItems: ConversationPartRefs },
} as const satisfies Partial<Record<StandardFieldId, Record<'addItems' | 'removeItems', z.ZodMiniType>>>;
export type ListFieldId = keyof typeof LIST_FIELDS;
export const isListField = (id: string): id is ListFieldId => Object.hasOwn(LIST_FIELDS, id);

const FieldPath = /* @__PURE__ */ (() => doc(checkedString(z.minLength(1), z.maxLength(200)), "A field's id: a standard field (`name`, `tags`, `owner`, …) or a custom field's uuid"))();
const Value = /* @__PURE__ */ (() => doc(z.unknown(), "A value of the field (its write shape, as under `data.fields`); for addItems and removeItems a list of the field's items (a conversation's parts are removed by externalId)"))();

const Operation = /* @__PURE__ */ (() => z.union([
  strictObject({ op: z.enum(['set', 'addItems', 'removeItems']), path: FieldPath, value: Value }),
  strictObject({ op: z.literal('clear'), path: FieldPath }),
]))();

export type PatchInput = { op: 'set' | 'addItems' | 'removeItems'; path: string; value: unknown } | { op: 'clear'; path: string };

const isStandard = (id: string): id is StandardFieldId => Object.hasOwn(STANDARD_FIELDS, id);

/** The schema a value must satisfy, or undefined when the path is no standard field (checked later). */
function valueSchema(op: PatchInput): z.ZodMiniType | undefined {
  if (op.op === 'clear') return undefined;
  if (op.op === 'set') return isStandard(op.path) ? STANDARD_FIELDS[op.path].write : undefined;
  return isListField(op.path) ? LIST_FIELDS[op.path][op.op] : undefined;
}

/** The operations, in order, each value parsed by its field's write shape. */
export const Patch = /* @__PURE__ */ (() => doc(z.pipe(
    checkedArray(Operation, z.minLength(1), z.maxLength(100)),
    z.transform((ops, ctx): PatchInput[] =>
      ops.map((op, i) => {
        const schema = valueSchema(op);
        if (!schema || !('value' in op)) return op;
        const parsed = schema.safeParse(op.value);
        if (parsed.success) return { ...op, value: parsed.data };
        for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, path: [i, 'value', ...issue.path], input: op.value } as never);
        return op;
      }),
    ),
  ), { id: 'FieldPatch', description: 'Field operations, applied in order: set, clear, addItems, removeItems' }))();
