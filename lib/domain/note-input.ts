// Parsing of the notes endpoints' relationship bodies (shared by create and the relationship routes).
import type { Path } from './errors.ts';
import { invalid, object, onlyKeys, uuid } from './input.ts';
import { DEFAULT_IMPORTANCE, IMPORTANCES, isImportance, type Importance } from './score.ts';

export const NOTE_TYPES: Record<string, 'textNote'> = { textNote: 'textNote', simple: 'textNote' };

export function importance(value: unknown, path: Path): Importance {
  if (value === undefined) return DEFAULT_IMPORTANCE;
  if (!isImportance(value)) invalid(path, `'importance' must be one of ${IMPORTANCES.map((i) => `'${i}'`).join(', ')}.`);
  return value;
}

export type Relationship =
  | { type: 'link'; entityId: string; importance: Importance; path: Path }
  | { type: 'customer'; id: string; customerType: string | undefined; path: Path };

/** `{type: 'link', target: {id}, importance?}` or `{type: 'customer', target: {type?, id}}`. */
export function relationship(value: unknown, path: Path): Relationship {
  const rel = object(value, path);
  if (rel.type === 'link') {
    onlyKeys(rel, ['type', 'target', 'importance'], path);
    const target = object(rel.target, [...path, 'target']);
    onlyKeys(target, ['id', 'type'], [...path, 'target']);
    const idPath = [...path, 'target', 'id'];
    return { type: 'link', entityId: uuid(target.id, idPath), importance: importance(rel.importance, [...path, 'importance']), path: idPath };
  }
  if (rel.type === 'customer') {
    onlyKeys(rel, ['type', 'target'], path);
    return { type: 'customer', ...customerTarget(rel.target, [...path, 'target']) };
  }
  invalid([...path, 'type'], `'type' must be 'link' or 'customer'.`);
}

export function customerTarget(value: unknown, path: Path): { id: string; customerType: string | undefined; path: Path } {
  const target = object(value, path);
  onlyKeys(target, ['id', 'type'], path);
  if (target.type !== undefined && target.type !== 'user' && target.type !== 'company') invalid([...path, 'type'], `A customer is a 'user' or a 'company'.`);
  return { id: uuid(target.id, [...path, 'id']), customerType: target.type, path };
}
