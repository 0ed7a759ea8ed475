// `admin score verify [--workspace W] [--repair]`: recompute from raw links, report and repair drift.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkItem } from '#lib/store/aggregates.ts';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { noteItem } from '#lib/store/notes.ts';
import { client } from './helpers.ts';
import { verifyProgress } from '../../local/admin/progress.ts';
import { verifyScores } from '../../local/admin/score.ts';
import { newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

describe('score verify', () => {
  it('reports a drifted total and a drifted rating item, and --repair rewrites them', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const f = await c.entity('feature', p);
    const acme = await c.entity('company');
    await c.note({ customer: acme, links: [[f, 'important']] });
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toEqual({ checked: 5, mismatches: 0, repaired: 0, pending: 0 });
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.entity(ws.workspaceId, p),
        UpdateExpression: 'SET #t = :t',
        ExpressionAttributeNames: { '#t': 'total' },
        ExpressionAttributeValues: { ':t': 40 },
      }),
    );
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.rating(ws.workspaceId, f, acme),
        UpdateExpression: 'SET weight = :w',
        ExpressionAttributeValues: { ':w': 3 },
      }),
    );
    expect(await c.score(p)).toBe(40);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toEqual({ checked: 5, mismatches: 2, repaired: 0, pending: 0 });
    expect(await verifyScores({ workspace: ws.workspaceId, repair: true })).toEqual({ checked: 5, mismatches: 2, repaired: 2, pending: 0 });
    expect(await c.score(p)).toBe(2);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toEqual({ checked: 5, mismatches: 0, repaired: 0, pending: 0 });
  });

  it('builds every aggregate from bulk-loaded raw notes and links (the layout in lib/store/aggregates.ts)', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const f1 = await c.entity('feature', p);
    const f2 = await c.entity('feature', p);
    const acme = await c.entity('company');
    const t0 = Date.now() - 10_000;
    const n1 = randomUUID();
    const n2 = randomUUID();
    const n3 = randomUUID();
    const items = [
      noteItem(ws.workspaceId, { id: n1, name: 'old', customer: { id: acme, type: 'company' }, createdAt: new Date(t0).toISOString() }),
      noteItem(ws.workspaceId, { id: n2, name: 'new', customer: { id: acme, type: 'company' }, createdAt: new Date(t0 + 1).toISOString() }),
      noteItem(ws.workspaceId, { id: n3, name: 'anon', createdAt: new Date(t0 + 2).toISOString() }),
      linkItem(ws.workspaceId, { noteId: n1, entityId: f1, entityType: 'feature', importance: 'critical', setAt: t0, rev: 0 }),
      linkItem(ws.workspaceId, { noteId: n2, entityId: f1, entityType: 'feature', importance: 'nice to have', setAt: t0 + 1, rev: 0 }),
      linkItem(ws.workspaceId, { noteId: n1, entityId: f2, entityType: 'feature', importance: 'important', setAt: t0, rev: 0 }),
      linkItem(ws.workspaceId, { noteId: n3, entityId: f2, entityType: 'feature', importance: 'not important', setAt: t0 + 2, rev: 0 }),
    ];
    await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: items.map((Item) => ({ PutRequest: { Item } })) } }));
    expect(await c.score(p)).toBe(0);
    const repaired = await verifyScores({ workspace: ws.workspaceId, repair: true });
    expect(repaired.mismatches).toBeGreaterThan(0);
    expect([await c.score(f1), await c.score(f2), await c.score(p)]).toEqual([1, 3, 4]);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
    // The rebuilt items behave like written ones: deleting the counting rating falls back.
    await c.ok('DELETE', `/notes/${n2}/relationships/link/${f1}`);
    expect(await c.score(f1)).toBe(3);
  });

  it('the admin CLI prints {checked, mismatches, repaired, pending} as one JSON object on stdout, and on a non-terminal stderr a plain progress line per pass', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    await c.note({ links: [[await c.entity('product')]] });
    const run = spawnSync('npx', ['tsx', 'local/admin.ts', 'score', 'verify', '--workspace', ws.workspaceId], {
      encoding: 'utf8',
      env: { ...process.env },
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ checked: 3, mismatches: 0, repaired: 0, pending: 0 });
    // spawnSync pipes stderr: no bar, no control characters, a line as each pass ends.
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('score verify'));
    expect(lines.map((l) => l.split(' ').slice(3, 5).join(' '))).toEqual([
      'deletes done:',
      'notes done:',
      'links done:',
      'copies done:',
      'entities done:',
      'ratings done:',
    ]);
    expect(lines.every((l) => l.startsWith(`score verify ${ws.workspaceId} `))).toBe(true);
    expect([run.stderr.includes('\r'), run.stderr.includes('\x1b')]).toEqual([false, false]);
    const bad = spawnSync('npx', ['tsx', 'local/admin.ts', 'score', 'verify', '--workspace', randomUUID()], {
      encoding: 'utf8',
      env: { ...process.env },
      timeout: 60_000,
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/No workspace/);
  }, 60_000);

  it('a note still naming a customer whose item is gone counts as anonymous, and --repair clears the customer', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const acme = await c.entity('company');
    const n = await c.note({ customer: acme, links: [[p, 'critical']] });
    // The company item vanishes without its delete reaching the note (as when an index lags).
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.entity(ws.workspaceId, acme) }));
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 4 });
    await verifyScores({ workspace: ws.workspaceId, repair: true });
    expect(await c.score(p)).toBe(1);
    expect((await c.ok('GET', `/notes/${n}`)).json.data.relationships.data.map((r: any) => r.type)).toEqual(['link']);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  });

  it("a note's copy of its links (lib/store/note-link-copy.ts): an entry missing, one with another importance and one whose link is gone are 3 mismatches, and --repair makes the copy what the links are", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const [f, g, h] = [await c.entity('feature', p), await c.entity('feature', p), await c.entity('feature', p)];
    const n = await c.note({
      links: [
        [f, 'critical'],
        [g, 'important'],
      ],
    });
    const body = (await c.ok('GET', `/notes/${n}`)).json;
    const copy = async () => {
      const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
      const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.note(ws.workspaceId, n), ConsistentRead: true }));
      return Object.fromEntries(Object.entries(Item!).filter(([k]) => k.startsWith('L#') || k === 'linksCopied'));
    };
    const written = await copy();
    expect(written).toEqual({
      linksCopied: true,
      [`L#${f}`]: { entityType: 'feature', importance: 'critical' },
      [`L#${g}`]: { entityType: 'feature', importance: 'important' },
    });
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.note(ws.workspaceId, n),
        UpdateExpression: 'REMOVE #f SET #g = :g, #h = :h',
        ExpressionAttributeNames: { '#f': `L#${f}`, '#g': `L#${g}`, '#h': `L#${h}` },
        ExpressionAttributeValues: { ':g': { entityType: 'feature', importance: 'nice to have' }, ':h': { entityType: 'feature', importance: 'critical' } },
      }),
    );
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 3, repaired: 0 });
    expect(await verifyScores({ workspace: ws.workspaceId, repair: true })).toMatchObject({ mismatches: 3, repaired: 3 });
    expect(await copy()).toEqual(written);
    expect((await c.ok('GET', `/notes/${n}`)).json).toEqual(body);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  });

  it('progress: periodic lines every N items and one at the end of each pass on a non-terminal, one bar redrawn in place on a terminal; the result is the same', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    for (let i = 0; i < 3; i++) await c.note({ links: [[p, 'critical']] });
    const plain: string[] = [];
    const lines = verifyProgress({ isTTY: false, write: (t) => plain.push(t) }, { everyItems: 1, everyMs: 60_000 });
    const result = await verifyScores({ workspace: ws.workspaceId, repair: false, progress: lines.listener });
    expect(result).toEqual({ checked: 7, mismatches: 0, repaired: 0, pending: 0 });
    expect(plain.every((l) => l.endsWith('\n') && !l.includes('\r'))).toBe(true);
    expect(plain.some((l) => /^score verify \S+ links: 3 links read, 0 checked, 0 mismatches \(\d+ s\)\n$/.test(l))).toBe(true);
    // One of a kind is named in the singular.
    const one: string[] = [];
    verifyProgress({ isTTY: false, write: (t) => one.push(t) }, { everyItems: 1, now: () => 0 }).listener({
      workspace: 'w',
      phase: 'links',
      items: 1,
      checked: 0,
      mismatches: 0,
    });
    expect(one).toEqual(['score verify w links: 1 link read, 0 checked, 0 mismatches (0 s)\n']);
    // Each pass says when it ends and what it read; the last one when the display ends.
    expect(plain.some((l) => /^score verify \S+ links done: 3 links read; \d+ checked, 0 mismatches in all so far \(\d+ s\)\n$/.test(l))).toBe(true);
    lines.done();
    expect(plain.at(-1)).toMatch(/^score verify \S+ ratings done: \d+ rating items read; 7 checked, 0 mismatches in all so far \(\d+ s\)\n$/);
    const drawn: string[] = [];
    const bar = verifyProgress({ isTTY: true, write: (t) => drawn.push(t) });
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false, progress: bar.listener })).toEqual(result);
    bar.done();
    expect(drawn.slice(0, -1).every((t) => t.startsWith('\r\x1b[2Kscore verify ['))).toBe(true);
    expect(drawn.at(-3)).toMatch(/\] 6\/6 ratings: /);
    // Once the last pass has ended the bar is full, with the totals.
    expect(drawn.at(-2)).toBe(`\r\x1b[2Kscore verify [${'█'.repeat(20)}] done: 7 checked, 0 mismatches`);
    expect(drawn.at(-1)).toBe('\n');
  });
});
