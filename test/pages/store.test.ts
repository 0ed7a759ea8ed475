// The store reads behind the member pages (DynamoDB Local): an entity's linked notes newest first
// through its links' GSI3 entries, a customer's notes newest first (GSI2), the children's scores
// read in BatchGetItems of at most 100 keys whatever the subtree, and `admin index backfill` for
// links and notes written before those index entries existed.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { backfillIndexes } from '#lib/store/backfill.ts';
import { db, tableName } from '#lib/store/client.ts';
import type { EntityItem } from '#lib/store/entities.ts';
import * as keys from '#lib/store/keys.ts';
import { upsertLink } from '#lib/store/notes.ts';
import { customerNotesNewestFirst, linkedNotesNewestFirst } from '#lib/store/pages.ts';
import { scoredEntities } from '#lib/store/ranking.ts';
import { readScore } from '#lib/store/score.ts';
import { entity, note, storeWorkspace } from '../store/support.ts';
import { recordCommands } from '../support/commands.ts';

const raw = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const names = (items: Array<{ record: { note?: { fields: Record<string, unknown> }; fields?: Record<string, unknown> } }>) =>
  items.map((i) => (i.record.note ?? i.record).fields!.name);

describe("an entity's linked notes, newest first", () => {
  it('by when each link was set; a re-rate moves it first; a note being deleted is left out; pages continue below a position', async () => {
    const { ws } = await storeWorkspace();
    const p = await entity(ws, 'product', 'P');
    const f = await entity(ws, 'feature', 'F', { parent: p.id });
    const made = [];
    for (const name of ['one', 'two', 'three', 'four']) made.push(await note(ws, name, { links: [f.id] }));
    expect(names((await linkedNotesNewestFirst(ws, f.id, undefined, 10)).items)).toEqual(['four', 'three', 'two', 'one']);
    await upsertLink(ws, made[1]!.id, f.id, 'critical', { create: false, path: [] });
    const first = await linkedNotesNewestFirst(ws, f.id, undefined, 2);
    expect(names(first.items)).toEqual(['two', 'four']);
    expect(first.items[0]!.record.link.importance).toBe('critical');
    expect(first.before).toBe(first.items[1]!.position);
    const second = await linkedNotesNewestFirst(ws, f.id, first.before, 2);
    expect(names(second.items)).toEqual(['three', 'one']);
    expect(second.before).toBeUndefined();
    // A note whose delete has begun is gone for every reader.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.note(ws, made[2]!.id),
        UpdateExpression: 'SET deleting = :now',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }),
    );
    expect(names((await linkedNotesNewestFirst(ws, f.id, undefined, 10)).items)).toEqual(['two', 'four', 'one']);
  });

  it("a customer's notes: newest first by creation", async () => {
    const { ws } = await storeWorkspace();
    const acme = await entity(ws, 'company', 'Acme');
    for (const name of ['a', 'b', 'c']) await note(ws, name, { customer: acme.id });
    await note(ws, 'other', {});
    expect(names((await customerNotesNewestFirst(ws, acme.id, undefined, 10)).items)).toEqual(['c', 'b', 'a']);
    const page = await customerNotesNewestFirst(ws, acme.id, undefined, 2);
    expect(names((await customerNotesNewestFirst(ws, acme.id, page.before, 2)).items)).toEqual(['a']);
  });
});

describe('children with their scores, for a ranking', () => {
  it("reads the children's items in BatchGetItems of at most 100 keys, nothing below them; the scores are the score route's", async () => {
    const { ws } = await storeWorkspace();
    const p = await entity(ws, 'product', 'P');
    const features: EntityItem[] = [];
    for (let i = 0; i < 230; i++) features.push(await entity(ws, 'feature', `F${i}`, { parent: p.id }));
    // Grandchildren the page never reads.
    for (let i = 0; i < 5; i++) await entity(ws, 'subfeature', `S${i}`, { parent: features[0]!.id });
    await note(ws, 'n', { links: [features[7]!.id, features[0]!.id] });
    const recorder = recordCommands('pagesRanking');
    let found: Awaited<ReturnType<typeof scoredEntities>>;
    try {
      found = await scoredEntities(ws, { childrenOf: p.id });
    } finally {
      recorder.stop();
    }
    expect(found.tooMany).toBe(false);
    if (found.tooMany) return;
    expect(found.entities.map((e) => e.name)).toEqual(features.map((f) => f.fields.name));
    // The ids from the children index, then the items: three BatchGetItems, side by side.
    expect(
      recorder.sent
        .filter((c) => c.command === 'BatchGetItem')
        .map((c) => c.keys)
        .sort((a, b) => a! - b!),
    ).toEqual([30, 100, 100]);
    expect(recorder.sent.map((c) => c.command).filter((c) => c !== 'BatchGetItem')).toEqual(['Query']);
    for (const e of found.entities.slice(0, 10)) expect(e.score).toBe(await readScore(ws, e.id));
    // A note without a customer counts 1 on each entity it links.
    expect(found.entities.find((e) => e.id === features[7]!.id)!.score).toBe(1);
    expect(await scoredEntities(ws, { childrenOf: p.id }, 229)).toEqual({ tooMany: true });
  });
});

describe('admin index backfill, for the pages', () => {
  it("gives links written before their GSI3 entries those entries, and a customer's notes their time-ordered GSI2 key; a second run writes nothing", async () => {
    const { ws } = await storeWorkspace();
    const p = await entity(ws, 'product', 'P');
    const acme = await entity(ws, 'company', 'Acme');
    const older = await note(ws, 'older', { customer: acme.id, links: [p.id] });
    const newer = await note(ws, 'newer', { customer: acme.id, links: [p.id] });
    // As an older version wrote them: links without GSI3, customers' notes keyed by the bare id.
    for (const n of [older, newer]) {
      await db().send(new UpdateCommand({ TableName: tableName(), Key: keys.link(ws, n.id, p.id), UpdateExpression: 'REMOVE gsi3pk, gsi3sk' }));
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.note(ws, n.id),
          UpdateExpression: 'SET gsi2sk = :id',
          ExpressionAttributeValues: { ':id': n.id },
        }),
      );
    }
    expect((await linkedNotesNewestFirst(ws, p.id, undefined, 10)).items).toEqual([]);
    const report = await backfillIndexes({ workspace: ws });
    expect(report.written).toBe(4);
    expect(names((await linkedNotesNewestFirst(ws, p.id, undefined, 10)).items)).toEqual(['newer', 'older']);
    expect(names((await customerNotesNewestFirst(ws, acme.id, undefined, 10)).items)).toEqual(['newer', 'older']);
    expect((await raw(keys.note(ws, older.id)))!.gsi2sk).toBe(keys.listPosition(older.createdAt, older.id));
    expect((await backfillIndexes({ workspace: ws })).written).toBe(0);
  });
});
