// The entities a bulk move has written into its workspace so far, read back from the table (a run
// resumed after a kill holds nothing of an earlier one in memory): one small entry per entity.
import { queryPages } from '../calls.ts';
import * as keys from '../keys.ts';
import { tableName } from '../table.ts';

export interface LoadedEntity {
  type: string;
  parentId: string | undefined;
  /** The parent's type as the entity's record gave it. */
  parentType: string | undefined;
}

/** Every entity of `ws` by id: its type and parent. */
export async function loadedEntities(ws: string): Promise<Map<string, LoadedEntity>> {
  const out = new Map<string, LoadedEntity>();
  for await (const page of queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': keys.kindPrefix.entity },
    ProjectionExpression: 'id, #t, parentId, parentType',
    ExpressionAttributeNames: { '#t': 'type' },
    ConsistentRead: true,
  })) {
    for (const it of page)
      out.set(it.id as string, { type: it.type as string, parentId: it.parentId as string | undefined, parentType: it.parentType as string | undefined });
  }
  return out;
}
