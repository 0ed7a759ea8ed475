// Creating, updating and moving entities. Moves carry the subtree's total from the old ancestors to
// the new ones in one transaction (lib/store/aggregates.ts Plan). Every write keeps the entity's
// index entries in step: its owner's (GSI3) and, for a user, the look-up by e-mail.
import { randomUUID } from 'node:crypto';
import { Plan } from './aggregates.ts';
import { customerEmailWrites } from './customers.ts';
import { entityVersion, getEntity, growthIs, readChain, subtree, type EntityItem } from './entities.ts';
import { resolveReferences } from './field-refs.ts';
import { transactOnce, type WriteScope } from './idempotency.ts';
import * as keys from './keys.ts';
import { recordUpdate, type RecordChange } from './record-update.ts';
import { checkNewRelation, relationPuts, relationSides } from './relations.ts';
import { tableName } from './table.ts';
import { transact, type TxItem } from './tx.ts';
import { addedValueGuards, type FieldAt } from './value-guards.ts';
import type { ReferenceWrite } from '../domain/entity-fields.ts';
import { InvalidInput, NotFound, pointer, PreconditionFailed, type InputLocation, type Path } from '../domain/errors.ts';
import { aType, canHaveChildren, depthViolation, isHierarchyType, PARENT_RULES, parentRuleViolation, type EntityType } from '../domain/hierarchy.ts';
import { invalid } from '../domain/input.ts';
import type { Metadata } from '../domain/metadata.ts';
import type { RelationType } from '../domain/relations.ts';

/** A parent as a request names it: its id and, optionally, the type the client says it has. */
interface ParentRef {
  id: string;
  type?: EntityType | undefined;
}

/**
 * The live chain above a would-be parent: NotFound when it is missing or being deleted,
 * InvalidInput when it is not of the type the request says (at the sibling `type` of `path`), or
 * when its type is not an allowed parent (at `path`, the target id).
 */
async function parentChain(ws: string, childType: EntityType, parent: ParentRef, path: Path): Promise<EntityItem[]> {
  const { chain, complete } = await readChain(ws, parent.id);
  if (!complete || chain.length === 0 || chain.some((e) => e.deleting)) throw new NotFound('entity', parent.id, undefined, pointer(path));
  const actual = chain[0]!.type;
  if (parent.type !== undefined && parent.type !== actual)
    invalid([...path.slice(0, -1), 'type'], `Entity ${parent.id} is ${aType(actual)}, not ${aType(parent.type)}.`);
  const why = parentRuleViolation(childType, actual);
  if (why) invalid(path, why);
  return chain;
}

/** Where a request's field is: `data.fields.{field}` unless a write says otherwise. */
const IN_DATA_FIELDS: FieldAt = (field) => ['data', 'fields', field];

/** A relation a new entity gets (link, isBlockedBy, isBlocking), `path` locating its target id in the request. */
export interface NewRelation {
  type: RelationType;
  targetId: string;
  path: Path;
}

