import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}

export async function createWorkspace(name: string): Promise<Workspace> {
  const ws: Workspace = { id: randomUUID(), name, createdAt: new Date().toISOString() };
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.workspace(ws.id), kind: 'workspace', ...ws },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return ws;
}

export async function getWorkspace(id: string): Promise<Workspace | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.workspace(id), ConsistentRead: true }));
  if (!Item) return undefined;
  const w = Item as Workspace;
  return { id: w.id, name: w.name, createdAt: w.createdAt };
}
