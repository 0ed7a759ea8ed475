// If-Match on PATCH and DELETE with the ETag that GET returns, through the real handlers on
// DynamoDB Local: the current version passes, a stale one is 412 request.preconditionFailed and
// changes nothing, `*` passes, a weak tag never matches (strong comparison, RFC 9110 13.1.1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../score/helpers.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const stale = { detail: /has changed since the version If-Match names; read it again \(its ETag\) and retry\. Nothing was changed\.$/, source: { parameter: 'If-Match' } };

describe('If-Match with the ETag of GET', () => {
  it('PATCH /v2/notes/{id}: the current ETag passes and yields a new one; the old one is then 412 and the note keeps its fields', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const id = await c.note();
    const read = await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token });
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9T:.Z-]+"$/);
    const patch = (tag: string, name: string) => call(app, 'PATCH', `/v2/notes/${id}`, { token: ws.token, headers: { 'if-match': tag }, body: { data: { fields: { name } } } });
    expect((await patch(etag, 'Second')).status).toBe(200);
    const after = await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token });
    expect(after.headers.get('etag')).not.toBe(etag);
    expectError(await patch(etag, 'Third'), 'request.preconditionFailed', stale);
    expect((await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token })).json.data.fields.name).toBe('Second');
    // A weak tag never matches, even of the current version; `*` matches any.
    expectError(await patch(`W/${after.headers.get('etag')}`, 'Weak'), 'request.preconditionFailed', stale);
    expect((await patch('*', 'Any')).status).toBe(200);
  });

  it('DELETE /v2/notes/{id}: a stale ETag is 412 and the note stays; the current one deletes it', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const id = await c.note({ links: [[p, 'critical']] });
    const first = (await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token })).headers.get('etag')!;
    await c.ok('PATCH', `/notes/${id}`, { data: { fields: { name: 'Changed' } } });
    expectError(await call(app, 'DELETE', `/v2/notes/${id}`, { token: ws.token, headers: { 'if-match': first } }), 'request.preconditionFailed', stale);
    expect(await c.score(p)).toBe(1);
    const current = (await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token })).headers.get('etag')!;
    expect((await call(app, 'DELETE', `/v2/notes/${id}`, { token: ws.token, headers: { 'if-match': `"nope", ${current}` } })).status).toBe(204);
    expect(await c.score(p)).toBe(0);
  });

  it('PATCH /v2/entities/{id}: the condition is part of the update; a stale ETag is 412, an unknown id still 404', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const id = await c.entity('product', undefined, { name: 'First' });
    const etag = (await call(app, 'GET', `/v2/entities/${id}`, { token: ws.token })).headers.get('etag')!;
    const patch = (target: string, tag: string, name: string) => call(app, 'PATCH', `/v2/entities/${target}`, { token: ws.token, headers: { 'if-match': tag }, body: { data: { fields: { name } } } });
    expect((await patch(id, etag, 'Second')).status).toBe(200);
    expectError(await patch(id, etag, 'Third'), 'request.preconditionFailed', stale);
    expect((await call(app, 'GET', `/v2/entities/${id}`, { token: ws.token })).json.data.fields.name).toBe('Second');
    expectError(await patch(crypto.randomUUID(), etag, 'Ghost'), 'resource.notFound');
  });
});
