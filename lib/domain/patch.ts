// Productboard's PATCH operations on fields (`data.patch` of updateEntity and updateNote): `set`
// a value, `clear` it, `addItems` to or `removeItems` from a list field. `path` names a field (its
// id: `name`, `tags`, a custom field's uuid), not a JSON pointer. The values are parsed by the
// field's own parser before they get here; this module checks how operations combine and applies
// them to the stored values.
import { InvalidInput, pointer, type Path } from './errors.ts';

export type PatchOp =
  | { op: 'set'; field: string; value: unknown; path: Path }
  | { op: 'clear'; field: string; path: Path }
  | { op: 'addItems' | 'removeItems'; field: string; value: readonly unknown[]; path: Path };

/** A list field's items are told apart by this key (tags by name, conversation parts by externalId). */
export type ItemKey = (item: unknown) => string;

/**
 * Refuses operations that contradict each other on one field: `set` and `clear`, either of them
 * with `addItems`/`removeItems`, or the same `set`/`clear` twice. `addItems` and `removeItems`
 * together are fine (applied in the order given).
 */
export function checkPatch(ops: readonly PatchOp[]): void {
  const seen = new Map<string, Set<PatchOp['op']>>();
  for (const op of ops) {
    const before = seen.get(op.field) ?? new Set();
    const whole = op.op === 'set' || op.op === 'clear';
    const clash = whole ? [...before].find((o) => o === 'set' || o === 'clear' || o === 'addItems' || o === 'removeItems') : [...before].find((o) => o === 'set' || o === 'clear');
    if (clash) throw new InvalidInput(`Field '${op.field}' gets '${clash}' and '${op.op}' in one patch; use one of them.`, pointer(op.path));
    before.add(op.op);
    seen.set(op.field, before);
  }
}

/**
 * The fields to write after applying `ops` to `current` (the stored values): a value per field
 * touched, null for one cleared. A list left empty by removeItems is cleared. Adding an item whose
 * key is already there, or removing one that is not, changes nothing.
 */
export function applyPatch(current: Readonly<Record<string, unknown>>, ops: readonly PatchOp[], itemKey: (field: string) => ItemKey | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const valueOf = (field: string) => (field in out ? out[field] : current[field]);
  for (const op of ops) {
    if (op.op === 'set') out[op.field] = op.value;
    else if (op.op === 'clear') out[op.field] = null;
    else {
      const key = itemKey(op.field);
      if (!key) throw new InvalidInput(`Field '${op.field}' is not a list: '${op.op}' does not apply to it.`, pointer(op.path));
      const list = Array.isArray(valueOf(op.field)) ? [...(valueOf(op.field) as unknown[])] : [];
      const keys = new Set(op.value.map(key));
      if (op.op === 'removeItems') {
        const kept = list.filter((item) => !keys.has(key(item)));
        out[op.field] = kept.length ? kept : null;
      } else {
        const have = new Set(list.map(key));
        for (const item of op.value) {
          if (!have.has(key(item))) list.push(item);
          have.add(key(item));
        }
        out[op.field] = list;
      }
    }
  }
  return out;
}
