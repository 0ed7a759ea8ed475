// Bulk test data written straight into the table with the documented item layout
// (lib/store/keys.ts): hundreds of items per test would be slow through the create endpoints.
// Every item gets a distinct createdAt, so the expected list order is the seeding order.
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';

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

export interface SeededEntity {
  id: string;
  type: string;
}

export async function seedEntities(
  ws: string,
  count: number,
  options: { type?: string; parent?: SeededEntity; fields?: (i: number) => Record<string, unknown> } = {},
): Promise<SeededEntity[]> {
  const type = options.type ?? 'feature';
  const items = Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    const createdAt = nextCreatedAt();
    return {
      ...keys.entity(ws, id),
      kind: 'entity',
      id,
      type,
      fields: options.fields ? options.fields(i) : { name: `${type} ${i}` },
      createdAt,
      updatedAt: createdAt,
      gsi1pk: keys.entitiesOfType(ws, type),
      gsi1sk: `${createdAt}#${id}`,
      ...(options.parent
        ? { parentId: options.parent.id, parentType: options.parent.type, gsi2pk: keys.childrenOf(ws, options.parent.id), gsi2sk: `${createdAt}#${id}` }
        : {}),
    };
  });
  await putAll(items);
  return items.map((i) => ({ id: i.id, type }));
}

export async function seedNotes(
  ws: string,
  count: number,
  options: { fields?: (i: number) => Record<string, unknown>; customer?: SeededEntity } = {},
): Promise<SeededEntity[]> {
  const items = Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    const createdAt = nextCreatedAt();
    return {
      ...keys.note(ws, id),
      kind: 'note',
      id,
      type: 'textNote',
      fields: options.fields ? options.fields(i) : { name: `note ${i}` },
      ...(options.customer ? { customer: { id: options.customer.id, type: options.customer.type } } : {}),
      createdAt,
      updatedAt: createdAt,
      gsi1pk: keys.notesOf(ws),
      gsi1sk: `${createdAt}#${id}`,
    };
  });
  await putAll(items);
  return items.map((i) => ({ id: i.id, type: 'textNote' }));
}

/** Links from one note to many entities (no score bookkeeping: list tests only). */
export async function seedLinks(ws: string, noteId: string, entities: SeededEntity[], importance = 'important') {
  await putAll(
    entities.map((e) => ({
      ...keys.link(ws, noteId, e.id),
      kind: 'link',
      noteId,
      entityId: e.id,
      entityType: e.type,
      importance,
      setAt: Date.now(),
      gsi2pk: keys.linksTo(ws, e.id),
      gsi2sk: noteId,
    })),
  );
}
