// Index entries kept in step with the records they index (DynamoDB Local): the owner index
// (GSI3) of entities and notes, users' e-mail look-ups, the member list (GSI1), and
// `admin index backfill` giving items written before an index existed their entries.
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { backfillIndexes } from '#lib/store/backfill.ts';
import { deleteEntity } from '#lib/store/cascade.ts';
import { db, tableName } from '#lib/store/client.ts';
import { usersByEmail } from '#lib/store/customers.ts';
import { updateEntity } from '#lib/store/entity-writes.ts';
import * as keys from '#lib/store/keys.ts';
import { deleteNote, getNote, updateNote } from '#lib/store/notes.ts';
import { entitiesAfter, membersAfter, notesAfter } from '#lib/store/pages.ts';
import { sweep } from '#lib/store/sweep.ts';
import { createTableInput } from '#lib/store/table.ts';
import { entity, memberRef, note, storeWorkspace } from './support.ts';
import { ensureTable } from '../../local/dynamodb-local.ts';

const raw = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const userNames = async (ws: string, email: string) => (await usersByEmail(ws, email)).map((u) => u.fields.name);

describe('owner index', () => {
  it("a note's owner: listed under its owner from create, moved by an update, gone with the note", async () => {
    const { ws, admin, member } = await storeWorkspace();
    const maker = await member();
    const n = await note(ws, 'N', { fields: { owner: memberRef(admin) } });
    const owned = async (id: string) => (await notesAfter(ws, { ownerIds: [id] }, undefined, 10)).items.map((i) => i.record.id);
    expect(await owned(admin.id)).toEqual([n.id]);
    await updateNote(ws, n.id, () => ({ values: { owner: memberRef(maker) } }));
    expect([await owned(admin.id), await owned(maker.id)]).toEqual([[], [n.id]]);
    expect((await raw(keys.note(ws, n.id)))!.gsi3sk).toBe(keys.ownedPosition('note', n.createdAt, n.id));
    await deleteNote(ws, n.id);
    expect(await owned(maker.id)).toEqual([]);
  });

  it("an entity's owner: cleared by an update, and a deleted entity leaves its owner's list", async () => {
    const { ws, admin } = await storeWorkspace();
    const p = await entity(ws, 'product', 'P', { fields: { owner: memberRef(admin) } });
    const f = await entity(ws, 'feature', 'F', { parent: p.id, fields: { owner: memberRef(admin) } });
    const owned = async () =>
      (await entitiesAfter(ws, { types: ['product', 'feature'], ownerIds: [admin.id] }, undefined, 10)).items.map((i) => i.record.fields.name);
    expect(await owned()).toEqual(['P', 'F']);
    await updateEntity(ws, f.id, () => ({ values: { owner: null } }));
    expect((await raw(keys.entity(ws, f.id)))!.gsi3pk).toBeUndefined();
    await deleteEntity(ws, p.id);
    expect(await owned()).toEqual([]);
  });
});

describe("users' e-mail look-ups", () => {
  it('found case-insensitively from create; an e-mail change moves the look-up; a delete removes it', async () => {
    const { ws } = await storeWorkspace();
    const acme = await entity(ws, 'company', 'Acme');
    const ada = await entity(ws, 'user', 'Ada', { parent: acme.id, fields: { email: 'Ada@Acme.test' } });
    await entity(ws, 'user', 'Bob', { fields: { email: 'bob@acme.test' } });
    expect(await userNames(ws, 'ADA@acme.TEST')).toEqual(['Ada']);
    await updateEntity(ws, ada.id, () => ({ values: { email: 'ada@new.test' } }));
    expect([await userNames(ws, 'ada@acme.test'), await userNames(ws, 'ada@new.test')]).toEqual([[], ['Ada']]);
    await updateEntity(ws, ada.id, () => ({ values: { email: null } }));
    expect(await userNames(ws, 'ada@new.test')).toEqual([]);
    await updateEntity(ws, ada.id, () => ({ values: { email: 'ada@acme.test' } }));
    await deleteEntity(ws, acme.id);
    // Gone for readers at once; the look-up item itself is the clean-up's (the pending work the sweep finishes).
    expect(await userNames(ws, 'ada@acme.test')).toEqual([]);
    expect(await raw(keys.customerEmail(ws, 'ada@acme.test', ada.id))).toBeDefined();
    expect(await sweep({ workspace: ws, until: Date.now() + 30_000 })).toMatchObject({ finished: 1, failed: 0 });
    expect(await raw(keys.customerEmail(ws, 'ada@acme.test', ada.id))).toBeUndefined();
    // Isolated per workspace.
    const other = await storeWorkspace();
    expect(await userNames(other.ws, 'bob@acme.test')).toEqual([]);
  });

  it('two users with one e-mail are both found', async () => {
    const { ws } = await storeWorkspace();
    await entity(ws, 'user', 'One', { fields: { email: 'same@x.test' } });
    await entity(ws, 'user', 'Two', { fields: { email: 'SAME@x.test' } });
    expect((await userNames(ws, 'same@x.test')).sort()).toEqual(['One', 'Two']);
  });
});

