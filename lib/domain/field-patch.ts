// A `data.patch` (lib/domain/schemas/patch.ts) against the fields of the record's type: each path
// must be one of its fields, a name cannot be cleared, addItems/removeItems only touch list fields.
// The whole-value operations (set, clear) become a FieldWrite — the same custom-field checks and
// member look-ups as `data.fields` — and every operation a PatchOp that lib/domain/patch.ts applies
// to the values stored when the update runs.
import { MEMBER_FIELDS, type CustomFieldCheck, type FieldWrite, type MemberFieldId, type ReferenceFieldId, type StandardFieldCheck } from './entity-fields.ts';
import { InvalidInput, pointer, type Path } from './errors.ts';
import { checkPatch, type ListRule, type PatchOp } from './patch.ts';
import { isUuid } from './schemas/common.ts';
import { MAX_PARTS } from './schemas/conversation.ts';
import { MAX_TAGS, MAX_TEAMS, type MemberInput, type StandardFieldId, type ValueRef } from './schemas/field-values.ts';
import { isListField, type ListFieldId, type PatchInput } from './schemas/patch.ts';

interface FieldPatch {
  write: FieldWrite;
  ops: PatchOp[];
}

const isMemberField = (id: string): id is MemberFieldId => (MEMBER_FIELDS as readonly string[]).includes(id);

const byId = (item: unknown) => String((item as { id?: unknown }).id);

/**
 * An entity's tags and teams are values of the workspace, told apart by id (resolved before the
 * patch applies): the same id again is the same item, whatever name it was stored with.
 */
const ENTITY_LIST_RULES: Partial<Record<ListFieldId, ListRule>> = {
  tags: { key: byId, max: MAX_TAGS, sameKeySameItem: true },
  teams: { key: byId, max: MAX_TEAMS, sameKeySameItem: true },
};

/** A note's tags are labels told apart by name; a conversation's parts by externalId. */
const NOTE_LIST_RULES: Partial<Record<ListFieldId, ListRule>> = {
  tags: { key: (item) => String((item as { name?: unknown }).name), max: MAX_TAGS },
  content: { key: (item) => String((item as { externalId?: unknown }).externalId), max: MAX_PARTS },
};

/** How the items of an entity's list field are told apart and how many it holds. */
export const entityListRuleOf = (field: string): ListRule | undefined => (isListField(field) ? ENTITY_LIST_RULES[field] : undefined);

/** How the items of a note's list field are told apart and how many it holds. */
export const noteListRuleOf = (field: string): ListRule | undefined => (isListField(field) ? NOTE_LIST_RULES[field] : undefined);

const isReference = (field: string, references: readonly ReferenceFieldId[] | undefined): field is ReferenceFieldId =>
  (references ?? []).includes(field as ReferenceFieldId);

export function fieldPatch(
  input: readonly PatchInput[],
  options: {
    standard: readonly StandardFieldId[];
    path: Path;
    custom: CustomFieldCheck;
    what: string;
    check?: StandardFieldCheck | undefined;
    references?: readonly ReferenceFieldId[] | undefined;
  },
): FieldPatch {
  const { standard, path, custom, what, check, references } = options;
  const write: FieldWrite = { values: {}, members: [], references: [] };
  const ops: PatchOp[] = input.map((op, i) => {
    const at = [...path, i];
    const known = (standard as readonly string[]).includes(op.path);
    const field = known ? op.path : isUuid(op.path) ? op.path.toLowerCase() : undefined;
    if (field === undefined) {
      throw new InvalidInput(
        `Unknown field '${op.path.slice(0, 100)}' for ${what}; its fields are ${standard.join(', ')} and its custom fields by id.`,
        pointer([...at, 'path']),
      );
    }
    if (op.op === 'clear') {
      if (field === 'name') throw new InvalidInput('The name cannot be cleared: every record has a name.', pointer([...at, 'path']));
      write.values[field] = null;
      return { op: 'clear', field, path: at };
    }
    if (op.op === 'set') {
      if (isMemberField(field)) write.members.push({ field, ref: op.value as MemberInput, path: [...at, 'value'] });
      else if (isReference(field, references)) write.references.push({ field, items: op.value as ValueRef[], path: [...at, 'value'] });
      else
        write.values[field] = !known
          ? custom(field, op.value, [...at, 'value'])
          : check
            ? check(field as StandardFieldId, op.value, [...at, 'value'])
            : op.value;
      return { op: 'set', field, value: op.value, path: at };
    }
    if (!isListField(field))
      throw new InvalidInput(
        `'${op.op}' applies to a list field (tags, teams, a conversation note's content); '${field}' is not one: use 'set' or 'clear'.`,
        pointer([...at, 'op']),
      );
    if (isReference(field, references))
      write.references.push({ field, items: op.value as ValueRef[], path: [...at, 'value'], op: i, removing: op.op === 'removeItems' });
    return { op: op.op, field, value: op.value as unknown[], path: at };
  });
  checkPatch(ops);
  return { write, ops };
}

/**
 * The operations with each value as resolved for storage: a `set` value from `values` (members as
 * {id, email}, tags and teams as [{id, name}]), the items of an operation on tags or teams from
 * `items` (by the operation's index).
 */
export const resolvedOps = (
  ops: readonly PatchOp[],
  values: Readonly<Record<string, unknown>>,
  items: ReadonlyMap<number, readonly unknown[]> = new Map(),
): PatchOp[] =>
  ops.map((op, i) => (op.op === 'set' ? { ...op, value: values[op.field] } : op.op !== 'clear' && items.has(i) ? { ...op, value: items.get(i)! } : op));
