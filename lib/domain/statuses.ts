// Look-ups of the built-in statuses (lib/domain/schemas/field-values.ts STATUSES) for filters that name
// one by id or by name, and each entity type's status set: the statuses assigned to the type.
import type { StandardFieldCheck } from './entity-fields.ts';
import { InvalidInput, pointer } from './errors.ts';
import { aType, type EntityType } from './hierarchy.ts';
import { STATUSES } from './schemas/field-values.ts';

export type Status = (typeof STATUSES)[number];

/** A built-in status by id (any case), or undefined. */
export const statusById = (id: string): Status | undefined => STATUSES.find((s) => s.id === id.toLowerCase());

/** A built-in status by name, compared case-insensitively, or undefined. */
export const statusByName = (name: string): Status | undefined => STATUSES.find((s) => s.name.toLowerCase() === name.toLowerCase());

/** The status set of a type, in the workspace list's order (empty for types without a status field). */
export const statusesOf = (type: EntityType): Status[] => STATUSES.filter((s) => (s.types as readonly string[]).includes(type));

/**
 * The write check of a type's status: the body's schema has resolved the status among all of them;
 * one that is not in the type's set → InvalidInput at the value, naming the type's statuses.
 */
export function statusCheck(type: EntityType): StandardFieldCheck {
  return (field, value, path) => {
    if (field !== 'status') return;
    const { id, name } = value as { id: string; name: string };
    const own = statusesOf(type);
    if (!own.some((s) => s.id === id)) throw new InvalidInput(`Status '${name}' is not one of ${aType(type)}'s; its statuses are ${own.map((s) => s.name).join(', ')}.`, pointer(path));
  };
}
