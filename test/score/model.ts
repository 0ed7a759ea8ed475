// A pure reference model of the customer score (README.md, "Customer score"). It keeps only the
// raw facts — entities and their parents, notes and their customer, links with importance and the
// order in which they were set — and computes every score FROM SCRATCH on each call, so it shares
// no incremental bookkeeping (and no bug) with the aggregates it is compared against.
// Validation mirrors the service's rules so a test can predict which operations must be refused.

const HIERARCHY_TYPES = ['product', 'component', 'feature', 'subfeature'] as const;
type CustomerTypes = ['user', 'company'];
export type HierarchyType = (typeof HIERARCHY_TYPES)[number];
export type CustomerType = CustomerTypes[number];
export type EntityType = HierarchyType | CustomerType;

export const IMPORTANCES = ['critical', 'important', 'nice to have', 'unknown', 'not important'] as const;
export type Importance = (typeof IMPORTANCES)[number];
const WEIGHT: Record<Importance, number> = { critical: 3, important: 2, 'nice to have': 1, unknown: 1, 'not important': 0 };
/** An anonymous link counts 1 whatever its importance. */
const ANONYMOUS_WEIGHT = 1;

export const isHierarchy = (t: EntityType): t is HierarchyType => (HIERARCHY_TYPES as readonly string[]).includes(t);

/** Which parent types each type accepts, and whether a parent is required (README.md, "Hierarchy"). */
export const PARENT_RULES: Record<EntityType, { parents: readonly EntityType[]; required: boolean }> = {
  product: { parents: [], required: false },
  component: { parents: ['product', 'component'], required: true },
  feature: { parents: ['product', 'component'], required: true },
  subfeature: { parents: ['feature'], required: true },
  user: { parents: ['company'], required: false },
  company: { parents: [], required: false },
};

/**
 * Why an operation must be refused. `unknownReference` is an id in the request body that names
 * nothing in the workspace (the test maps it to the status the API gives); `notFound` is the
 * path's own resource.
 */
export type Refusal = 'invalid' | 'notFound' | 'unknownReference' | 'conflict';
/** `alt`: a second refusal allowed equally (two rules broken at once, either may be reported). */
export type Outcome = { ok: true } | { ok: false; refusal: Refusal; why: string; alt?: Refusal };

const OK: Outcome = { ok: true };

/**
 * Several rules broken at once (the note in the path is missing AND the body names a wrong
 * target): the first is expected, the second is accepted too — validating the body before looking
 * up the path's resource is as right as the reverse.
 */
function either(...outcomes: Outcome[]): Outcome {
  const failed = outcomes.filter((o): o is Extract<Outcome, { ok: false }> => !o.ok);
  const [a] = failed;
  if (!a) return OK;
  const other = failed.flatMap((f) => [f.refusal, ...(f.alt ? [f.alt] : [])]).find((r) => r !== a.refusal);
  return other && !a.alt ? { ...a, alt: other } : a;
}
const noteExists = (m: ScoreModel, noteId: string): Outcome => (m.notes.has(noteId) ? OK : no('notFound', `note ${noteId} does not exist`));
const no = (refusal: Refusal, why: string, alt?: Refusal): Outcome => ({ ok: false, refusal, why, ...(alt ? { alt } : {}) });

interface ModelEntity {
  type: EntityType;
  parentId: string | undefined;
}
interface ModelNote {
  customerId: string | undefined;
}
interface ModelLink {
  noteId: string;
  entityId: string;
  importance: Importance;
  /** Logical time the rating was last set (created or re-rated); strictly increasing. */
  setAt: number;
}

export interface NewLink {
  entityId: string;
  importance?: Importance;
}

const linkKey = (noteId: string, entityId: string) => `${noteId} ${entityId}`;

export class ScoreModel {
  readonly entities = new Map<string, ModelEntity>();
  readonly notes = new Map<string, ModelNote>();
  readonly links = new Map<string, ModelLink>();
  private clock = 0;

  /** @param maxDepth the documented hierarchy depth cap (a product is depth 1). */
  constructor(readonly maxDepth: number) {}

  // ---- queries -------------------------------------------------------------------------------

  hierarchyIds(): string[] {
    return [...this.entities].filter(([, e]) => isHierarchy(e.type)).map(([id]) => id);
  }
  customerIds(): string[] {
    return [...this.entities].filter(([, e]) => !isHierarchy(e.type)).map(([id]) => id);
  }
  linksOf(noteId: string): ModelLink[] {
    return [...this.links.values()].filter((l) => l.noteId === noteId);
  }
  link(noteId: string, entityId: string): ModelLink | undefined {
    return this.links.get(linkKey(noteId, entityId));
  }

  /** The links through which one customer rates one entity (only the latest counts). */
  ratings(entityId: string, customerId: string): ModelLink[] {
    return [...this.links.values()].filter((l) => l.entityId === entityId && this.notes.get(l.noteId)?.customerId === customerId);
  }

