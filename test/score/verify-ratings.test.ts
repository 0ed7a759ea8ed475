// `score verify` checks an entity's rating items against its links without holding the links
// (lib/store/verify.ts checkOwn): each kind of rating drift is found, counted once, repaired to what
// the links say, and the entity's own score stays what ownScores gives on the links — also when the
// links and rating items span many pages.
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ratingItem } from '#lib/store/aggregates.ts';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { client } from './helpers.ts';
import { newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

/** What a run checks here: 6 links, 6 notes' copies of their links, 3 rating items, 2 entities. */
const CHECKED = 17;

/**
 * One feature under a product, rated through the API: customer a by two critical notes (3), b by an
 * important one (2), d by a not-important one (0), and two anonymous notes (1 each): own 7.
 */
async function rated() {
  const ws = await newWorkspace();
  const c = client(app, ws.token);
  const p = await c.entity('product');
  const f = await c.entity('feature', p);
  const [a, b, d] = [await c.entity('company'), await c.entity('company'), await c.entity('company')];
  const n1 = await c.note({ customer: a, links: [[f, 'critical']] });
  const n2 = await c.note({ customer: a, links: [[f, 'critical']] });
  const n3 = await c.note({ customer: b, links: [[f, 'important']] });
  const n4 = await c.note({ links: [[f, 'critical']] });
  const n5 = await c.note({ links: [[f, 'important']] });
  const n6 = await c.note({ customer: d, links: [[f, 'not important']] });
  const wsId = ws.workspaceId;
  const rating = async (customer: string) =>
    (await db().send(new GetCommand({ TableName: tableName(), Key: keys.rating(wsId, f, customer), ConsistentRead: true }))).Item;
  const update = (customer: string, UpdateExpression: string, names: Record<string, string>, values?: Record<string, unknown>) =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.rating(wsId, f, customer),
        UpdateExpression,
        ExpressionAttributeNames: names,
        ...(values ? { ExpressionAttributeValues: values } : {}),
      }),
    );
  const verify = (repair: boolean, pageSize?: number) => verifyWorkspace(wsId, repair, undefined, pageSize);
  const written = { a: await rating(a), b: await rating(b), d: await rating(d) };
  expect(await verify(false)).toEqual({ checked: CHECKED, mismatches: 0, repaired: 0, pending: 0 });
  expect([await c.score(f), await c.score(p)]).toEqual([7, 7]);
  return { ws: wsId, c, p, f, a, b, d, notes: [n1, n2, n3, n4, n5, n6] as const, rating, update, verify, written };
}

/** The rating item as verify --repair rewrites it: the entries and weight written through the API, one version on. */
const rewritten = (item: Record<string, unknown> | undefined) => ({ ...item, ver: (item!.ver as number) + 1 });

