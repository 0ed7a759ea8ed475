// Comments on notes: POST /v2/notes/{id}/comments (Productboard's createNoteComment) and the list
// they are read back from, GET /v2/notes/{id}/comments (our extension).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as keys from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/query.ts';
import { client } from '../score/helpers.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const commentItems = (ws: string, note: string) =>
  queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': keys.commentsOfNotePrefix(note) },
    ConsistentRead: true,
  });

describe('note comments', () => {
  it('create → 201 {data: {id}}; the list shows them oldest first with their author; the note itself does not change', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const note = await c.note();
    const before = (await c.ok('GET', `/notes/${note}`)).json;
    const first = await c.req('POST', `/notes/${note}/comments`, { data: { content: 'Flagging this for the Q3 security epic.' } });
    expect(first.status, first.text).toBe(201);
    expect(first.json).toEqual({ data: { id: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    const maker = await ws.member({ role: 'maker' });
    await client(app, maker.token).ok('POST', `/notes/${note}/comments`, { data: { content: 'Agreed' } });
    const list = await c.ok('GET', `/notes/${note}/comments`);
    expect(list.json).toEqual({
      data: [
        {
          id: first.json.data.id,
          type: 'noteComment',
          fields: { content: 'Flagging this for the Q3 security epic.', author: { id: ws.admin.id, email: ws.admin.email } },
          createdAt: expect.any(String),
        },
        {
          id: expect.any(String),
          type: 'noteComment',
          fields: { content: 'Agreed', author: { id: maker.member.id, email: maker.member.email } },
          createdAt: expect.any(String),
        },
      ],
      links: {},
    });
    expect((await c.ok('GET', `/notes/${note}`)).json).toEqual(before);
    const page = await c.ok('GET', `/notes/${note}/comments?limit=1`);
    const next = (page.json.links.next as string).slice(app.url.length);
    expect((await call(app, 'GET', next, { token: ws.token })).json.data.map((x: { fields: { content: string } }) => x.fields.content)).toEqual(['Agreed']);
  });

  it('bad content → 400 at /data/content; a note that is not there (or another workspace’s) → 404; nothing written', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const note = await c.note();
    for (const [data, detail] of [
      [{ content: '' }, /must not be empty/],
      [{ content: '   ' }, /^'\/data\/content' must have a visible character, not only white space \(got ' {3}'\)\.$/],
      [{ content: 'x'.repeat(7001) }, /at most 7000/],
      [{}, /required/],
    ] as const) {
      expectError(await c.req('POST', `/notes/${note}/comments`, { data }), 'request.invalid', { source: { pointer: '/data/content' }, detail });
    }
    expectError(await c.req('POST', `/notes/${note}/comments`, { data: { content: 'x', author: 'me' } }), 'request.invalid', {
      source: { pointer: '/data/author' },
    });
    const other = client(app, (await newWorkspace()).token);
    expectError(await other.req('POST', `/notes/${note}/comments`, { data: { content: 'x' } }), 'resource.notFound');
    expectError(await other.req('GET', `/notes/${note}/comments`), 'resource.notFound');
    expectError(await c.req('POST', '/notes/00000000-0000-4000-8000-000000000000/comments', { data: { content: 'x' } }), 'resource.notFound');
    expect(await commentItems(ws.workspaceId, note)).toEqual([]);
  });

  it('a viewer reads comments but cannot write them; an Idempotency-Key retry answers the first comment', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const note = await c.note();
    const viewer = client(app, (await ws.member({ role: 'viewer' })).token);
    expectError(await viewer.req('POST', `/notes/${note}/comments`, { data: { content: 'x' } }), 'auth.accessDenied');
    const send = () =>
      call(app, 'POST', `/v2/notes/${note}/comments`, { token: ws.token, body: { data: { content: 'once' } }, headers: { 'idempotency-key': 'comment-1' } });
    const [a, b] = [await send(), await send()];
    expect(b.json).toEqual(a.json);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect((await viewer.ok('GET', `/notes/${note}/comments`)).json.data).toHaveLength(1);
  });

  it('deleting a note deletes its comments; a comment on a deleted note → 404', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const note = await c.note();
    for (const content of ['a', 'b', 'c']) await c.ok('POST', `/notes/${note}/comments`, { data: { content } });
    expect(await commentItems(ws.workspaceId, note)).toHaveLength(3);
    expect((await c.req('DELETE', `/notes/${note}`)).status).toBe(204);
    expect(await commentItems(ws.workspaceId, note)).toEqual([]);
    expectError(await c.req('POST', `/notes/${note}/comments`, { data: { content: 'late' } }), 'resource.notFound');
    expectError(await c.req('GET', `/notes/${note}/comments`), 'resource.notFound');
  });
});
