// A `data.patch` (lib/domain/schemas/patch.ts) against the fields of the record's type: each path
// must be one of its fields, a name cannot be cleared, addItems/removeItems only touch list fields.
// The whole-value operations (set, clear) become a FieldWrite — the same custom-field checks and
// member look-ups as `data.fields` — and every operation a PatchOp that lib/domain/patch.ts applies
// to the values stored when the update runs.
import { MEMBER_FIELDS, type CustomFieldCheck, type FieldWrite, type MemberFieldId, type StandardFieldCheck } from './entity-fields.ts';
import { InvalidInput, pointer, type Path } from './errors.ts';
import { checkPatch, type ListRule, type PatchOp } from './patch.ts';
import { isUuid } from './schemas/common.ts';
import { MAX_PARTS } from './schemas/conversation.ts';
import { MAX_TAGS, type MemberInput, type StandardFieldId } from './schemas/field-values.ts';
import { isListField, type ListFieldId, type PatchInput } from './schemas/patch.ts';

export interface FieldPatch {
  write: FieldWrite;
  ops: PatchOp[];
}

const isMemberField = (id: string): id is MemberFieldId => (MEMBER_FIELDS as readonly string[]).includes(id);

const LIST_RULES: Record<ListFieldId, ListRule> = {
  tags: { key: (item) => String((item as { name?: unknown }).name), max: MAX_TAGS },
  content: { key: (item) => String((item as { externalId?: unknown }).externalId), max: MAX_PARTS },
};

/** How the items of a list field are told apart (tags by name, conversation parts by externalId) and how many it holds. */
export const listRuleOf = (field: string): ListRule | undefined => (isListField(field) ? LIST_RULES[field] : undefined);

export function fieldPatch(
  input: readonly PatchInput[],
  options: { standard: readonly StandardFieldId[]; path: Path; custom: CustomFieldCheck; what: string; check?: StandardFieldCheck | undefined },
): FieldPatch {
  const { standard, path, custom, what, check } = options;
  const write: FieldWrite = { values: {}, members: [] };
  const ops: PatchOp[] = input.map((op, i) => {
    const at = [...path, i];
    const known = (standard as readonly string[]).includes(op.path);
    const field = known ? op.path : isUuid(op.path) ? op.path.toLowerCase() : undefined;
    if (field === undefined) {
      throw new InvalidInput(`Unknown field '${op.path.slice(0, 100)}' for ${what}; its fields are ${standard.join(', ')} and its custom fields by id.`, pointer([...at, 'path']));
    }
    if (op.op === 'clear') {
      if (field === 'name') throw new InvalidInput("The name cannot be cleared: every record has a name.", pointer([...at, 'path']));
      write.values[field] = null;
      return { op: 'clear', field, path: at };
    }
    if (op.op === 'set') {
      if (isMemberField(field)) write.members.push({ field, ref: op.value as MemberInput, path: [...at, 'value'] });
      else if (known) {
        check?.(field as StandardFieldId, op.value, [...at, 'value']);
        write.values[field] = op.value;
      } else write.values[field] = custom(field, op.value, [...at, 'value']);
      return { op: 'set', field, value: op.value, path: at };
    }
    if (!isListField(field)) throw new InvalidInput(`'${op.op}' applies to a list field (tags, a conversation note's content); '${field}' is not one: use 'set' or 'clear'.`, pointer([...at, 'op']));
    return { op: op.op, field, value: op.value as unknown[], path: at };
  });
  checkPatch(ops);
  return { write, ops };
}

/** The operations with each `set` value as resolved for storage (members as {id, email}). */
export const resolvedOps = (ops: readonly PatchOp[], values: Readonly<Record<string, unknown>>): PatchOp[] =>
  ops.map((op) => (op.op === 'set' ? { ...op, value: values[op.field] } : op));