export async function createEntity(
  ws: string,
  input: {
    type: EntityType;
    values: Record<string, unknown>;
    /** Tags and teams as written, resolved in the transaction's build (a new tag value is created with the entity). */
    references?: readonly ReferenceWrite[];
    parent?: ParentRef | undefined;
    parentPath: Path;
    /** Where the request holds a field (a select option deleted while it was written is refused there). */
    fieldAt?: FieldAt;
    metadata?: Metadata | undefined;
    relations?: readonly NewRelation[];
  },
  scope?: WriteScope,
): Promise<EntityItem> {
  const id = randomUUID();
  // With an Idempotency-Key, a retry answers the first request's entity (lib/store/idempotency.ts).
  return transactOnce(
    'createEntity',
    async () => {
      const now = new Date().toISOString();
      const refs = await resolveReferences(ws, input.references ?? []);
      let chain: EntityItem[] = [];
      if (input.parent) {
        chain = await parentChain(ws, input.type, input.parent, input.parentPath);
        const tooDeep = depthViolation(chain.length, 1);
        if (tooDeep) invalid(input.parentPath, tooDeep);
      } else {
        const why = parentRuleViolation(input.type, undefined);
        if (why) invalid(input.parentPath.slice(0, -3), why);
      }
      const parent = chain[0];
      const entity: EntityItem = {
        id,
        type: input.type,
        ...(parent ? { parentId: parent.id, parentType: parent.type } : {}),
        fields: { ...input.values, ...refs.values },
        ...(input.metadata ? { metadata: input.metadata } : {}),
        createdAt: now,
        updatedAt: now,
        ...(isHierarchyType(input.type) ? { own: 0, total: 0 } : {}),
        ...(canHaveChildren(input.type) ? { hadChildren: false } : {}),
      };
      const targets: EntityItem[] = [];
      for (const r of input.relations ?? []) targets.push(await checkNewRelation(ws, entity, r.type, r.targetId, r.path));
      const plan = new Plan(ws);
      plan.add({
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.entity(ws, id),
            kind: 'entity',
            ...entity,
            gsi1pk: keys.entitiesOfType(ws, input.type),
            gsi1sk: keys.listPosition(now, id),
            ...(parent ? { gsi2pk: keys.childrenOf(ws, parent.id), gsi2sk: keys.listPosition(now, id) } : {}),
            ...keys.ownerIndex(ws, 'entity', entity),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
      for (const item of customerEmailWrites(ws, entity, undefined)) plan.add(item);
      for (const item of refs.items) plan.add(item);
      (input.relations ?? []).forEach((r, i) => {
        for (const item of relationPuts(ws, entity, r.type, targets[i]!, now)) plan.add(item);
      });
      // The parent and its ancestors must still stand as read (depth, no concurrent delete), and count
      // the growth a concurrent move of one of them conditions on; every relation's target must still stand.
      plan.grow(chain);
      relationSides(plan, targets);
      if (parent) hasChild(plan, parent);
      const items = plan.build();
      items.push(...(await addedValueGuards(ws, input.type, undefined, entity.fields, items, input.fieldAt ?? IN_DATA_FIELDS)));
      return { items, result: entity };
    },
    scope,
  );
}

/** A change of an entity's fields (null clears one) and metadata (merged key by key), and writes that go with it (new tag values). */
type EntityChange = RecordChange & { items?: TxItem[] };

/**
 * Updates a live entity: `change` gets the entity as read now (patch operations apply to these
 * values) and says what to write. One transaction conditioned on the `updatedAt` it read, rebuilt
 * from a fresh read when another write got there first; it keeps the owner index and a user's
 * e-mail look-up in step. `versions`: the request's If-Match, when it sent one; `fieldAt`: where the request holds a field. The aggregates
 * (own, total) are not touched, so links and moves elsewhere never conflict with it.
 */
export async function updateEntity(
  ws: string,
  id: string,
  change: (current: EntityItem) => EntityChange | Promise<EntityChange>,
  versions?: string[],
  scope?: WriteScope,
  fieldAt: FieldAt = IN_DATA_FIELDS,
): Promise<EntityItem> {
  return transact(
    'updateEntity',
    async () => {
      const e = await getEntity(ws, id);
      if (!e) throw new NotFound('entity', id);
      // If-Match (lib/domain/etag.ts): the version read must be one the client named; the update's
      // own `updatedAt = :was` condition then holds it to that version.
      if (versions && !versions.includes(entityVersion(e))) throw new PreconditionFailed('entity', id, versions);
      const changed = await change(e);
      const values: Record<string, unknown> = { ':kind': 'entity' };
      // With If-Match, an entity placed under it since the read changes the version too.
      const growth = versions ? ` AND ${growthIs(e.growth, values)}` : '';
      const { updated, item } = recordUpdate(ws, 'entity', keys.entity(ws, id), e, changed, {
        expression: `attribute_exists(pk) AND kind = :kind AND attribute_not_exists(deleting)${growth}`,
        values,
      });
      const items: TxItem[] = [item, ...customerEmailWrites(ws, updated, e), ...(changed.items ?? [])];
      items.push(...(await addedValueGuards(ws, e.type, e.fields, updated.fields, items, fieldAt)));
      return { items, result: updated };
    },
    scope?.deadline,
  );
}

/**
 * Moves an entity (and its subtree) under a new parent. One transaction: the entity's parent changes
 * (conditioned on its old parent and its total as read), the old ancestors lose its total and the new
 * ones gain it, every ancestor conditioned on its own place — so a concurrent link write, move or
 * delete anywhere on either chain makes the transaction retry from fresh reads.
 */
export async function setParent(ws: string, id: string, target: ParentRef, parentPath: Path, scope?: WriteScope): Promise<EntityItem> {
  const parentId = target.id;
  return transactOnce(
    'setParent',
    async () => {
      const { chain: oldChain, complete } = await readChain(ws, id);
      const e = oldChain[0];
      if (!e || e.deleting || !complete || oldChain.some((x) => x.deleting)) throw new NotFound('entity', id);
      // A type that takes no parent is refused whatever the target (before the target is read).
      if (PARENT_RULES[e.type].parents.length === 0) invalid(parentPath, parentRuleViolation(e.type, e.type)!);
      const newChain = await parentChain(ws, e.type, target, parentPath);
      if (newChain.some((x) => x.id === id))
        invalid(parentPath, `Entity ${parentId} is ${id === parentId ? 'the entity itself' : 'a descendant of the entity'}; that would make a cycle.`);
      if (e.parentId === parentId) return { items: [], result: e };
      const { height } = await subtree(ws, id);
      const tooDeep = depthViolation(newChain.length, height);
      if (tooDeep) invalid(parentPath, tooDeep);
      const parent = newChain[0]!;
      const now = new Date().toISOString();
      const plan = new Plan(ws);
      const total = e.total ?? 0;
      if (isHierarchyType(e.type)) {
        for (const a of oldChain.slice(1)) plan.entity(a).total -= total;
        for (const a of newChain) plan.entity(a).total += total;
      }
      plan.grow(newChain);
      hasChild(plan, parent);
      const self = plan.entity(e);
      if (isHierarchyType(e.type)) self.expectTotal = total;
      // The subtree's height came from the children index after `e` was read: an entity placed under
      // it since (a create or a move racing this one) has counted its growth, and this move retries.
      self.expectGrowth = e.growth ?? 0;
      // A moved entity joins its new parent's child list as its newest member.
      self.set = { parentId: parent.id, parentType: parent.type, gsi2pk: keys.childrenOf(ws, parent.id), gsi2sk: keys.listPosition(now, id), updatedAt: now };
      return { items: plan.build(), result: { ...e, parentId: parent.id, parentType: parent.type, updatedAt: now } };
    },
    scope,
  );
}

/** The parent a child joins, flagged as having had one (what a subtree delete's search for children relies on). */
function hasChild(plan: Plan, parent: EntityItem): void {
  if (parent.hadChildren === true) return;
  const d = plan.entity(parent);
  d.set = { ...d.set, hadChildren: true };
}

/**
 * Removes the parent `parentId` of entity `id` where the hierarchy rules allow none (a user leaves
 * its company); InvalidInput at `where` where they require one (move it instead), NotFound when
 * `parentId` is not its parent. Only users and objectives may stand without their optional parent,
 * and they carry no score, so no aggregate moves.
 */
export async function detachParent(ws: string, id: string, parentId: string, where: InputLocation, scope?: WriteScope): Promise<EntityItem> {
  return transact(
    'detachParent',
    async () => {
      const e = await getEntity(ws, id);
      if (!e || e.deleting) throw new NotFound('entity', id);
      if (e.parentId !== parentId) throw new NotFound('relationship', parentId, `Entity ${parentId} is not the parent of entity ${id}.`);
      const why = parentRuleViolation(e.type, undefined);
      if (why) throw new InvalidInput(`${why} Move it under another parent with PUT /v2/entities/${id}/relationships/parent instead.`, where);
      const now = new Date().toISOString();
      const plan = new Plan(ws);
      const self = plan.entity(e);
      self.set = { updatedAt: now };
      self.remove = ['parentId', 'parentType', 'gsi2pk', 'gsi2sk'];
      const result: EntityItem = { ...e, updatedAt: now };
      delete result.parentId;
      delete result.parentType;
      return { items: plan.build(), result };
    },
    scope?.deadline,
  );
}
