// Productboard's PATCH operations on fields (`data.patch` of updateEntity and updateNote): `set`
// a value, `clear` it, `addItems` to or `removeItems` from a list field. `path` names a field (its
// id: `name`, `tags`, a custom field's uuid) or a part of one (`timeframe.endDate`: set and clear
// only), not a JSON pointer. The values are parsed by the field's own parser before they get here;
// this module checks how operations combine and applies them to the stored values.
import { InvalidInput, pointer, type Path } from './errors.ts';

/** `part`: the operation sets or clears that part of the field (`timeframe.endDate`), not all of it. */
export type PatchOp =
  | { op: 'set'; field: string; part?: string; value: unknown; path: Path }
  | { op: 'clear'; field: string; part?: string; path: Path }
  | { op: 'addItems' | 'removeItems'; field: string; value: readonly unknown[]; path: Path };

/**
 * How a list field's items are told apart (tags by name, conversation parts by externalId), and how
 * many the field holds at most.
 */
export interface ListRule {
  key: (item: unknown) => string;
  max: number;
  /** Items with one key are one item whatever else they carry (values of the workspace, by id). */
  sameKeySameItem?: boolean;
}

/** The path an operation names: the field, or the part of it (`timeframe.endDate`). */
const pathOf = (op: PatchOp) => ('part' in op && op.part !== undefined ? `${op.field}.${op.part}` : op.field);

/**
 * Refuses operations that contradict each other on one field: `set` and `clear`, either of them
 * with `addItems`/`removeItems`, the same `set`/`clear` twice, or the whole field with a part of it.
 * `addItems` and `removeItems` together are fine (applied in the order given), as are several parts
 * of one field.
 */
export function checkPatch(ops: readonly PatchOp[]): void {
  const seen = new Map<string, Set<PatchOp['op']>>();
  const firstPath = new Map<string, string>();
  for (const op of ops) {
    const path = pathOf(op);
    const before = seen.get(path) ?? new Set();
    const whole = op.op === 'set' || op.op === 'clear';
    const clash = whole
      ? [...before].find((o) => o === 'set' || o === 'clear' || o === 'addItems' || o === 'removeItems')
      : [...before].find((o) => o === 'set' || o === 'clear');
    if (clash) throw new InvalidInput(`Field '${path}' gets '${clash}' and '${op.op}' in one patch; use one of them.`, pointer(op.path));
    // Which of the whole field and its part would win is not for the order of operations to decide.
    const other = firstPath.get(op.field) ?? path;
    if ((other === op.field) !== (path === op.field))
      throw new InvalidInput(`'${other}' and '${path}' are both changed in one patch; change the whole field or its parts, not both.`, pointer(op.path));
    firstPath.set(op.field, other);
    before.add(op.op);
    seen.set(path, before);
  }
}

/**
 * Checks the value a composite field holds once a patch changed parts of it (null or undefined: it
 * has none); throws InvalidInput located at `last`, the last operation on a part of it.
 */
export type PartsCheck = (value: unknown, last: PatchOp) => void;

/** Two items with the same properties (items are flat objects; a stored map keeps no key order). */
function sameItem(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k]);
}

/**
 * The fields to write after applying `ops` to `current` (the stored values): a value per field
 * touched, null for one cleared. A list left empty by removeItems is cleared. Adding an item that is
 * already there as it is, or removing one that is not there, changes nothing (a retried patch does
 * no harm); adding an item whose key is there with other values is refused, since it would be
 * dropped unseen (remove it first in the same patch to replace it); a list may not outgrow its rule.
 * An operation on a part sets or removes that property of the field's value, and `partsCheck` judges
 * the value the parts make.
 */
export function applyPatch(
  current: Readonly<Record<string, unknown>>,
  ops: readonly PatchOp[],
  listRule: (field: string) => ListRule | undefined,
  partsCheck: (field: string) => PartsCheck | undefined = () => undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const valueOf = (field: string) => (field in out ? out[field] : current[field]);
  const lastPartOp = new Map<string, PatchOp>();
  for (const op of ops) {
    if ((op.op === 'set' || op.op === 'clear') && op.part !== undefined) {
      const before = valueOf(op.field);
      const parts = before !== null && typeof before === 'object' ? { ...(before as Record<string, unknown>) } : undefined;
      // A part of a field that has no value: a clear has nothing to clear, a set starts the value.
      if (op.op === 'set') out[op.field] = { ...parts, [op.part]: op.value };
      else if (parts) {
        delete parts[op.part];
        out[op.field] = parts;
      }
      lastPartOp.set(op.field, op);
    } else if (op.op === 'set') out[op.field] = op.value;
    else if (op.op === 'clear') out[op.field] = null;
    else {
      const rule = listRule(op.field);
      if (!rule) throw new InvalidInput(`Field '${op.field}' is not a list: '${op.op}' does not apply to it.`, pointer(op.path));
      const { key, max, sameKeySameItem } = rule;
      const list = Array.isArray(valueOf(op.field)) ? [...(valueOf(op.field) as unknown[])] : [];
      if (op.op === 'removeItems') {
        const keys = new Set(op.value.map(key));
        const kept = list.filter((item) => !keys.has(key(item)));
        out[op.field] = kept.length ? kept : null;
      } else {
        const have = new Map(list.map((item) => [key(item), item]));
        op.value.forEach((item, i) => {
          const there = have.get(key(item));
          if (there === undefined) {
            list.push(item);
            have.set(key(item), item);
          } else if (!sameKeySameItem && !sameItem(there, item)) {
            throw new InvalidInput(
              `Field '${op.field}' already has an item '${key(item).slice(0, 100)}' with other values; remove it first ('removeItems' before this 'addItems', in the same patch) to replace it.`,
              pointer([...op.path, 'value', i]),
            );
          }
        });
        if (list.length > max)
          throw new InvalidInput(
            `Field '${op.field}' would hold ${list.length} items after this operation; it holds at most ${max}.`,
            pointer([...op.path, 'value']),
          );
        out[op.field] = list;
      }
    }
  }
  for (const [field, last] of lastPartOp) partsCheck(field)?.(valueOf(field), last);
  return out;
}
