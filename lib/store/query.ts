// Reading a whole Query or Scan result, every page (lib/store/calls.ts's page loop).
import type { QueryCommandInput, ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { queryPages, scanPages } from './calls.ts';
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
