// The write path's round trips: what a note write sends to DynamoDB, observed with a middleware that
// records (does not alter) every command with its start and end, grouped into rounds (a call's
// round follows the latest round that had answered before it started). And the per-instance cache
// of ancestor chains (lib/store/chains.ts) under moves: scores stay exact.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db, tableName } from '#lib/store/client.ts';
import { addCustomField } from '#lib/store/custom-fields.ts';
import * as keys from '#lib/store/keys.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { client } from '../score/helpers.ts';
import { call, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';
import { recordCommands, rounds } from '../support/commands.ts';

let app: TestApp;
let ws: TestWorkspace;
let recorder: ReturnType<typeof recordCommands>;
beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace();
  recorder = recordCommands('recordWritePath');
});
afterAll(async () => {
  recorder.stop();
  await app.close();
});
beforeEach(() => recorder.clear());
const sent = () => recorder.sent;

const moveTo = (c: ReturnType<typeof client>, id: string, parent: string) =>
  c.ok('PUT', `/entities/${id}/relationships/parent`, { data: { target: { id: parent } } });
const transactions = () => sent().filter((s) => s.command === 'TransactWriteItems').length;

describe('the reads of a note write go out together', () => {
  it("POST /v2/notes with a customer and a rated link: its reads ride in the bearer check's BatchGetItem (no custom field named: no configuration read), then the transaction (ancestors cached)", async () => {
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const comp = await c.entity('component', p);
    const [f, g] = [await c.entity('feature', comp), await c.entity('feature', comp)];
    const u = await c.entity('user');
    recorder.clear();
    await c.note({ customer: u, links: [[f, 'critical']] });
    // First write under this component: the ancestors are read level by level, once.
    expect(rounds(sent())).toEqual([['BatchGetItem'], ['GetItem'], ['GetItem'], ['TransactWriteItems']]);
    recorder.clear();
    await c.note({ customer: u, links: [[g, 'important']] });
    expect(rounds(sent())).toEqual([['BatchGetItem'], ['TransactWriteItems']]);
    // The credential, its member, then the customer, the target and the customer's rating of it.
    expect(sent()[0]!.keys).toBe(2 + 3);
    expect(await c.score(p)).toBe(3 + 2); // critical 3 on f, important 2 on g
  });

  it('POST /v2/notes naming its owner by id, a custom field by id and an Idempotency-Key: still one BatchGetItem, then the transaction; the replay reads and writes nothing more', async () => {
    const c = client(app, ws.token);
    const f = await c.entity('feature', await c.entity('component', await c.entity('product')));
    const u = await c.entity('user');
    const owner = (await ws.member({ role: 'maker' })).member;
    const field = await addCustomField(ws.workspaceId, {
      entityType: 'textNote',
      name: `Segment ${Math.random().toString(36).slice(2, 8)}`,
      fieldKind: 'text',
    });
    await c.note({ customer: u, links: [[f, 'critical']] }); // caches f's ancestors
    const body = {
      data: {
        type: 'textNote',
        fields: { name: 'Feedback', owner: { id: owner.id.toUpperCase() }, [field.id]: 'enterprise' },
        relationships: [
          { type: 'customer', target: { id: u } },
          { type: 'link', target: { id: f }, importance: 'important' },
        ],
      },
    };
    const headers = { 'idempotency-key': `k-${Math.random()}` };
    recorder.clear();
    const res = await call(app, 'POST', '/v2/notes', { token: ws.token, body, headers });
    expect(res.status, res.text).toBe(201);
    expect(rounds(sent())).toEqual([['BatchGetItem'], ['TransactWriteItems']]);
    // Credential, member; customer, target, rating; owner; the field's definition; the key's record.
    expect(sent()[0]!.keys).toBe(2 + 3 + 1 + 1 + 1);
    const note = (await c.ok('GET', `/notes/${res.json.data.id}`)).json.data;
    expect(note.fields.owner).toEqual({ id: owner.id, email: owner.email });
    expect(note.fields[field.id]).toBe('enterprise');
    recorder.clear();
    const again = await call(app, 'POST', '/v2/notes', { token: ws.token, body, headers });
    expect([again.status, again.json.data.id, again.headers.get('idempotent-replayed')]).toEqual([201, res.json.data.id, 'true']);
    expect(rounds(sent())).toEqual([['BatchGetItem']]);
  });

  it('POST /v2/notes with more keys than one BatchGetItem holds: the bearer check takes 100, the write reads the rest in one more, each ancestor once, and the note is whole', async () => {
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const comp = await c.entity('component', p);
    const features: string[] = [];
    for (let i = 0; i < 50; i++) features.push(await c.entity('feature', comp));
    const u = await c.entity('user');
    recorder.clear();
    const n = await c.note({ customer: u, links: features.map((f): [string, string] => [f, 'critical']) });
    const beforeWrite = sent().slice(
      0,
      sent().findIndex((s) => s.command === 'TransactWriteItems'),
    );
    // 2 liveness keys + customer + 50 targets + 50 ratings = 103: 3 ratings did not fit.
    expect(beforeWrite.filter((s) => s.command === 'BatchGetItem').map((s) => s.keys)).toEqual([100, 3]);
    // The chain above the 50 targets, not cached yet: the component and the product, each read once for all of them.
    expect(beforeWrite.filter((s) => s.command === 'GetItem')).toHaveLength(2);
    expect(await c.score(p)).toBe(50 * 3);
    expect((await c.ok('GET', `/notes/${n}/relationships`)).json.data).toHaveLength(51);
  });

  it("PUT a link's importance (re-rate): the note comes with the credential, one BatchGetItem for link, target and rating, then the transaction", async () => {
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const f = await c.entity('feature', await c.entity('component', p));
    const u = await c.entity('user');
    const n = await c.note({ customer: u, links: [[f, 'critical']] });
    recorder.clear();
    await c.ok('PUT', `/notes/${n}/relationships/link/${f}`, { data: { importance: 'nice to have' } });
    expect(rounds(sent())).toEqual([['BatchGetItem'], ['BatchGetItem'], ['TransactWriteItems']]);
    expect(await c.score(p)).toBe(1);
  });

  it("PUT a note's customer: the note comes with the credential, its links beside the new customer, one BatchGetItem for targets and ratings, then the transaction", async () => {
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const comp = await c.entity('component', p);
    const [f, g] = [await c.entity('feature', comp), await c.entity('feature', comp)];
    const [u, v] = [await c.entity('user'), await c.entity('user')];
    const n = await c.note({
      customer: u,
      links: [
        [f, 'critical'],
        [g, 'nice to have'],
      ],
    });
    await c.note({ customer: v, links: [[f, 'nice to have']] });
    recorder.clear();
    await c.ok('PUT', `/notes/${n}/relationships/customer`, { data: { target: { id: v } } });
    expect(rounds(sent())).toEqual([['BatchGetItem'], ['GetItem', 'Query'], ['BatchGetItem'], ['TransactWriteItems']]);
    // The moved ratings keep their set time, earlier than v's own note on f: f counts v's 'nice to have' (1), g the moved one (1).
    expect([await c.score(f), await c.score(g), await c.score(p)]).toEqual([1, 1, 2]);
    expect(await verifyWorkspace(ws.workspaceId, false)).toMatchObject({ mismatches: 0 });
  });
});