  /** Depth from the root: a root is 1. */
  depth(id: string): number {
    let d = 0;
    for (let cur: string | undefined = id; cur !== undefined; cur = this.entities.get(cur)?.parentId) d++;
    return d;
  }
  /** Levels in the subtree rooted at id (a leaf is 1). */
  height(id: string): number {
    const kids = this.childrenOf(id);
    return 1 + Math.max(0, ...kids.map((k) => this.height(k)));
  }
  childrenOf(id: string): string[] {
    return [...this.entities].filter(([, e]) => e.parentId === id).map(([cid]) => cid);
  }
  /** id and all its descendants. */
  subtree(id: string): string[] {
    return [id, ...this.childrenOf(id).flatMap((k) => this.subtree(k))];
  }

  /** own(e) = Σ over customers of weight(their latest rating of e) + anonymous links on e. */
  own(entityId: string): number {
    const latest = new Map<string, ModelLink>();
    let anonymous = 0;
    for (const l of this.links.values()) {
      if (l.entityId !== entityId) continue;
      const customer = this.notes.get(l.noteId)!.customerId;
      if (customer === undefined) {
        anonymous += ANONYMOUS_WEIGHT;
        continue;
      }
      const cur = latest.get(customer);
      if (!cur || l.setAt > cur.setAt) latest.set(customer, l);
    }
    let sum = anonymous;
    for (const l of latest.values()) sum += WEIGHT[l.importance];
    return sum;
  }

  /** score(e) = Σ own(d) over e and its descendants, recomputed from the raw facts. */
  score(entityId: string): number {
    return this.subtree(entityId).reduce((sum, d) => sum + this.own(d), 0);
  }

  /** Every hierarchy entity's score. */
  scores(): Map<string, number> {
    return new Map(this.hierarchyIds().map((id) => [id, this.score(id)]));
  }

  // ---- validation (pure) ---------------------------------------------------------------------

  private parentRule(type: EntityType, parentId: string | undefined): Outcome {
    const rule = PARENT_RULES[type];
    if (parentId === undefined) return rule.required ? no('invalid', `a ${type} needs a parent`) : OK;
    const parent = this.entities.get(parentId);
    if (!parent && rule.parents.length === 0) return no('invalid', `a ${type} cannot have a parent`, 'unknownReference');
    if (!parent) return no('unknownReference', `parent ${parentId} does not exist`);
    if (!rule.parents.includes(parent.type)) return no('invalid', `a ${type} cannot have a ${parent.type} parent`);
    return OK;
  }

  checkCreateEntity(type: EntityType, parentId: string | undefined): Outcome {
    const rule = this.parentRule(type, parentId);
    if (!rule.ok) return rule;
    if (parentId !== undefined && this.depth(parentId) + 1 > this.maxDepth) return no('invalid', `depth cap ${this.maxDepth} exceeded`);
    return OK;
  }

  checkSetParent(id: string, parentId: string): Outcome {
    const e = this.entities.get(id);
    if (!e) return no('notFound', `entity ${id} does not exist`);
    const rule = this.parentRule(e.type, parentId);
    if (!rule.ok) return rule;
    if (this.subtree(id).includes(parentId)) return no('invalid', 'the new parent is in the moved subtree (cycle)');
    if (this.depth(parentId) + this.height(id) > this.maxDepth) return no('invalid', `depth cap ${this.maxDepth} exceeded`);
    return OK;
  }

  checkDeleteEntity(id: string): Outcome {
    return this.entities.has(id) ? OK : no('notFound', `entity ${id} does not exist`);
  }

  private checkCustomer(customerId: string): Outcome {
    const c = this.entities.get(customerId);
    if (!c) return no('unknownReference', `customer ${customerId} does not exist`);
    if (isHierarchy(c.type)) return no('invalid', `a ${c.type} cannot be a customer`);
    return OK;
  }

  private checkLinkTarget(entityId: string): Outcome {
    const e = this.entities.get(entityId);
    if (!e) return no('unknownReference', `entity ${entityId} does not exist`);
    if (!isHierarchy(e.type)) return no('invalid', `a link cannot target a ${e.type}`);
    return OK;
  }

  /** The customer, the link targets and a target named twice are separate rules: either may be reported first. */
  checkCreateNote(customerId: string | undefined, links: readonly NewLink[]): Outcome {
    const customer = customerId === undefined ? OK : this.checkCustomer(customerId);
    const targets = either(...links.map((l) => this.checkLinkTarget(l.entityId)));
    const twice = links.find((l, i) => links.findIndex((o) => o.entityId === l.entityId) !== i);
    return either(customer, targets, twice ? no('invalid', `entity ${twice.entityId} linked twice`) : OK);
  }

  checkSetCustomer(noteId: string, customerId: string): Outcome {
    return either(noteExists(this, noteId), this.checkCustomer(customerId));
  }