describe('score verify: rating items against the links, streamed', () => {
  it('a rating item missing the entry of a linked note is one mismatch; --repair puts the entry back', async () => {
    const t = await rated();
    const [, , n3] = t.notes;
    await t.update(t.b, 'REMOVE entries.#n', { '#n': n3 });
    expect(await t.verify(false)).toEqual({ checked: CHECKED, mismatches: 1, repaired: 0, pending: 0 });
    expect(await t.verify(true)).toEqual({ checked: CHECKED, mismatches: 1, repaired: 1, pending: 0 });
    expect(await t.rating(t.b)).toEqual(rewritten(t.written.b));
    expect(await t.verify(false)).toEqual({ checked: CHECKED, mismatches: 0, repaired: 0, pending: 0 });
  });

  it('an entry with no link behind it (a note never linked, a note of another customer) is one mismatch per item; --repair removes it', async () => {
    const t = await rated();
    const [, , n3] = t.notes;
    await t.update(t.d, 'SET entries.#x = :e', { '#x': randomUUID() }, { ':e': { w: 3, at: Date.now() } });
    await t.update(t.a, 'SET entries.#n = :e', { '#n': n3 }, { ':e': { w: 2, at: 1 } });
    expect(await t.verify(false)).toEqual({ checked: CHECKED, mismatches: 2, repaired: 0, pending: 0 });
    expect(await t.verify(true)).toEqual({ checked: CHECKED, mismatches: 2, repaired: 2, pending: 0 });
    expect([await t.rating(t.a), await t.rating(t.d)]).toEqual([rewritten(t.written.a), rewritten(t.written.d)]);
    expect([await t.c.score(t.f), await t.c.score(t.p)]).toEqual([7, 7]);
    expect(await t.verify(false)).toEqual({ checked: CHECKED, mismatches: 0, repaired: 0, pending: 0 });
  });

  it('an entry with another weight, and an item whose stored weight is not its counted one, are one mismatch each', async () => {
    const t = await rated();
    const [, , n3] = t.notes;
    await t.update(t.b, 'SET entries.#n.w = :w', { '#n': n3 }, { ':w': 3 });
    await t.update(t.d, 'SET #w = :w', { '#w': 'weight' }, { ':w': 1 });
    expect(await t.verify(false)).toEqual({ checked: CHECKED, mismatches: 2, repaired: 0, pending: 0 });
    expect(await t.verify(true)).toEqual({ checked: CHECKED, mismatches: 2, repaired: 2, pending: 0 });
    expect([await t.rating(t.b), await t.rating(t.d)]).toEqual([rewritten(t.written.b), rewritten(t.written.d)]);
    expect(await t.verify(false)).toEqual({ checked: CHECKED, mismatches: 0, repaired: 0, pending: 0 });
  });

  it("a rating item for a customer with no link to the entity is removed, and a customer's missing item is created at version 1", async () => {
    const t = await rated();
    const [, , , n4] = t.notes;
    const stranger = await t.c.entity('company');
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: ratingItem(t.ws, { entityId: t.f, customerId: stranger, entries: { [n4]: { w: 3, at: 1 } }, weight: 3, ver: 4 }),
      }),
    );
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.rating(t.ws, t.f, t.b) }));
    // checked: the stranger's item and b's created one, beside the two kept (one more than before).
    expect(await t.verify(false)).toEqual({ checked: CHECKED + 1, mismatches: 2, repaired: 0, pending: 0 });
    expect(await t.verify(true)).toEqual({ checked: CHECKED + 1, mismatches: 2, repaired: 2, pending: 0 });
    expect(await t.rating(stranger)).toBeUndefined();
    expect(await t.rating(t.b)).toEqual({ ...t.written.b, ver: 1 });
    expect([await t.c.score(t.f), await t.c.score(t.p)]).toEqual([7, 7]);
    expect(await t.verify(false)).toEqual({ checked: CHECKED, mismatches: 0, repaired: 0, pending: 0 });
  });

  it('links and rating items across many pages (one item a page): every drift above at once is found and repaired, and own stays what the links give', async () => {
    const t = await rated();
    const [n1, , n3] = t.notes;
    expect(await t.verify(false, 1)).toEqual({ checked: CHECKED, mismatches: 0, repaired: 0, pending: 0 });
    await t.update(t.a, 'REMOVE entries.#n', { '#n': n1 });
    await t.update(t.b, 'SET entries.#n.w = :w', { '#n': n3 }, { ':w': 1 });
    await t.update(t.d, 'SET entries.#x = :e', { '#x': randomUUID() }, { ':e': { w: 3, at: Date.now() } });
    // The entities' own and total are still right: were own miscounted, they would be mismatches too.
    expect(await t.verify(false, 1)).toEqual({ checked: CHECKED, mismatches: 3, repaired: 0, pending: 0 });
    expect(await t.verify(false, 2)).toEqual({ checked: CHECKED, mismatches: 3, repaired: 0, pending: 0 });
    expect(await t.verify(true, 1)).toEqual({ checked: CHECKED, mismatches: 3, repaired: 3, pending: 0 });
    expect([await t.rating(t.a), await t.rating(t.b), await t.rating(t.d)]).toEqual([rewritten(t.written.a), rewritten(t.written.b), rewritten(t.written.d)]);
    expect([await t.c.score(t.f), await t.c.score(t.p)]).toEqual([7, 7]);
    expect(await t.verify(false)).toEqual({ checked: CHECKED, mismatches: 0, repaired: 0, pending: 0 });
  });

  it("with the entity's own drifted as well, a repair across pages writes the own the links give (7) and the rating items together", async () => {
    const t = await rated();
    const [, n2] = t.notes;
    await t.update(t.a, 'REMOVE entries.#n', { '#n': n2 });
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.entity(t.ws, t.f),
        UpdateExpression: 'SET #o = :o, #t = :o',
        ExpressionAttributeNames: { '#o': 'own', '#t': 'total' },
        ExpressionAttributeValues: { ':o': 40 },
      }),
    );
    expect(await t.verify(true, 1)).toEqual({ checked: CHECKED, mismatches: 2, repaired: 2, pending: 0 });
    expect(await t.rating(t.a)).toEqual(rewritten(t.written.a));
    expect([await t.c.score(t.f), await t.c.score(t.p)]).toEqual([7, 7]);
    expect(await t.verify(false, 1)).toEqual({ checked: CHECKED, mismatches: 0, repaired: 0, pending: 0 });
  });
});