describe('a cached chain never drifts an aggregate', () => {
  it("an ancestor moved since the chain was cached: the write fails its condition, rebuilds from fresh reads, and both products' scores are exact", async () => {
    const c = client(app, ws.token);
    const [p1, p2] = [await c.entity('product'), await c.entity('product')];
    const [c1, c2] = [await c.entity('component', p1), await c.entity('component', p1)];
    const [f, g] = [await c.entity('feature', c1), await c.entity('feature', c2)];
    await c.note({ links: [[f, 'critical']] });
    await c.note({ links: [[g, 'critical']] }); // caches g → c2 → p1
    // The move does not touch the cache (as if another instance made it).
    await moveTo(c, c2, p2);
    recorder.clear();
    await c.note({ links: [[g, 'critical']] });
    expect(transactions(), 'the cached chain failed the condition once, then the rebuild committed').toBe(2);
    expect([await c.score(p1), await c.score(c1), await c.score(p2), await c.score(c2), await c.score(g)]).toEqual([1, 1, 2, 2, 2]);
    // The moved entity itself: its parent is read with the write, its new ancestors are now cached.
    await moveTo(c, f, c2);
    recorder.clear();
    await c.note({ links: [[f, 'critical']] });
    expect(transactions()).toBe(1);
    expect([await c.score(p1), await c.score(c1), await c.score(p2), await c.score(c2), await c.score(f)]).toEqual([0, 0, 4, 4, 2]);
    expect(await verifyWorkspace(ws.workspaceId, false)).toMatchObject({ mismatches: 0 });
  });

  it('one note linking a moved component and a feature under it: the cached chain and the fresh read of the component disagree, the write rebuilds, and the score lands under the new product only', async () => {
    const c = client(app, ws.token);
    const [p1, p2] = [await c.entity('product'), await c.entity('product')];
    const comp = await c.entity('component', p1);
    const f = await c.entity('feature', comp);
    await c.note({ links: [[f, 'nice to have']] }); // caches f's ancestors: comp → p1
    await moveTo(c, comp, p2); // the cache still places comp under p1
    recorder.clear();
    await c.note({
      links: [
        [comp, 'critical'],
        [f, 'critical'],
      ],
    });
    expect(transactions(), 'no transaction is sent from the disagreeing reads').toBe(1);
    expect([await c.score(p1), await c.score(p2), await c.score(comp), await c.score(f)]).toEqual([0, 3, 3, 2]);
    expect(await verifyWorkspace(ws.workspaceId, false)).toMatchObject({ mismatches: 0 });
  });

  it('an ancestor being deleted since the chain was cached: the link is refused with 404 even when it moves no score, nothing written', async () => {
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const comp = await c.entity('component', p);
    const f = await c.entity('feature', comp);
    const u = await c.entity('user');
    await c.note({ customer: u, links: [[f, 'critical']] }); // caches f → comp → p
    // Mark the component as a delete's first step would (the cascade is another module's job).
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.entity(ws.workspaceId, comp),
        UpdateExpression: 'SET deleting = :now',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }),
    );
    const n = await c.note({ customer: u });
    const res = await c.req('POST', `/notes/${n}/relationships`, { data: { type: 'link', target: { id: f }, importance: 'critical' } });
    expect(res.status, res.text).toBe(404);
    expect(res.json.errors[0].detail).toContain(f);
    expect((await c.req('GET', `/notes/${n}/relationships`)).json.data).toEqual([expect.objectContaining({ type: 'customer' })]);
  });
});
