// Bulk test data written straight into the table: a thousand entities per test would be slow
// through the create endpoints. Notes and links use the store's own item builders; entities use
// entityItem below, which seed-layout.test.ts holds equal to what POST /v2/entities writes.
// Every item gets a distinct createdAt, so the expected list order is the seeding order.
// (No score bookkeeping: these are list tests only.)
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomerType, EntityType } from '#lib/domain/hierarchy.ts';
import type { Importance } from '#lib/domain/score.ts';
import { linkItem } from '#lib/store/aggregates.ts';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { noteItem } from '#lib/store/notes.ts';

let clock = Date.parse('2030-01-01T00:00:00.000Z');
const nextCreatedAt = () => new Date((clock += 7)).toISOString();

async function putAll(items: Record<string, unknown>[]) {
  for (let i = 0; i < items.length; i += 25) {
    let requests = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (requests.length) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (out.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
    }
  }
}

interface SeededEntity {
  id: string;
  type: EntityType;
}

interface SeededNote {
  id: string;
  type: 'textNote';
  createdAt: string;
}

/** An entity item as lib/store/entity-writes.ts createEntity writes it (without score aggregates). */
export function entityItem(ws: string, e: { id: string; type: EntityType; createdAt: string; fields: Record<string, unknown>; parent?: SeededEntity }) {
  return {
    ...keys.entity(ws, e.id),
    kind: 'entity',
    id: e.id,
    type: e.type,
    ...(e.parent ? { parentId: e.parent.id, parentType: e.parent.type } : {}),
    fields: e.fields,
    createdAt: e.createdAt,
    updatedAt: e.createdAt,
    gsi1pk: keys.entitiesOfType(ws, e.type),
    gsi1sk: keys.listPosition(e.createdAt, e.id),
    ...(e.parent ? { gsi2pk: keys.childrenOf(ws, e.parent.id), gsi2sk: keys.listPosition(e.createdAt, e.id) } : {}),
    ...keys.ownerIndex(ws, 'entity', e),
  };
}

export async function seedEntities<T extends EntityType = 'feature'>(
  ws: string,
  count: number,
  options: { type?: T; parent?: SeededEntity; fields?: (i: number) => Record<string, unknown> } = {},
): Promise<Array<SeededEntity & { type: T }>> {
  const type = options.type ?? ('feature' as T);
  const items = Array.from({ length: count }, (_, i) =>
    entityItem(ws, {
      id: randomUUID(),
      type,
      createdAt: nextCreatedAt(),
      fields: options.fields ? options.fields(i) : { name: `${type} ${i}` },
      ...(options.parent ? { parent: options.parent } : {}),
    }),
  );
  await putAll(items);
  return items.map((i) => ({ id: i.id, type }));
}

export async function seedNotes(
  ws: string,
  count: number,
  options: { fields?: (i: number) => Record<string, unknown>; customer?: { id: string; type: CustomerType } } = {},
): Promise<SeededNote[]> {
  const items = Array.from({ length: count }, (_, i) =>
    noteItem(ws, {
      id: randomUUID(),
      createdAt: nextCreatedAt(),
      fields: options.fields ? options.fields(i) : { name: `note ${i}` },
      ...(options.customer ? { customer: options.customer } : {}),
    }),
  );
  await putAll(items);
  return items.map((i) => ({ id: String(i.id), type: 'textNote' as const, createdAt: String(i.createdAt) }));
}

/** Links from one note to many entities. */
export async function seedLinks(ws: string, noteId: string, entities: SeededEntity[], importance: Importance = 'important') {
  await putAll(entities.map((e) => linkItem(ws, { noteId, entityId: e.id, entityType: e.type, importance, setAt: Date.now(), rev: 1 })));
}
