// Safe retries of POST /v2/notes with Idempotency-Key, through the real handlers on DynamoDB Local:
// a retry returns the first result without a second write, another body under the same key is
// refused, another member's request under the same key is their own, concurrent duplicates create
// one note, and a client retrying after a 408 or a 429 never creates a second note nor inflates a score.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyScores } from '../../local/admin/score.ts';
import { client } from '../score/helpers.ts';
import { call, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';
import { FAULTS } from '../support/fault-proxy.ts';
import { withBudget, withFaults, withLateCommits } from '../support/faults.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());
afterEach(() => vi.restoreAllMocks());

const noteBody = (entityId: string, name = 'Feedback') => ({
  data: { type: 'textNote', fields: { name }, relationships: [{ type: 'link', target: { id: entityId }, importance: 'critical' }] },
});
const post = (ws: TestWorkspace, body: unknown, key?: string) =>
  call(app, 'POST', '/v2/notes', { token: ws.token, body, ...(key ? { headers: { 'idempotency-key': key } } : {}) });
const noteIds = async (ws: TestWorkspace) => (await call(app, 'GET', '/v2/notes', { token: ws.token })).json.data.map((n: { id: string }) => n.id);

async function setup() {
  const ws = await newWorkspace();
  const c = client(app, ws.token);
  const acme = await c.entity('company');
  const p = await c.entity('product');
  return { ws, c, p, acme };
}

describe('Idempotency-Key on POST /v2/notes', () => {
  it('a retry with the same key and body answers the first result (201, same note) and writes nothing more: one note, score counted once', async () => {
    const { ws, c, p } = await setup();
    const first = await post(ws, noteBody(p), 'retry-1');
    const again = await post(ws, noteBody(p), 'retry-1');
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.json).toEqual(first.json);
    expect(await noteIds(ws)).toEqual([first.json.data.id]);
    expect(await c.score(p)).toBe(1);
    // Without a key every POST is a new note.
    expect((await post(ws, noteBody(p))).status).toBe(201);
    expect(await noteIds(ws)).toHaveLength(2);
  });

  it('the same key with another body → 400 request.invalid naming the header, and nothing is written', async () => {
    const { ws, c, p } = await setup();
    expect((await post(ws, noteBody(p, 'one'), 'k-2')).status).toBe(201);
    const other = await post(ws, noteBody(p, 'two'), 'k-2');
    expectError(other, 'request.invalid', {
      detail: 'This Idempotency-Key was already used for a request with another body; use a new key for a new request.',
      source: { parameter: 'Idempotency-Key' },
    });
    expect(await noteIds(ws)).toHaveLength(1);
    expect(await c.score(p)).toBe(1);
  });

  it('a malformed key → 400 request.invalid naming the header', async () => {
    const { ws, p } = await setup();
    expectError(await post(ws, noteBody(p), 'has space'), 'request.invalid', { source: { parameter: 'Idempotency-Key' } });
    expect(await noteIds(ws)).toEqual([]);
  });

  it('10 concurrent duplicates in flight: all answer 201 with the same note, exactly one note exists, the score counts it once', async () => {
    const { ws, c, p } = await setup();
    const results = await Promise.all(Array.from({ length: 10 }, () => post(ws, noteBody(p), 'dup')));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.json.data.id)).size).toBe(1);
    expect(await noteIds(ws)).toHaveLength(1);
    expect(await c.score(p)).toBe(1);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  });

  it('a retry after a 408 whose write had committed (a proxy forwards the commit and holds its answer past the budget) returns that note: no second note, no inflated score', async () => {
    const { ws, c, p, acme } = await setup();
    const body = { data: { ...noteBody(p).data, relationships: [...noteBody(p).data.relationships, { type: 'customer', target: { id: acme } }] } };
    expectError(await withLateCommits(() => post(ws, body, 'after-408')), 'request.timeout');
    const ids = await noteIds(ws);
    expect(ids).toHaveLength(1);
    const retry = await post(ws, body, 'after-408');
    expect(retry.status, retry.text).toBe(201);
    expect(retry.json.data.id).toBe(ids[0]);
    expect(await noteIds(ws)).toEqual(ids);
    expect(await c.score(p)).toBe(3);
  });

  it('a retry after a 429 (every attempt met a TransactionConflict, answered by a proxy in front of the table; nothing written) creates the note once', async () => {
    const { ws, c, p } = await setup();
    const refused = await withBudget(1000, () =>
      withFaults(
        (call) => (call.operation === 'TransactWriteItems' ? FAULTS.transactionConflict(call.input.TransactItems.length, 0) : FAULTS.forward()),
        () => post(ws, noteBody(p), 'after-429'),
      ),
    );
    expectError(refused, 'rate.limitExceeded');
    expect(await noteIds(ws)).toEqual([]);
    const retry = await post(ws, noteBody(p), 'after-429');
    expect(retry.status).toBe(201);
    expect((await post(ws, noteBody(p), 'after-429')).json.data.id).toBe(retry.json.data.id);
    expect(await noteIds(ws)).toEqual([retry.json.data.id]);
    expect(await c.score(p)).toBe(1);
  });

  it("a key names one member's request: another member of the workspace with the same key and body makes a second note, their own; with the key and another body, a note too (201, not 400)", async () => {
    const { ws, c, p } = await setup();
    const bee = await ws.member();
    const as = (token: string, body: unknown, key: string) => call(app, 'POST', '/v2/notes', { token, body, headers: { 'idempotency-key': key } });
    const mine = await as(ws.token, noteBody(p), 'same-body');
    const theirs = await as(bee.token, noteBody(p), 'same-body');
    expect([mine.status, theirs.status], theirs.text).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.json.data.id).not.toBe(mine.json.data.id);
    const creatorOf = async (id: string) => (await c.ok('GET', `/notes/${id}`)).json.data.fields.creator;
    expect(await creatorOf(mine.json.data.id)).toEqual({ id: ws.admin.id, email: ws.admin.email });
    expect(await creatorOf(theirs.json.data.id)).toEqual({ id: bee.member.id, email: bee.member.email });

    const mineAgain = await as(ws.token, noteBody(p, 'one'), 'other-body');
    const theirsAgain = await as(bee.token, noteBody(p, 'two'), 'other-body');
    expect([mineAgain.status, theirsAgain.status], theirsAgain.text).toEqual([201, 201]);
    expect(theirsAgain.headers.get('idempotent-replayed')).toBeNull();
    const all = [mine, theirs, mineAgain, theirsAgain].map((r) => r.json.data.id as string);
    expect(new Set(all).size).toBe(4);
    expect((await noteIds(ws)).sort()).toEqual([...all].sort());
    expect(await c.score(p)).toBe(4);
    // Each member's own retry still answers their own first note.
    expect((await as(ws.token, noteBody(p), 'same-body')).json.data.id).toBe(mine.json.data.id);
    expect((await as(bee.token, noteBody(p), 'same-body')).json.data.id).toBe(theirs.json.data.id);
  });

  it('POST /v2/entities takes the key too: a retry answers the same entity, once', async () => {
    const ws = await newWorkspace();
    const body = { data: { type: 'product', fields: { name: 'Once' } } };
    const send = () => call(app, 'POST', '/v2/entities', { token: ws.token, body, headers: { 'idempotency-key': 'entity-1' } });
    const [a, b] = [await send(), await send()];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.json.data.id).toBe(a.json.data.id);
    expect((await call(app, 'GET', '/v2/entities', { token: ws.token })).json.data).toHaveLength(1);
  });
});
