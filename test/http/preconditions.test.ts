// If-Match on PATCH and DELETE with the ETag that GET returns, through the real handlers on
// DynamoDB Local: the current version passes, a stale one is 412 request.preconditionFailed and
// changes nothing, `*` passes, a weak tag never matches (strong comparison, RFC 9110 13.1.1).
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { crashAt, heal, writesKey } from '../score/crash.ts';
import { client } from '../score/helpers.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';
import { FAULTS } from '../support/fault-proxy.ts';
import { withFaults } from '../support/faults.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());
afterEach(() => {
  vi.restoreAllMocks();
  heal();
});

const stale = {
  detail: /has changed since the version If-Match names; read it again \(its ETag\) and retry\. Nothing was changed\.$/,
  source: { parameter: 'If-Match' },
};

describe('If-Match with the ETag of GET', () => {
  it('PATCH /v2/notes/{id}: the current ETag passes and yields a new one; the old one is then 412 and the note keeps its fields; a header with no entity tag → 400', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const id = await c.note();
    const read = await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token });
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9T:.Z-]+"$/);
    const patch = (tag: string, name: string) =>
      call(app, 'PATCH', `/v2/notes/${id}`, { token: ws.token, headers: { 'if-match': tag }, body: { data: { fields: { name } } } });
    expect((await patch(etag, 'Second')).status).toBe(200);
    const after = await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token });
    expect(after.headers.get('etag')).not.toBe(etag);
    expectError(await patch(etag, 'Third'), 'request.preconditionFailed', stale);
    expect((await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token })).json.data.fields.name).toBe('Second');
    // A weak tag never matches, even of the current version; `*` matches any.
    expectError(await patch(`W/${after.headers.get('etag')}`, 'Weak'), 'request.preconditionFailed', {
      detail: `If-Match names no version of the note ${id} that can match: a weak entity tag (W/"…") never does, as writes compare tags strongly (RFC 9110 §13.1.1); send the ETag as GET answers it. Nothing was changed.`,
      source: { parameter: 'If-Match' },
    });
    // A weak tag beside a strong one that no longer matches: the version changed.
    expectError(await patch(`W/${after.headers.get('etag')}, ${etag}`, 'Weak'), 'request.preconditionFailed', stale);
    // No entity tag at all (the ETag without its quotes, a word) → 400 saying the form; nothing changes.
    for (const sent of [after.headers.get('etag')!.slice(1, -1), 'garbage', '"a", b']) {
      expectError(await patch(sent, 'Unquoted'), 'request.invalid', {
        detail: `If-Match must be * or entity tags in double quotes, as the ETag header gives them ("2026-01-31T12:00:00.000Z"); got '${sent}'.`,
        source: { parameter: 'If-Match' },
      });
    }
    expect((await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token })).json.data.fields.name).toBe('Second');
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
    const patch = (target: string, tag: string, name: string) =>
      call(app, 'PATCH', `/v2/entities/${target}`, { token: ws.token, headers: { 'if-match': tag }, body: { data: { fields: { name } } } });
    expect((await patch(id, etag, 'Second')).status).toBe(200);
    expectError(await patch(id, etag, 'Third'), 'request.preconditionFailed', stale);
    expect((await call(app, 'GET', `/v2/entities/${id}`, { token: ws.token })).json.data.fields.name).toBe('Second');
    expectError(await patch(crypto.randomUUID(), etag, 'Ghost'), 'resource.notFound');
  });

  it('DELETE /v2/entities/{id}: a stale ETag is 412 and the whole subtree stays with its score; the current one deletes it', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const f = await c.entity('feature', p);
    await c.note({ links: [[f, 'critical']] });
    const first = (await call(app, 'GET', `/v2/entities/${p}`, { token: ws.token })).headers.get('etag')!;
    await c.ok('PATCH', `/entities/${p}`, { data: { fields: { name: 'Renamed' } } });
    const del = (tag: string) => call(app, 'DELETE', `/v2/entities/${p}`, { token: ws.token, headers: { 'if-match': tag } });
    expectError(await del(first), 'request.preconditionFailed', stale);
    expect((await call(app, 'GET', `/v2/entities/${f}`, { token: ws.token })).status).toBe(200);
    expect(await c.score(p)).toBe(1);
    const current = (await call(app, 'GET', `/v2/entities/${p}`, { token: ws.token })).headers.get('etag')!;
    expect((await del(current)).status).toBe(204);
    expect((await call(app, 'GET', `/v2/entities/${p}`, { token: ws.token })).status).toBe(404);
    expect((await call(app, 'GET', `/v2/entities/${f}`, { token: ws.token })).status).toBe(404);
  });

  it("DELETE /v2/entities/{id}: the version is a condition of the cascade's first transaction: a change landing between the read and the write (held at a proxy in front of the table) is 412, nothing deleted", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const etag = (await call(app, 'GET', `/v2/entities/${p}`, { token: ws.token })).headers.get('etag')!;
    let injected = false;
    // A proxy in front of the table lets the first transaction wait while another writer changes the entity.
    const refused = await withFaults(
      async (sent) => {
        if (sent.operation === 'TransactWriteItems' && !injected) {
          injected = true;
          await db().send(
            new UpdateCommand({
              TableName: tableName(),
              Key: keys.entity(ws.workspaceId, p),
              UpdateExpression: 'SET updatedAt = :u',
              ExpressionAttributeValues: { ':u': new Date(Date.now() + 1000).toISOString() },
            }),
          );
        }
        return FAULTS.forward();
      },
      () => call(app, 'DELETE', `/v2/entities/${p}`, { token: ws.token, headers: { 'if-match': etag } }),
    );
    expectError(refused, 'request.preconditionFailed', stale);
    expect(injected).toBe(true);
    expect((await call(app, 'GET', `/v2/entities/${p}`, { token: ws.token })).status).toBe(200);
  });

  it('DELETE /v2/entities/{id}: an entity created or moved anywhere under it changes its ETag, so a DELETE with the ETag read before is 412 and removes nothing it did not show', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const comp = await c.entity('component', p);
    const other = await c.entity('component', await c.entity('product'));
    const etagOf = async (id: string) => (await call(app, 'GET', `/v2/entities/${id}`, { token: ws.token })).headers.get('etag')!;
    const del = (id: string, tag: string) => call(app, 'DELETE', `/v2/entities/${id}`, { token: ws.token, headers: { 'if-match': tag } });
    const seen = await etagOf(p);
    const f = await c.entity('feature', comp);
    expect(await etagOf(p)).not.toBe(seen);
    expectError(await del(p, seen), 'request.preconditionFailed', stale);
    expect((await call(app, 'GET', `/v2/entities/${f}`, { token: ws.token })).status).toBe(200);
    // A subtree moved under it counts too; so does a PATCH's If-Match.
    const before = await etagOf(comp);
    await c.ok('PUT', `/entities/${other}/relationships/parent`, { data: { target: { id: comp } } });
    expectError(await del(comp, before), 'request.preconditionFailed', stale);
    expectError(
      await call(app, 'PATCH', `/v2/entities/${comp}`, { token: ws.token, headers: { 'if-match': before }, body: { data: { fields: { name: 'x' } } } }),
      'request.preconditionFailed',
      stale,
    );
    expect((await del(p, await etagOf(p))).status).toBe(204);
    for (const id of [comp, f, other]) expect((await call(app, 'GET', `/v2/entities/${id}`, { token: ws.token })).status).toBe(404);
  });

  it('DELETE /v2/entities/{id}: a child created between the read and the write (the transaction held at a proxy) is 412, nothing deleted', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const etag = (await call(app, 'GET', `/v2/entities/${p}`, { token: ws.token })).headers.get('etag')!;
    let injected = false;
    let child: string | undefined;
    const refused = await withFaults(
      async (sent) => {
        if (sent.operation === 'TransactWriteItems' && !injected) {
          injected = true;
          child = await c.entity('feature', p);
        }
        return FAULTS.forward();
      },
      () => call(app, 'DELETE', `/v2/entities/${p}`, { token: ws.token, headers: { 'if-match': etag } }),
    );
    expectError(refused, 'request.preconditionFailed', stale);
    expect((await call(app, 'GET', `/v2/entities/${child}`, { token: ws.token })).status).toBe(200);
  });

  it('DELETE and PATCH /v2/notes/{id}: a link added to the note changes its ETag, so the ETag read before is 412 and the link stays', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const id = await c.note();
    const seen = (await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token })).headers.get('etag')!;
    await c.ok('POST', `/notes/${id}/relationships`, { data: { type: 'link', target: { id: p }, importance: 'critical' } });
    const withLink = (await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token })).headers.get('etag')!;
    expect(withLink).not.toBe(seen);
    expectError(await call(app, 'DELETE', `/v2/notes/${id}`, { token: ws.token, headers: { 'if-match': seen } }), 'request.preconditionFailed', stale);
    expectError(
      await call(app, 'PATCH', `/v2/notes/${id}`, { token: ws.token, headers: { 'if-match': seen }, body: { data: { fields: { name: 'x' } } } }),
      'request.preconditionFailed',
      stale,
    );
    expect(await c.score(p)).toBe(1);
    expect((await call(app, 'DELETE', `/v2/notes/${id}`, { token: ws.token, headers: { 'if-match': withLink } })).status).toBe(204);
    expect(await c.score(p)).toBe(0);
  });

  it('DELETE /v2/entities/{id}: a retry with the same If-Match carries on a delete that stopped half-way (a crash injected at the SDK client after its first transaction)', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const f = await c.entity('feature', p);
    const etag = (await call(app, 'GET', `/v2/entities/${p}`, { token: ws.token })).headers.get('etag')!;
    crashAt((sent) => writesKey(sent, 'WORK#deleteEntity#'));
    expect((await call(app, 'DELETE', `/v2/entities/${p}`, { token: ws.token, headers: { 'if-match': etag } })).status).toBe(500);
    heal();
    // The root is gone at once; its child is not marked yet (the delete did not answer).
    expect((await call(app, 'GET', `/v2/entities/${p}`, { token: ws.token })).status).toBe(404);
    expect((await call(app, 'GET', `/v2/entities/${f}`, { token: ws.token })).status).toBe(200);
    expectError(
      await call(app, 'DELETE', `/v2/entities/${p}`, { token: ws.token, headers: { 'if-match': '"2000-01-01T00:00:00.000Z"' } }),
      'request.preconditionFailed',
      stale,
    );
    expect((await call(app, 'DELETE', `/v2/entities/${p}`, { token: ws.token, headers: { 'if-match': etag } })).status).toBe(204);
    expect((await call(app, 'GET', `/v2/entities/${f}`, { token: ws.token })).status).toBe(404);
  });
});

