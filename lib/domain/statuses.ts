// The status values of each entity type that has a status field. As in Productboard, every type has
// its own set (a value lists the types it is assigned to): a type gets its set by one entry in
// STATUS_SETS, and types that share a workflow name the same list (features and subfeatures share
// one in Productboard). Values are the same in every workspace, with fixed ids: Productboard manages
// status values through the status lifecycle, not through its field-value operations, which refuse
// them (lib/domain/field-values.ts).
import { aType, type EntityType } from './hierarchy.ts';

interface StatusValue {
  id: string;
  name: string;
}

/** The workflow of the product hierarchy: Productboard's default feature statuses. */
export const FEATURE_STATUSES = [
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a01', name: 'New idea' },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a02', name: 'Candidate' },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a03', name: 'Planned' },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a04', name: 'In progress' },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a05', name: 'Released' },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a06', name: "Won't do" },
] as const satisfies readonly StatusValue[];

/** The workflow of initiatives, objectives and key results. */
const NOT_STARTED = { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a07', name: 'Not started' } as const;
const COMPLETED = { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a08', name: 'Completed' } as const;
const [, , PLANNED, IN_PROGRESS, , WONT_DO] = FEATURE_STATUSES;
const OKR_STATUSES = [NOT_STARTED, IN_PROGRESS, COMPLETED] as const satisfies readonly StatusValue[];
const INITIATIVE_STATUSES = [NOT_STARTED, PLANNED, IN_PROGRESS, COMPLETED, WONT_DO] as const satisfies readonly StatusValue[];

/** The workflow of a release. */
const RELEASE_STATUSES = [{ id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a09', name: 'Upcoming' }, IN_PROGRESS, COMPLETED] as const satisfies readonly StatusValue[];

/**
 * The status set of each type with a status field (lib/domain/entity-fields.ts ENTITY_FIELDS). Products
 * and components have the hierarchy's status field here, so they take the features' workflow. A new
 * type with a status field needs its entry (test/domain/statuses.test.ts holds the two in step).
 */
const STATUS_SETS: Partial<Record<EntityType, readonly StatusValue[]>> = {
  product: FEATURE_STATUSES,
  component: FEATURE_STATUSES,
  feature: FEATURE_STATUSES,
  subfeature: FEATURE_STATUSES,
  initiative: INITIATIVE_STATUSES,
  objective: OKR_STATUSES,
  keyResult: OKR_STATUSES,
  release: RELEASE_STATUSES,
};

/** The status values of a type (none when it has no status field). */
export const statusesOf = (type: EntityType): readonly StatusValue[] => STATUS_SETS[type] ?? [];

/** A status value with the types it is assigned to (Productboard's StatusValue). */
export interface AssignedStatus extends StatusValue {
  readonly assignedEntityTypes: readonly EntityType[];
}

/** Every status value, in the order of the types' sets, each once with the types it is assigned to. */
const ALL_STATUSES: readonly AssignedStatus[] = (() => {
  const byId = new Map<string, StatusValue & { assignedEntityTypes: EntityType[] }>();
  for (const [type, values] of Object.entries(STATUS_SETS) as Array<[EntityType, readonly StatusValue[]]>) {
    for (const v of values) {
      const known = byId.get(v.id);
      if (known) known.assignedEntityTypes.push(type);
      else byId.set(v.id, { id: v.id, name: v.name, assignedEntityTypes: [type] });
    }
  }
  return [...byId.values()];
})();

export const allStatuses = (): readonly AssignedStatus[] => ALL_STATUSES;

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The statuses of any type with this name, compared case-insensitively (one per set that has it). */
export const statusesNamed = (name: string): AssignedStatus[] => allStatuses().filter((s) => sameName(s.name, name));

/**
 * The value of `type`'s status field that `{id?, name?}` names (both given must name the same one),
 * or why there is none — a sentence naming the type's values — and which of the two it was about.
 */
export function statusOf(
  type: EntityType,
  ref: { id?: string | undefined; name?: string | undefined },
): { value: StatusValue } | { problem: string; at: 'id' | 'name' | undefined } {
  const values = statusesOf(type);
  const known = values.length ? `the statuses of ${aType(type)} are ${values.map((s) => `${s.name} (${s.id})`).join(', ')}` : `${aType(type)} has no status`;
  if (ref.id !== undefined) {
    const byId = values.find((s) => s.id === ref.id!.toLowerCase());
    if (!byId) return { problem: `${ref.id} is no status of ${aType(type)}; ${known}.`, at: 'id' };
    if (ref.name !== undefined && !sameName(ref.name, byId.name))
      return { problem: `'${ref.name.slice(0, 100)}' is not the name of status ${byId.id}, '${byId.name}'.`, at: 'name' };
    return { value: { id: byId.id, name: byId.name } };
  }
  if (ref.name === undefined) return { problem: 'Give the id or the name of a status.', at: undefined };
  const byName = values.find((s) => sameName(s.name, ref.name!));
  if (!byName) return { problem: `No status of ${aType(type)} is named '${ref.name.slice(0, 100)}'; ${known}.`, at: 'name' };
  return { value: { id: byName.id, name: byName.name } };
}
