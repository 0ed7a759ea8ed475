// Reading a whole Query or Scan result, every page, through lib-dynamodb's paginators.
import { paginateQuery, paginateScan, type QueryCommandInput, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';

/** An item as read, before the module that wrote it gives it its type. */
export type StoredItem = Record<string, unknown>;

/** Every item the Query returns (on the configured table), in order. */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  for await (const page of paginateQuery({ client: db() }, { TableName: tableName(), ...input })) items.push(...(page.Items ?? []));
  return items;
}

/** Every item the Scan returns (on the configured table). */
export async function scanAll(input: Omit<ScanCommandInput, 'TableName'>): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  for await (const page of paginateScan({ client: db() }, { TableName: tableName(), ...input })) items.push(...(page.Items ?? []));
  return items;
}
