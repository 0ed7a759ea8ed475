// Relations between product hierarchy entities besides parent and child (Productboard's entity
// relationship types `link`, `isBlockedBy`, `isBlocking`): each is stored once per side, the other
// side reading its mirror. They carry no weight in the score.
import { isHierarchyType } from './hierarchy.ts';

export const RELATION_TYPES = ['link', 'isBlockedBy', 'isBlocking'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** Every relationship type of an entity's relationship list: the hierarchy's two, then the relations. */
export const ENTITY_RELATIONSHIP_TYPES = ['parent', 'child', ...RELATION_TYPES] as const;
export type EntityRelationshipType = (typeof ENTITY_RELATIONSHIP_TYPES)[number];

export const isRelationType = (t: unknown): t is RelationType => (RELATION_TYPES as readonly unknown[]).includes(t);

/** How the target sees a relation: A isBlockedBy B is B isBlocking A; a link is a link both ways. */
export function mirrorOf(type: RelationType): RelationType {
  return type === 'isBlockedBy' ? 'isBlocking' : type === 'isBlocking' ? 'isBlockedBy' : 'link';
}

/** Why `source` may not get a relation of `type` to `target` (entity types as stored), or undefined when it may. */
export function relationViolation(source: { id: string; type: string }, type: RelationType, target: { id: string; type: string }): string | undefined {
  if (source.id === target.id) return `An entity cannot have a ${type} relationship with itself.`;
  for (const e of [source, target]) {
    if (!isHierarchyType(e.type)) return `Entity ${e.id} is a ${e.type}; ${type} relationships join products, components, features and subfeatures.`;
  }
  return undefined;
}

/** The relation that contradicts one of `type` between the same two entities (each blocking the other). */
export const contradictionOf = (type: RelationType): RelationType | undefined => (type === 'link' ? undefined : mirrorOf(type));