describe('updates', () => {
  it('metadata merges key by key; a change function sees the values as read now', async () => {
    const { ws } = await storeWorkspace();
    const p = await entity(ws, 'product', 'P', { metadata: { source: { system: 'jira', recordId: 'J-1', url: 'https://jira.test/J-1' } } });
    const after = await updateEntity(ws, p.id, (current) => ({
      values: { name: `${String(current.fields.name)}!` },
      metadata: { source: { recordId: 'J-2', url: null } },
    }));
    expect(after.fields.name).toBe('P!');
    expect(after.metadata).toEqual({ source: { system: 'jira', recordId: 'J-2' } });
    expect((await raw(keys.entity(ws, p.id)))!.metadata).toEqual({ source: { system: 'jira', recordId: 'J-2' } });
    const n = await note(ws, 'N', { metadata: { source: { system: 'zendesk' } } });
    await updateNote(ws, n.id, () => ({ values: {}, metadata: { source: null } }));
    expect((await getNote(ws, n.id))!.metadata).toBeUndefined();
  });

  it('concurrent changes of one list field are both applied (each rebuilt from a fresh read)', async () => {
    const { ws } = await storeWorkspace();
    const p = await entity(ws, 'product', 'P', { fields: { tags: [] } });
    const add = (name: string) => updateEntity(ws, p.id, (current) => ({ values: { tags: [...((current.fields.tags as unknown[]) ?? []), { name }] } }));
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map(add));
    expect(((await raw(keys.entity(ws, p.id)))!.fields.tags as Array<{ name: string }>).map((t) => t.name).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('admin index backfill', () => {
  it('gives items written before the indexes their entries, and a second run writes nothing', async () => {
    const { ws, admin } = await storeWorkspace();
    const p = await entity(ws, 'product', 'P', { fields: { owner: memberRef(admin) } });
    const n = await note(ws, 'N', { fields: { owner: memberRef(admin) } });
    const u = await entity(ws, 'user', 'U', { fields: { email: 'u@x.test' } });
    // As an older version wrote them: no GSI3 keys, no member list keys, no look-up.
    for (const key of [keys.entity(ws, p.id), keys.note(ws, n.id)]) {
      await db().send(new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: 'REMOVE gsi3pk, gsi3sk' }));
    }
    await db().send(new UpdateCommand({ TableName: tableName(), Key: keys.member(ws, admin.id), UpdateExpression: 'REMOVE gsi1pk, gsi1sk' }));
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.customerEmail(ws, 'u@x.test', u.id) }));
    // A stale look-up for a user that does not exist.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.customerEmail(ws, 'ghost@x.test', '00000000-0000-4000-8000-000000000000'),
        UpdateExpression: 'SET kind = :k, email = :e, userId = :u',
        ExpressionAttributeValues: { ':k': 'customerEmail', ':e': 'ghost@x.test', ':u': '00000000-0000-4000-8000-000000000000' },
      }),
    );
    expect((await entitiesAfter(ws, { types: ['product'], ownerIds: [admin.id] }, undefined, 5)).items).toEqual([]);
    expect((await membersAfter(ws, {}, undefined, 5)).items).toEqual([]);
    expect(await userNames(ws, 'u@x.test')).toEqual([]);

    expect(await backfillIndexes({ workspace: ws })).toEqual({ checked: 4, written: 5 });
    expect((await entitiesAfter(ws, { types: ['product'], ownerIds: [admin.id] }, undefined, 5)).items.map((i) => i.record.id)).toEqual([p.id]);
    expect((await notesAfter(ws, { ownerIds: [admin.id] }, undefined, 5)).items.map((i) => i.record.id)).toEqual([n.id]);
    expect((await membersAfter(ws, {}, undefined, 5)).items.map((i) => i.record.id)).toEqual([admin.id]);
    expect(await userNames(ws, 'u@x.test')).toEqual(['U']);
    expect(await raw(keys.customerEmail(ws, 'ghost@x.test', '00000000-0000-4000-8000-000000000000'))).toBeUndefined();
    expect(await backfillIndexes({ workspace: ws })).toEqual({ checked: 4, written: 0 });
  });
});

describe('a local table from before an index (local/dynamodb-local.ts ensureTable)', () => {
  it('gains the indexes it lacks, each as the stack declares it; a second call changes nothing', async () => {
    const endpoint = inject('dynamodbEndpoint');
    const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const name = `pm-api-upgrade-${Date.now()}`;
    const wanted = createTableInput(name);
    // The table as it was before GSI3: the first two indexes and only their key attributes.
    const old = wanted.GlobalSecondaryIndexes.slice(0, 2);
    const oldAttrs = new Set(['pk', 'sk', ...old.flatMap((g) => g.KeySchema.map((k) => k.AttributeName))]);
    await client.send(
      new CreateTableCommand({
        ...wanted,
        GlobalSecondaryIndexes: old,
        AttributeDefinitions: wanted.AttributeDefinitions.filter((a) => oldAttrs.has(a.AttributeName)),
      }),
    );
    try {
      expect(await ensureTable(endpoint, name)).toBe('updated');
      const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
      const indexes = (Table!.GlobalSecondaryIndexes ?? []).map((g) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection }));
      expect(indexes.sort((a, b) => a.IndexName!.localeCompare(b.IndexName!))).toEqual(
        wanted.GlobalSecondaryIndexes.map((g) => ({ IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection })),
      );
      expect(await ensureTable(endpoint, name)).toBe('exists');
    } finally {
      await client.send(new DeleteTableCommand({ TableName: name }));
      client.destroy();
    }
  });
});
