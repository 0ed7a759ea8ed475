// Note changes that touch more items than one transaction holds go in exact, idempotent steps
// (lib/store/notes.ts); a crash between steps is finished by verify --repair.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { client } from './helpers.ts';
import { verifyScores } from '../../local/admin/score.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const LINKS = 45; // 45 × (link + rating + feature) + ancestors > 100 items

async function setup(c: ReturnType<typeof client>) {
  const product = await c.entity('product');
  const comps = await Promise.all([0, 1, 2].map(() => c.entity('component', product)));
  const features = await Promise.all(Array.from({ length: LINKS }, (_, i) => c.entity('feature', comps[i % 3])));
  const acme = await c.entity('company');
  const globex = await c.entity('company');
  return { product, comps, features, acme, globex };
}

describe('fan-out beyond one transaction', () => {
  it("a note with 45 links: create, customer change and delete each end exact (stepwise), and verify finds no drift", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await setup(c);
    // globex rates feature 0 before the big note does; moving the big note to globex keeps its later set time.
    await c.note({ customer: t.globex, links: [[t.features[0]!, 'nice to have']] });
    const big = await c.note({ customer: t.acme, links: t.features.map((f) => [f, 'critical'] as [string, string]) });
    expect(await c.score(t.product)).toBe(LINKS * 3 + 1);
    expect(await c.score(t.features[0]!)).toBe(3 + 1);
    await c.ok('PUT', `/notes/${big}/relationships/customer`, { data: { target: { id: t.globex } } });
    // globex: its big-note rating (set later) counts on feature 0; acme has none left.
    expect(await c.score(t.features[0]!)).toBe(3);
    expect(await c.score(t.product)).toBe(LINKS * 3);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
    expect((await c.req('DELETE', `/notes/${big}`)).status).toBe(204);
    expectError(await c.req('GET', `/notes/${big}`), 'resource.notFound');
    expect(await c.score(t.product)).toBe(1);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  }, 90_000);

  it('a note delete that stopped after marking the note: links still count exactly, verify --repair finishes it', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await setup(c);
    const big = await c.note({ customer: t.acme, links: t.features.map((f) => [f, 'important'] as [string, string]) });
    // The first step of a stepwise delete, then the crash.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.note(ws.workspaceId, big),
        UpdateExpression: 'SET deleting = :now REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }),
    );
    expectError(await c.req('GET', `/notes/${big}`), 'resource.notFound');
    expectError(await c.req('POST', `/notes/${big}/relationships`, { data: { type: 'link', target: { id: t.product } } }), 'resource.notFound');
    expect(await c.score(t.product)).toBe(LINKS * 2);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
    expect(await verifyScores({ workspace: ws.workspaceId, repair: true })).toMatchObject({ mismatches: 0 });
    expect(await c.score(t.product)).toBe(0);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, repaired: 0 });
  }, 90_000);

  it("a customer change that stopped after updating the note: repeating the PUT moves the remaining ratings", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await setup(c);
    const big = await c.note({ customer: t.acme, links: t.features.slice(0, 3).map((f) => [f, 'critical'] as [string, string]) });
    await c.note({ customer: t.globex, links: [[t.features[0]!, 'nice to have']] });
    expect(await c.score(t.features[0]!)).toBe(3 + 1);
    // The first step of a stepwise change (the note names globex), then the crash: links still filed under acme.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.note(ws.workspaceId, big),
        UpdateExpression: 'SET customer = :c, gsi2pk = :g, gsi2sk = :id',
        ExpressionAttributeValues: { ':c': { id: t.globex, type: 'company' }, ':g': keys.notesOfCustomer(ws.workspaceId, t.globex), ':id': big },
      }),
    );
    expect(await c.score(t.features[0]!)).toBe(3 + 1);
    const again = await c.req('PUT', `/notes/${big}/relationships/customer`, { data: { target: { id: t.globex } } });
    expect(again.status, again.text).toBe(200);
    // globex's later rating (the nice-to-have) now counts alone on feature 0.
    expect(await c.score(t.features[0]!)).toBe(1);
    expect(await c.score(t.product)).toBe(1 + 3 + 3);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  }, 90_000);
});
