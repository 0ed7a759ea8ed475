// The customer score read: one GetItem of the entity item, which carries its subtree total (or
// none: the item read with the request's credential, lib/store/preread.ts).
import { getItem } from './calls.ts';
import * as keys from './keys.ts';
import { prereadFor, type Prereads } from './preread.ts';
import { tableName } from './table.ts';
import { isHierarchyType } from '../domain/hierarchy.ts';

/** The score of a live hierarchy entity, or undefined (missing, a customer, a note, being deleted). */
export async function readScore(ws: string, id: string, preread?: Prereads): Promise<number | undefined> {
  const key = keys.entity(ws, id);
  const { Item } =
    prereadFor(preread, key) ??
    (await getItem({
      TableName: tableName(),
      Key: key,
      ConsistentRead: true,
      ProjectionExpression: '#k, #t, #total, deleting',
      ExpressionAttributeNames: { '#k': 'kind', '#t': 'type', '#total': 'total' },
    }));
  if (!Item || Item.kind !== 'entity' || Item.deleting || !isHierarchyType(Item.type)) return undefined;
  return scoreOfTotal(Item.total);
}

/** The score an entity's stored total stands for. A total below 0 would be drift; the specification's minimum is 0 (verify reports it). */
export const scoreOfTotal = (total: unknown): number => Math.max(0, Number(total ?? 0));
