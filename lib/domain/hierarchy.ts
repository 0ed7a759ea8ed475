// The entity types and parent rules (README.md, "Hierarchy"), once, as data; pure checks the store and the
// property tests share.
/** The product hierarchy: the types with a customer score (their notes' links and their subtrees). */
export const HIERARCHY_TYPES = ['product', 'component', 'feature', 'subfeature'] as const;
/**
 * Planning entities (Productboard's initiatives, objectives and key results, releases and their
 * groups): no customer score and no note links; they meet the product hierarchy through `link`
 * relationships (./relations.ts), and the customer demand behind one sums those (./demand.ts).
 */
const PLANNING_TYPES = ['initiative', 'objective', 'keyResult', 'release', 'releaseGroup'] as const;
export const CUSTOMER_TYPES = ['user', 'company'] as const;
export const ENTITY_TYPES = [...HIERARCHY_TYPES, ...PLANNING_TYPES, ...CUSTOMER_TYPES] as const;

export type HierarchyType = (typeof HIERARCHY_TYPES)[number];
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
export type EntityType = (typeof ENTITY_TYPES)[number];

export const isEntityType = (t: unknown): t is EntityType => (ENTITY_TYPES as readonly unknown[]).includes(t);
export const isHierarchyType = (t: unknown): t is HierarchyType => (HIERARCHY_TYPES as readonly unknown[]).includes(t);
export const isCustomerType = (t: unknown): t is CustomerType => (CUSTOMER_TYPES as readonly unknown[]).includes(t);

/** A type with its indefinite article, for messages: "a feature", "an initiative". */
export const aType = (t: string): string => `${/^[aeio]/i.test(t) ? 'an' : 'a'} ${t}`;

/**
 * Which parent types each type accepts, and whether a parent is required. A component always sits
 * in a product or another component (those are its allowed parents; a component without one would
 * be a second kind of root, so it is required like a feature's). Planning entities have their own
 * trees, apart from the product hierarchy: a key result in an objective, a release in a release
 * group (both required), objectives optionally nested in objectives; initiatives and release groups
 * are roots.
 */
export const PARENT_RULES: Record<EntityType, { parents: readonly EntityType[]; required: boolean }> = {
  product: { parents: [], required: false },
  component: { parents: ['product', 'component'], required: true },
  feature: { parents: ['product', 'component'], required: true },
  subfeature: { parents: ['feature'], required: true },
  initiative: { parents: [], required: false },
  objective: { parents: ['objective'], required: false },
  keyResult: { parents: ['objective'], required: true },
  release: { parents: ['releaseGroup'], required: true },
  releaseGroup: { parents: [], required: false },
  user: { parents: ['company'], required: false },
  company: { parents: [], required: false },
};

/**
 * Maximum depth of the product hierarchy, a product being depth 1: product → up to 5 nested
 * components → feature → subfeature. Every score change updates the changed entity and all its
 * ancestors in one transaction (a move: both chains), so this keeps one transaction ≤ 2·8+4 items,
 * far below DynamoDB's 100. Every tree is capped so (nested objectives with their key results too),
 * which keeps every chain the store reads within it.
 */
export const MAX_DEPTH = 8;

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** Why `childType` may not sit under `parentType` (undefined = no parent), or undefined when it may. */
export function parentRuleViolation(childType: EntityType, parentType: EntityType | undefined): string | undefined {
  const rule = PARENT_RULES[childType];
  if (parentType === undefined) {
    return rule.required ? `${cap(aType(childType))} needs a parent (${rule.parents.join(' or ')}).` : undefined;
  }
  if (rule.parents.length === 0) return `${cap(aType(childType))} cannot have a parent.`;
  if (!rule.parents.includes(parentType)) {
    return `${cap(aType(childType))} cannot have ${aType(parentType)} parent; allowed: ${rule.parents.join(' or ')}.`;
  }
  return undefined;
}

/**
 * Depth check for placing a subtree of height `subtreeHeight` (1 = a single entity) under a parent
 * at depth `parentDepth` (0 = no parent).
 */
export function depthViolation(parentDepth: number, subtreeHeight: number): string | undefined {
  const depth = parentDepth + subtreeHeight;
  return depth > MAX_DEPTH ? `The hierarchy would be ${depth} levels deep; the maximum is ${MAX_DEPTH}.` : undefined;
}

/** Whether some type may sit under `type` (unknown: assume so); subfeatures and users never have children. */
export const canHaveChildren = (type: string | undefined): boolean =>
  type === undefined || ENTITY_TYPES.some((t) => (PARENT_RULES[t].parents as readonly string[]).includes(type));
