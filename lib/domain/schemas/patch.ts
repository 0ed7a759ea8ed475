// `data.patch` of updateEntity and updateNote: Productboard's field operations. `path` names a field
// (`name`, `tags`, a custom field's uuid) or a part of one (`timeframe.endDate`), not a JSON pointer. A value is parsed by the write shape
// of the field it names (lib/domain/schemas/field-values.ts), so a patch stores exactly what the
// same value under `data.fields` would; which fields the record's type has, and how operations
// combine, is checked once the record is read (lib/domain/field-patch.ts).
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, checkedString, strictObject } from './build.ts';
import type { FieldTable, StandardFieldId } from './field-values.ts';
import { SERVICE_WORDS } from '../input.ts';

/**
 * The list fields: the ones `addItems` and `removeItems` apply to (what each takes: its `items` in
 * ./field-values.ts). A note's content is one only on a conversation note (lib/domain/note-content.ts).
 */
const LIST_FIELDS = ['tags', 'teams', 'content'] as const satisfies readonly StandardFieldId[];
export type ListFieldId = (typeof LIST_FIELDS)[number];
export const isListField = (id: string): id is ListFieldId => (LIST_FIELDS as readonly string[]).includes(id);

const FieldPath = /* @__PURE__ */ (() =>
  doc(
    checkedString(z.minLength(1), z.maxLength(200)),
    "A field's id: a standard field (`name`, `tags`, `owner`, …), a part of a timeframe (`timeframe.startDate`, `timeframe.endDate`, `timeframe.granularity`) or a custom field's uuid",
  ))();
const Value = /* @__PURE__ */ (() =>
  doc(
    z.unknown(),
    "A value of the field (its write shape, as under `data.fields`); for addItems and removeItems a list of the field's items (a conversation's parts are removed by externalId)",
  ))();

// Discriminated by `op`, so a refusal names what the operation it names lacks ("value is required").
const Operation = /* @__PURE__ */ (() =>
  z.discriminatedUnion('op', [
    strictObject({ op: z.enum(['set', 'addItems', 'removeItems']), path: FieldPath, value: Value }),
    strictObject({ op: z.literal('clear'), path: FieldPath }),
  ]))();

export type PatchInput = { op: 'set' | 'addItems' | 'removeItems'; path: string; value: unknown } | { op: 'clear'; path: string };

/**
 * The schema a value must satisfy: the write shape (or the list items) of the field in `table`, the
 * fields of the record's kind; undefined when the path is no such field (lib/domain/field-patch.ts
 * refuses it once the record is read: a field the kind does not have is unknown to its every type).
 */
function valueSchema(op: PatchInput, table: FieldTable): z.ZodMiniType | undefined {
  if (op.op === 'clear') return undefined;
  // A part of a composite field (`timeframe.endDate`): what a set of that part takes.
  const [id = '', part, ...more] = op.path.split('.');
  if (!Object.hasOwn(table, id) || more.length) return undefined;
  const field = table[id as StandardFieldId];
  if (part !== undefined) {
    const parts = op.op === 'set' ? field?.parts?.() : undefined;
    return parts && Object.hasOwn(parts, part) ? parts[part] : undefined;
  }
  return op.op === 'set' ? field?.write : field?.items?.()[op.op];
}

/**
 * The operations as the document shows them: their values are any JSON until patchOf() parses them.
 * A pipe, as FieldPatch has always been one: the document stays the same, key order included.
 */
const Operations = /* @__PURE__ */ (() =>
  doc(
    z.pipe(
      checkedArray(Operation, z.minLength(1), z.maxLength(100)),
      z.transform((ops): PatchInput[] => ops),
    ),
    { id: 'FieldPatch', description: 'Field operations, applied in order: set, clear, addItems, removeItems' },
  ))();

/**
 * The operations, in order, each value parsed by its field's write shape in `table`: one kind's
 * fields, so an update of an entity builds no note field's schema and the reverse.
 */
export const patchOf = (table: FieldTable) =>
  z.pipe(
    Operations,
    z.transform((ops, ctx): PatchInput[] =>
      ops.map((op, i) => {
        const schema = valueSchema(op, table);
        if (!schema || !('value' in op)) return op;
        const parsed = schema.safeParse(op.value, SERVICE_WORDS);
        if (parsed.success) return { ...op, value: parsed.data };
        for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, path: [i, 'value', ...issue.path], input: op.value } as never);
        return op;
      }),
    ),
  );