  checkClearCustomer(noteId: string, customerId: string): Outcome {
    const n = this.notes.get(noteId);
    if (!n) return no('notFound', `note ${noteId} does not exist`);
    if (n.customerId !== customerId) return no('notFound', `note ${noteId} has no customer ${customerId}`);
    return OK;
  }

  /** POST a link: an existing one is a conflict. */
  checkCreateLink(noteId: string, entityId: string): Outcome {
    const found = either(noteExists(this, noteId), this.checkLinkTarget(entityId));
    if (!found.ok) return found;
    if (this.links.has(linkKey(noteId, entityId))) return no('conflict', 'the link exists');
    return OK;
  }

  /** PUT a link: creates or re-rates. The entity is in the path, so an unknown one is notFound. */
  checkPutLink(noteId: string, entityId: string): Outcome {
    const t = this.checkLinkTarget(entityId);
    return either(noteExists(this, noteId), !t.ok && t.refusal === 'unknownReference' ? no('notFound', t.why) : t);
  }

  checkDeleteLink(noteId: string, entityId: string): Outcome {
    if (!this.notes.has(noteId)) return no('notFound', `note ${noteId} does not exist`);
    if (!this.links.has(linkKey(noteId, entityId))) return no('notFound', `no link from ${noteId} to ${entityId}`);
    return OK;
  }

  checkDeleteNote(noteId: string): Outcome {
    return this.notes.has(noteId) ? OK : no('notFound', `note ${noteId} does not exist`);
  }

  // ---- mutations: each re-validates and throws if the operation was not allowed ---------------

  private must(o: Outcome, what: string) {
    if (!o.ok) throw new Error(`model: ${what} is not allowed (${o.why})`);
  }

  createEntity(id: string, type: EntityType, parentId: string | undefined): void {
    this.must(this.checkCreateEntity(type, parentId), `creating a ${type}`);
    if (this.entities.has(id)) throw new Error(`model: duplicate entity id ${id}`);
    this.entities.set(id, { type, parentId });
  }

  setParent(id: string, parentId: string): void {
    this.must(this.checkSetParent(id, parentId), `moving ${id}`);
    this.entities.get(id)!.parentId = parentId;
  }

  /**
   * Deletes the entity and its whole subtree; links to them go too. A deleted customer (a company
   * takes its users along) leaves its notes without a customer, so their links count as anonymous
   * (the specification is silent; this is what the service does, and the only reading that keeps every
   * link counted by the rule). Returns the deleted ids.
   */
  deleteEntity(id: string): string[] {
    this.must(this.checkDeleteEntity(id), `deleting ${id}`);
    const gone = this.subtree(id);
    for (const g of gone) this.entities.delete(g);
    for (const [k, l] of this.links) if (gone.includes(l.entityId)) this.links.delete(k);
    for (const n of this.notes.values()) if (n.customerId !== undefined && gone.includes(n.customerId)) n.customerId = undefined;
    return gone;
  }

  createNote(id: string, customerId: string | undefined, links: readonly NewLink[]): void {
    this.must(this.checkCreateNote(customerId, links), 'creating a note');
    if (this.notes.has(id)) throw new Error(`model: duplicate note id ${id}`);
    this.notes.set(id, { customerId });
    for (const l of links) this.setLink(id, l.entityId, l.importance ?? 'unknown');
  }

  /** The note's links keep their set time; their ratings now belong to the new customer. */
  setCustomer(noteId: string, customerId: string): void {
    this.must(this.checkSetCustomer(noteId, customerId), `setting the customer of ${noteId}`);
    this.notes.get(noteId)!.customerId = customerId;
  }

  clearCustomer(noteId: string, customerId: string): void {
    this.must(this.checkClearCustomer(noteId, customerId), `clearing the customer of ${noteId}`);
    this.notes.get(noteId)!.customerId = undefined;
  }

  createLink(noteId: string, entityId: string, importance: Importance = 'unknown'): void {
    this.must(this.checkCreateLink(noteId, entityId), `linking ${noteId} to ${entityId}`);
    this.setLink(noteId, entityId, importance);
  }

  putLink(noteId: string, entityId: string, importance: Importance): void {
    this.must(this.checkPutLink(noteId, entityId), `putting the link ${noteId} → ${entityId}`);
    this.setLink(noteId, entityId, importance);
  }

  deleteLink(noteId: string, entityId: string): void {
    this.must(this.checkDeleteLink(noteId, entityId), `deleting the link ${noteId} → ${entityId}`);
    this.links.delete(linkKey(noteId, entityId));
  }

  deleteNote(noteId: string): void {
    this.must(this.checkDeleteNote(noteId), `deleting ${noteId}`);
    this.notes.delete(noteId);
    for (const [k, l] of this.links) if (l.noteId === noteId) this.links.delete(k);
  }

  /** Creating or re-rating sets the rating now, whatever its previous value. */
  private setLink(noteId: string, entityId: string, importance: Importance): void {
    this.links.set(linkKey(noteId, entityId), { noteId, entityId, importance, setAt: ++this.clock });
  }
}