describe('preconditions a change does not honour are refused, never ignored (RFC 9110 13.1.1)', () => {
  const refused = (method: string, path: string, name: string, honoursIfMatch = false) => ({
    detail: `${method} ${path} does not honour ${name}, so the change would not be conditional on it; send the request without ${name}.${honoursIfMatch ? ' It honours If-Match, with the ETag that GET answers.' : ''}`,
    source: { parameter: name },
  });

  it('a move with If-Match → 400 request.invalid naming If-Match; the feature keeps its parent', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const [from, to] = [await c.entity('component', product), await c.entity('component', product)];
    const feature = await c.entity('feature', from);
    const etag = (await call(app, 'GET', `/v2/entities/${feature}`, { token: ws.token })).headers.get('etag')!;
    const move = await call(app, 'PUT', `/v2/entities/${feature}/relationships/parent`, {
      token: ws.token,
      headers: { 'if-match': etag },
      body: { data: { target: { id: to } } },
    });
    expectError(move, 'request.invalid', refused('PUT', '/v2/entities/{id}/relationships/parent', 'If-Match'));
    const parents = await call(app, 'GET', `/v2/entities/${feature}/relationships?type=parent`, { token: ws.token });
    expect(parents.json.data.map((r: { target: { id: string } }) => r.target.id)).toEqual([from]);
  });

  it('If-None-Match and If-Unmodified-Since on a note → 400 naming the header, the note unchanged; If-Match still passes; a read ignores them', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const id = await c.note();
    const rename = (headers: Record<string, string>) =>
      call(app, 'PATCH', `/v2/notes/${id}`, { token: ws.token, headers, body: { data: { fields: { name: 'Renamed' } } } });
    expectError(await rename({ 'if-none-match': '*' }), 'request.invalid', refused('PATCH', '/v2/notes/{id}', 'If-None-Match', true));
    const when = new Date(Date.now() + 60_000).toUTCString();
    expectError(await rename({ 'if-unmodified-since': when }), 'request.invalid', refused('PATCH', '/v2/notes/{id}', 'If-Unmodified-Since', true));
    expectError(
      await call(app, 'DELETE', `/v2/notes/${id}`, { token: ws.token, headers: { 'if-unmodified-since': when } }),
      'request.invalid',
      refused('DELETE', '/v2/notes/{id}', 'If-Unmodified-Since', true),
    );
    const read = await call(app, 'GET', `/v2/notes/${id}`, { token: ws.token, headers: { 'if-none-match': '*', 'if-unmodified-since': when } });
    expect(read.status).toBe(200);
    expect(read.json.data.fields.name).toBe('Feedback');
    expect((await rename({ 'if-match': read.headers.get('etag')! })).status).toBe(200);
  });

  it('Idempotency-Key on a change that is not a create (PATCH, PUT, DELETE) → 400 naming it, nothing changed; a search, a read, ignores it and preconditions', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const id = await c.note();
    const key = { 'idempotency-key': 'k-1' };
    const notTaken = (method: string, path: string) => ({
      detail: `${method} ${path} does not take Idempotency-Key (only creates do), so a repeat would not be answered from the first; send the request without it.`,
      source: { parameter: 'Idempotency-Key' },
    });
    expectError(
      await call(app, 'PATCH', `/v2/notes/${id}`, { token: ws.token, headers: key, body: { data: { fields: { name: 'Renamed' } } } }),
      'request.invalid',
      notTaken('PATCH', '/v2/notes/{id}'),
    );
    expectError(
      await call(app, 'PUT', `/v2/notes/${id}/relationships/link/${product}`, { token: ws.token, headers: key, body: { data: { importance: 'critical' } } }),
      'request.invalid',
      notTaken('PUT', '/v2/notes/{id}/relationships/link/{entityId}'),
    );
    expectError(
      await call(app, 'DELETE', `/v2/entities/${product}`, { token: ws.token, headers: key }),
      'request.invalid',
      notTaken('DELETE', '/v2/entities/{id}'),
    );
    const note = await call(app, 'GET', `/v2/notes/${id}?fields[]=name`, { token: ws.token });
    expect(note.json.data.fields).toEqual({ name: 'Feedback' });
    expect((await call(app, 'GET', `/v2/notes/${id}/relationships`, { token: ws.token })).json.data).toEqual([]);
    expect((await call(app, 'GET', `/v2/entities/${product}`, { token: ws.token })).status).toBe(200);
    const search = await call(app, 'POST', '/v2/entities/search', { token: ws.token, headers: key, body: { data: { filter: { type: ['product'] } } } });
    expect(search.status, search.text).toBe(200);
    // A search reads: like GET, it ignores preconditions too, alike for every search.
    for (const [path, data] of [
      ['/v2/entities/search', { filter: { type: ['product'] } }],
      ['/v2/notes/search', {}],
      ['/v2/teams/search', {}],
      ['/v2/members/search', {}],
    ] as const) {
      const res = await call(app, 'POST', path, { token: ws.token, headers: { 'if-match': '*', 'if-none-match': '*' }, body: { data } });
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }
  });
});
