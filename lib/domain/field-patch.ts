// A `data.patch` (lib/domain/schemas/patch.ts) against the fields of the record's type: each path
// must be one of its fields or a part of one (`timeframe.endDate`), a name cannot be cleared, nor a
// timeframe's date alone, addItems/removeItems only touch list fields.
// The whole-value operations (set, clear) become a FieldWrite — the same custom-field checks and
// member look-ups as `data.fields` — and every operation a PatchOp that lib/domain/patch.ts applies
// to the values stored when the update runs.
import { MEMBER_FIELDS, type CustomFieldCheck, type FieldWrite, type MemberFieldId, type ReferenceFieldId, type StandardFieldCheck } from './entity-fields.ts';
import { InvalidInput, pointer, type Path } from './errors.ts';
import { checkPatch, type ListRule, type PartsCheck, type PatchOp } from './patch.ts';
import { isUuid } from './schemas/common.ts';
import { MAX_PARTS } from './schemas/conversation.ts';
import { MAX_TAGS, MAX_TEAMS, partsOf, type MemberInput, type StandardFieldId, type ValueRef } from './schemas/field-values.ts';
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

/** The parts a timeframe cannot be without: it has both dates, its granularity is optional. */
const TIMEFRAME_DATES: readonly string[] = ['startDate', 'endDate'];

/**
 * A timeframe that parts of a patch changed has both dates and does not end before it starts: a
 * part set on an entity that has no timeframe needs the other date set in the same patch.
 */
const checkTimeframe: PartsCheck = (value, last) => {
  if (value === null || value === undefined) return;
  const { startDate, endDate } = value as { startDate?: string; endDate?: string };
  const path = `timeframe.${'part' in last ? last.part : ''}`;
  if (startDate === undefined || endDate === undefined)
    throw new InvalidInput(
      `The entity has no timeframe for '${path}' to be part of: a timeframe has both dates, so set 'timeframe' whole or both 'timeframe.startDate' and 'timeframe.endDate' in this patch.`,
      pointer([...last.path, 'path']),
    );
  if (endDate < startDate)
    throw new InvalidInput(
      `With '${path}' the timeframe would end on ${endDate}, before it starts on ${startDate}; a timeframe may not end before it starts.`,
      pointer([...last.path, 'value']),
    );
};

/** How the value a patch makes of an entity's composite field's parts is checked. */
export const entityPartsCheckOf = (field: string): PartsCheck | undefined => (field === 'timeframe' ? checkTimeframe : undefined);

const isReference = (field: string, references: readonly ReferenceFieldId[] | undefined): field is ReferenceFieldId =>
  (references ?? []).includes(field as ReferenceFieldId);

/** An operation on a part of a composite field: set or clear it; a timeframe's dates are not cleared alone. */
function partOp(op: PatchInput, field: string, part: string, at: Path): PatchOp {
  const path = `${field}.${part}`;
  if (op.op === 'clear') {
    if (field === 'timeframe' && TIMEFRAME_DATES.includes(part))
      throw new InvalidInput(
        `'${path}' cannot be cleared: a timeframe has both dates. Clear 'timeframe' to remove the timeframe, or set '${path}' to another date.`,
        pointer([...at, 'path']),
      );
    return { op: 'clear', field, part, path: at };
  }
  if (op.op === 'set') return { op: 'set', field, part, value: op.value, path: at };
  throw new InvalidInput(
    `'${op.op}' applies to a list field (tags, teams, a conversation note's content); '${path}' is not one: use 'set' or 'clear'.`,
    pointer([...at, 'op']),
  );
}

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
    const [parent = '', part = ''] = op.path.split('.', 2);
    const ofPart = field === undefined && (standard as readonly string[]).includes(parent) && partsOf(parent).includes(part) && op.path === `${parent}.${part}`;
    if (ofPart) return partOp(op, parent, part, at);
    if (field === undefined) {
      const parts = standard.flatMap((id) => partsOf(id).map((p) => `${id}.${p}`));
      throw new InvalidInput(
        `Unknown field '${op.path.slice(0, 100)}' for ${what}; its fields are ${standard.join(', ')}${parts.length ? ` (with the parts ${parts.join(', ')})` : ''} and its custom fields by id.`,
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
 * `items` (by the operation's index); a part's value is stored as written.
 */
export const resolvedOps = (
  ops: readonly PatchOp[],
  values: Readonly<Record<string, unknown>>,
  items: ReadonlyMap<number, readonly unknown[]> = new Map(),
): PatchOp[] =>
  ops.map((op, i) =>
    op.op === 'set'
      ? op.part === undefined
        ? { ...op, value: values[op.field] }
        : op
      : op.op !== 'clear' && items.has(i)
        ? { ...op, value: items.get(i)! }
        : op,
  );
