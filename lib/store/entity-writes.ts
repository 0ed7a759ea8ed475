// Creating, updating and moving entities. Moves carry the subtree's total from the old ancestors to
// the new ones in one transaction (lib/store/aggregates.ts Plan).
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Plan } from './aggregates.ts';
import { db, tableName } from './client.ts';
import { getEntity, readChain, subtree, toEntity, type EntityItem } from './entities.ts';
import { keys } from './keys.ts';
import { transact } from './tx.ts';
import { NotFound, PreconditionFailed, type Path } from '../domain/errors.ts';
import { depthViolation, isHierarchyType, parentRuleViolation, type EntityType } from '../domain/hierarchy.ts';
import { keyReused, type Idempotent } from '../domain/idempotency.ts';
import { invalid } from '../domain/input.ts';

/** A parent as a request names it: its id and, optionally, the type the client says it has. */
export interface ParentRef {
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
  if (!complete || chain.length === 0 || chain.some((e) => e.deleting)) throw new NotFound('entity', parent.id);
  const actual = chain[0]!.type;
  if (parent.type !== undefined && parent.type !== actual) invalid([...path.slice(0, -1), 'type'], `Entity ${parent.id} is a ${actual}, not a ${parent.type}.`);
  const why = parentRuleViolation(childType, actual);
  if (why) invalid(path, why);
  return chain;
}

export async function createEntity(
  ws: string,
  input: { type: EntityType; values: Record<string, unknown>; parent?: ParentRef | undefined; parentPath: Path },
  idempotent?: Idempotent,
): Promise<EntityItem> {
  const id = idempotent?.id ?? randomUUID();
  return transact('createEntity', async () => {
    if (idempotent) {
      // A retry (or a concurrent duplicate that lost the race): the first attempt's entity is the answer.
      const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.entity(ws, id), ConsistentRead: true }));
      if (Item) {
        if (Item.fingerprint !== idempotent.fingerprint) throw keyReused();
        return { items: [], result: toEntity(Item) };
      }
    }
    const now = new Date().toISOString();
    let chain: EntityItem[] = [];
    if (input.parent) {
      chain = await parentChain(ws, input.type, input.parent, input.parentPath);
      const tooDeep = isHierarchyType(input.type) ? depthViolation(chain.length, 1) : undefined;
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
      fields: input.values,
      createdAt: now,
      updatedAt: now,
      ...(isHierarchyType(input.type) ? { own: 0, total: 0 } : {}),
    };
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
          ...(idempotent ? { fingerprint: idempotent.fingerprint } : {}),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
    // The parent and its ancestors must still stand as read (depth, no concurrent delete).
    plan.checkChain(chain);
    return { items: plan.build(), result: entity };
  });
}

/** `versions`: the If-Match of the request (lib/domain/etag.ts), part of the update's condition. */
export async function updateEntityFields(ws: string, id: string, values: Record<string, unknown>, versions?: string[]): Promise<EntityItem> {
  const sets: string[] = ['updatedAt = :now'];
  const removes: string[] = [];
  const names: Record<string, string> = { '#f': 'fields' };
  const vals: Record<string, unknown> = { ':now': new Date().toISOString() };
  Object.entries(values).forEach(([k, v], i) => {
    names[`#k${i}`] = k;
    if (v === null) removes.push(`#f.#k${i}`);
    else {
      vals[`:v${i}`] = v;
      sets.push(`#f.#k${i} = :v${i}`);
    }
  });
  const version = versions ? ` AND updatedAt IN (${versions.map((_, i) => `:m${i}`).join(', ') || ':none'})` : '';
  if (versions) {
    versions.forEach((v, i) => (vals[`:m${i}`] = v));
    if (versions.length === 0) vals[':none'] = '';
  }
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.entity(ws, id),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: `attribute_exists(pk) AND kind = :kind AND attribute_not_exists(deleting)${version}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...vals, ':kind': 'entity' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toEntity(Attributes!);
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) {
      // Which condition failed: a live entity at another version, or none at all.
      if (versions && (await getEntity(ws, id))) throw new PreconditionFailed('entity', id);
      throw new NotFound('entity', id);
    }
    throw err;
  }
}

/**
 * Moves an entity (and its subtree) under a new parent. One transaction: the entity's parent changes
 * (conditioned on its old parent and its total as read), the old ancestors lose its total and the new
 * ones gain it, every ancestor conditioned on its own place — so a concurrent link write, move or
 * delete anywhere on either chain makes the transaction retry from fresh reads.
 */
export async function setParent(ws: string, id: string, target: ParentRef, parentPath: Path): Promise<EntityItem> {
  const parentId = target.id;
  return transact('setParent', async () => {
    const { chain: oldChain, complete } = await readChain(ws, id);
    const e = oldChain[0];
    if (!e || e.deleting || !complete || oldChain.some((x) => x.deleting)) throw new NotFound('entity', id);
    if (PARENTLESS.has(e.type)) invalid(parentPath, `A ${e.type} cannot have a parent.`);
    const newChain = await parentChain(ws, e.type, target, parentPath);
    if (newChain.some((x) => x.id === id)) invalid(parentPath, `Entity ${parentId} is ${id === parentId ? 'the entity itself' : 'a descendant of the entity'}; that would make a cycle.`);
    if (e.parentId === parentId) return { items: [], result: e };
    if (isHierarchyType(e.type)) {
      const { height } = await subtree(ws, id);
      const tooDeep = depthViolation(newChain.length, height);
      if (tooDeep) invalid(parentPath, tooDeep);
    }
    const parent = newChain[0]!;
    const now = new Date().toISOString();
    const plan = new Plan(ws);
    const total = e.total ?? 0;
    if (isHierarchyType(e.type)) {
      for (const a of oldChain.slice(1)) plan.entity(a).total -= total;
      for (const a of newChain) plan.entity(a).total += total;
    } else plan.checkChain(newChain);
    const self = plan.entity(e);
    if (isHierarchyType(e.type)) self.expectTotal = total;
    // A moved entity joins its new parent's child list as its newest member.
    self.set = { parentId: parent.id, parentType: parent.type, gsi2pk: keys.childrenOf(ws, parent.id), gsi2sk: keys.listPosition(now, id), updatedAt: now };
    return { items: plan.build(), result: { ...e, parentId: parent.id, parentType: parent.type, updatedAt: now } };
  });
}

const PARENTLESS = new Set<EntityType>(['product', 'company']);

