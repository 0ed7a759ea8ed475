// A page of notes reads its notes' inline relationships from the copy of their links on the note
// items (lib/store/note-link-copy.ts): the DynamoDB calls of a page do not grow with its size, and a
// note without the copy (older data) is read through the Query with the same body. Calls are
// observed with a middleware that records (does not alter) every command (test/support/commands.ts).
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { COPY_MARK } from '#lib/store/note-link-copy.ts';
import { sweep } from '#lib/store/sweep.ts';
import { client } from '../score/helpers.ts';
import { newWorkspace, startApp, type TestApp } from '../support/app.ts';
import { recordCommands, rounds } from '../support/commands.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

/** The note items lose their copy, as notes written before it existed. */
const dropCopies = (workspaceId: string, ids: string[]) =>
  Promise.all(
    ids.map((id) =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.note(workspaceId, id),
          UpdateExpression: 'REMOVE #m',
          ExpressionAttributeNames: { '#m': COPY_MARK },
        }),
      ),
    ),
  );

describe('a page of notes and its inline relationships', () => {
  it('GET /v2/notes sends the same 4 calls in 3 rounds for a page of 1 and a page of 30 (credential, configuration, notes beside the entities being deleted); without the copy, one Query more per note, and the same body', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const features = await Promise.all(Array.from({ length: 22 }, () => c.entity('feature', p)));
    const u = await c.entity('user');
    const notes: string[] = [];
    // 28 notes with a customer and two links, one with 22 links (more than the 20 shown inline: links.next), one with none.
    for (let i = 0; i < 28; i++)
      notes.push(
        await c.note({
          customer: u,
          links: [
            [features[i % 22]!, 'important'],
            [features[(i + 1) % 22]!, 'critical'],
          ],
        }),
      );
    notes.push(await c.note({ links: features.map((f) => [f, 'nice to have'] as [string, string]) }));
    notes.push(await c.note({ customer: u }));
    // Each link write keeps the copy: a re-rate, an unlink, a link added, a feature deleted (its links go).
    await c.ok('PUT', `/notes/${notes[0]}/relationships/link/${features[0]}`, { data: { importance: 'not important' } });
    await c.ok('DELETE', `/notes/${notes[1]}/relationships/link/${features[1]}`);
    await c.ok('POST', `/notes/${notes[2]}/relationships`, { data: { type: 'link', target: { id: features[10] }, importance: 'critical' } });
    await c.ok('DELETE', `/entities/${features[21]}`);
    // Its clean-up done (the delete's pending work, swept), so the pages below read what they always will.
    expect(await sweep({ workspace: ws.workspaceId, until: Date.now() + 60_000 })).toMatchObject({ finished: 1, failed: 0 });

    const recorder = recordCommands('recordListReads');
    onTestFinished(() => recorder.stop());
    const one = await c.ok('GET', '/notes?limit=1');
    // The third round reads the notes and, beside them, the entities being deleted (none now: one Query that finds nothing).
    expect(rounds(recorder.sent)).toEqual([['BatchGetItem'], ['Query'], ['Query', 'Query']]);
    recorder.clear();
    const page = await c.ok('GET', '/notes?limit=30');
    expect(rounds(recorder.sent)).toEqual([['BatchGetItem'], ['Query'], ['Query', 'Query']]);
    expect(one.json.data).toEqual(page.json.data.slice(0, 1));
    // Newest first.
    expect(page.json.data.map((n: { id: string }) => n.id)).toEqual([...notes].reverse());
    /** The record of notes[i] in a list body. */
    const record = (body: { data: Array<{ id: string; relationships: any }> }, i: number) => body.data.find((n) => n.id === notes[i])!;
    const inline = (i: number) =>
      record(page.json, i).relationships.data.map((r: { type: string; target: { id: string }; importance?: string }) => [r.type, r.target.id, r.importance]);
    expect(inline(0)).toEqual([
      ['customer', u, undefined],
      ...[
        [features[0], 'not important'],
        [features[1], 'critical'],
      ]
        .sort()
        .map(([id, imp]) => ['link', id, imp]),
    ]);
    expect(inline(1)).toEqual([
      ['customer', u, undefined],
      ['link', features[2], 'critical'],
    ]);
    expect(inline(28)).toHaveLength(20);
    expect(inline(28).some(([, id]: string[]) => id === features[21])).toBe(false);
    expect(record(page.json, 28).relationships.links.next).toMatch(/\/v2\/notes\/[0-9a-f-]+\/relationships\?pageCursor=/);
    expect(inline(29)).toEqual([['customer', u, undefined]]);
    // The relationships route goes on where the inline list stopped (from the copy too).
    const follow = async (url: string) => (await c.ok('GET', url.slice(url.indexOf('/v2/') + 3))).json;
    const after = await follow(record(page.json, 28).relationships.links.next);
    expect(after.data).toHaveLength(1);

    await dropCopies(ws.workspaceId, notes);
    recorder.clear();
    const fallback = await c.ok('GET', '/notes?limit=30');
    expect(recorder.sent.length).toBe(4 + 30);
    // Cursors are encrypted afresh on each answer: equal bodies once they are set aside, and both go on at the same place.
    const uncursored = (body: unknown) => JSON.parse(JSON.stringify(body).replace(/pageCursor=[^"]+/g, 'pageCursor=…'));
    expect(uncursored(fallback.json)).toEqual(uncursored(page.json));
    expect(await follow(record(fallback.json, 28).relationships.links.next)).toEqual(after);
  }, 120_000);
});
