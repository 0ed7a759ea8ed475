// Relations between entities besides parent and child (Productboard's entity relationship types
// `link`, `isBlockedBy`, `isBlocking`): each is stored once per side, the other side reading its
// mirror. They carry no weight in the score. `link` joins the product hierarchy and the planning
// entities (a feature in a release, features and initiatives serving an objective); the blocking
// pair joins product hierarchy entities only. Customers and notes are never related so (a note's
// links to entities are its own, lib/store/notes.ts).
import { aType, HIERARCHY_TYPES, isHierarchyType, type EntityType } from './hierarchy.ts';
import { wordList } from './word-lists.ts';

export const RELATION_TYPES = ['link', 'isBlockedBy', 'isBlocking'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** Every relationship type of an entity's relationship list: the hierarchy's two, then the relations. */
export const ENTITY_RELATIONSHIP_TYPES = ['parent', 'child', ...RELATION_TYPES] as const;
export type EntityRelationshipType = (typeof ENTITY_RELATIONSHIP_TYPES)[number];

/** How the target sees a relation: A isBlockedBy B is B isBlocking A; a link is a link both ways. */
export function mirrorOf(type: RelationType): RelationType {
  return type === 'isBlockedBy' ? 'isBlocking' : type === 'isBlocking' ? 'isBlockedBy' : 'link';
}

/** The planning entities a product hierarchy entity may be linked to (each takes every product hierarchy type). */
const PLANS = ['initiative', 'objective', 'keyResult', 'release'] as const satisfies readonly EntityType[];

/**
 * Which types each type may be linked to (`link`, symmetric: B is in A's list iff A is in B's): the
 * product hierarchy among itself and with initiatives, objectives, key results and releases; an
 * initiative also with objectives, key results and releases. Release groups hold releases (their
 * children) and take no links; customers take none.
 */
export const LINK_TARGETS: Record<EntityType, readonly EntityType[]> = {
  product: [...HIERARCHY_TYPES, ...PLANS],
  component: [...HIERARCHY_TYPES, ...PLANS],
  feature: [...HIERARCHY_TYPES, ...PLANS],
  subfeature: [...HIERARCHY_TYPES, ...PLANS],
  initiative: [...HIERARCHY_TYPES, 'objective', 'keyResult', 'release'],
  objective: [...HIERARCHY_TYPES, 'initiative'],
  keyResult: [...HIERARCHY_TYPES, 'initiative'],
  release: [...HIERARCHY_TYPES, 'initiative'],
  releaseGroup: [],
  user: [],
  company: [],
};

/** The types an entity of `type` may have a relation of `relation` with (the configurations' `targetType`). */
export const relationTargets = (type: EntityType, relation: RelationType): readonly EntityType[] =>
  relation === 'link' ? LINK_TARGETS[type] : isHierarchyType(type) ? HIERARCHY_TYPES : [];

/** Why `source` may not get a relation of `type` to `target` (entity types as stored), or undefined when it may. */
export function relationViolation(source: { id: string; type: EntityType }, type: RelationType, target: { id: string; type: EntityType }): string | undefined {
  if (source.id === target.id) return `An entity cannot have a ${type} relationship with itself.`;
  const allowed = relationTargets(source.type, type);
  if (allowed.includes(target.type)) return undefined;
  if (allowed.length === 0) return `${aType(source.type).replace(/^a/, 'A')} has no ${type} relationships.`;
  return `Entity ${target.id} is ${aType(target.type)}; ${aType(source.type)} has ${type} relationships with a ${wordList(allowed, 'or')} only.`;
}

/** The relation that contradicts one of `type` between the same two entities (each blocking the other). */
export const contradictionOf = (type: RelationType): RelationType | undefined => (type === 'link' ? undefined : mirrorOf(type));

/** Why `sourceId` may not get a relation to `targetId` when it has `existing`, the one that contradicts it, with it. */
export const contradictionProblem = (sourceId: string, existing: RelationType, targetId: string): string =>
  `Entity ${sourceId} already has a relationship of type ${existing} with entity ${targetId}; the two cannot block each other.`;

/** The side a relation is known by: a block by its isBlocking side, a link by the side whose entity id is the smaller (as an export writes it). */
export function relationKey(r: { entityId: string; type: RelationType; targetId: string }): string {
  const flip = r.type === 'isBlockedBy' || (r.type === 'link' && r.targetId < r.entityId);
  return flip ? `${r.targetId} ${mirrorOf(r.type)} ${r.entityId}` : `${r.entityId} ${r.type} ${r.targetId}`;
}
