// Reading a whole Query or Scan result, every page (lib/store/calls.ts's page loop).
import type { QueryCommandInput, ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { queryPages, scanPages } from './calls.ts';
import * as keys from './keys.ts';
import { tableName } from './table.ts';

/** An item as read, before the module that wrote it gives it its type. */
export type StoredItem = Record<string, unknown>;

/** Every item the Query returns (on the configured table), in order. */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  for await (const page of queryPages({ TableName: tableName(), ...input })) items.push(...page);
  return items;
}

/** Every item the Scan returns (on the configured table). */
export async function scanAll(input: Omit<ScanCommandInput, 'TableName'>): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  for await (const page of scanPages({ TableName: tableName(), ...input })) items.push(...page);
  return items;
}

/**
 * The items of workspace `ws` whose sort key starts with `prefix` (lib/store/keys.ts), page by page,
 * read consistently; only `attributes` when they are named; at most `pageSize` items a page when given.
 */
export function partitionPages(ws: string, prefix: string, attributes?: readonly string[], pageSize?: number): AsyncGenerator<StoredItem[]> {
  const names = attributes && Object.fromEntries(attributes.map((a, i) => [`#a${i}`, a]));
  return queryPages({
    TableName: tableName(),
    // The whole partition for an empty prefix (DynamoDB refuses begins_with on an empty string).
    KeyConditionExpression: prefix ? 'pk = :pk AND begins_with(sk, :p)' : 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.partition(ws), ...(prefix ? { ':p': prefix } : {}) },
    ...(names ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names } : {}),
    ConsistentRead: true,
    ...(pageSize !== undefined ? { Limit: pageSize } : {}),
  });
}

/** Every item partitionPages reads, in order. */
export async function partitionItems(ws: string, prefix: string, attributes?: readonly string[]): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  for await (const page of partitionPages(ws, prefix, attributes)) items.push(...page);
  return items;
}
