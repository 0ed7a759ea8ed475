// Look-ups of the built-in statuses (lib/domain/schemas/field-values.ts STATUSES) for filters that name
// one by id or by name.
import { STATUSES } from './schemas/field-values.ts';

export type Status = (typeof STATUSES)[number];

/** A built-in status by id (any case), or undefined. */
export const statusById = (id: string): Status | undefined => STATUSES.find((s) => s.id === id.toLowerCase());

/** A built-in status by name, compared case-insensitively, or undefined. */
export const statusByName = (name: string): Status | undefined => STATUSES.find((s) => s.name.toLowerCase() === name.toLowerCase());
