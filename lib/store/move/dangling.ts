// What a bulk move takes back out of its workspace before anything refers to it: entities a source
// listed under a parent that was not written (the caller judges them from ./present.ts loadedEntities), and
// relations with a side that was not. An entity that needs a parent is written as one item (a customer, the only
// kind with items of its own beside it, needs none), so dropping the item drops the entity; a
// relation is its two items, one per side (keys.relation).
import { PARALLEL } from './load.ts';
import { batchWriteAll } from '../batch.ts';
import { updateItem } from '../calls.ts';
import * as keys from '../keys.ts';
import { partitionPages } from '../query.ts';
import { tableName } from '../table.ts';

/** One side of a relation, as its item names it. */
export interface RelationSide {
  entityId: string;
  type: string;
  targetId: string;
}

/** Every relation item of `ws`. */
export async function* relationSides(ws: string): AsyncGenerator<RelationSide> {
  for await (const page of partitionPages(ws, keys.relationsPrefix, ['entityId', 'type', 'targetId'])) {
    for (const it of page) yield { entityId: it.entityId as string, type: it.type as string, targetId: it.targetId as string };
  }
}

/** Deletes the entities' items and the relation items; takes each named entity's parent away. Idempotent. */
export async function dropDangling(
  ws: string,
  drop: { entities: Iterable<string>; relations: Iterable<RelationSide>; parentsOf: Iterable<string> },
): Promise<void> {
  const deletes = [
    ...[...drop.entities].map((id) => keys.entity(ws, id)),
    ...[...drop.relations].map((r) => keys.relation(ws, r.entityId, r.type, r.targetId)),
  ].map((Key) => ({ DeleteRequest: { Key } }));
  await batchWriteAll(deletes, PARALLEL);
  for (const id of drop.parentsOf) {
    await updateItem({
      TableName: tableName(),
      Key: keys.entity(ws, id),
      UpdateExpression: 'REMOVE parentId, parentType, gsi2pk, gsi2sk',
      ConditionExpression: 'attribute_exists(pk)',
    }).catch((err: unknown) => {
      // Already gone is what the caller wants gone anyway.
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    });
  }
}
