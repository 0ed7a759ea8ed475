// Note changes that touch more items than one transaction holds go in exact, idempotent steps
// (lib/store/notes.ts), the first of which records the rest as pending work (lib/store/work.ts). A
// crash after that first step (injected at the SDK client's middleware stack, ./crash.ts: a mock)
// leaves every score exact and the work pending; the sweep (lib/store/sweep.ts) finishes it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { workOf } from '#lib/store/work.ts';
import { countCalls, crashAt, crashedAfter, heal, sweepNow, sweepWhenDue, untilDue, writesKey } from './crash.ts';
import { client } from './helpers.ts';
import { verifyScores } from '../../local/admin/score.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';
import { FAULTS } from '../support/fault-proxy.ts';
import { withBudget, withFaults } from '../support/faults.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());
afterEach(() => heal());

const LINKS = 45; // 45 × (link + rating + feature) + ancestors > 100 items

async function setup(c: ReturnType<typeof client>, links = LINKS) {
  const product = await c.entity('product');
  const comps = await Promise.all([0, 1, 2].map(() => c.entity('component', product)));
  const features = await Promise.all(Array.from({ length: links }, (_, i) => c.entity('feature', comps[i % 3])));
  const acme = await c.entity('company');
  const globex = await c.entity('company');
  return { product, comps, features, acme, globex };
}

/** A request creating a note of acme's with a critical link to every feature, under an Idempotency-Key. */
function bigNote(token: string, t: Awaited<ReturnType<typeof setup>>, idempotencyKey: string) {
  const body = {
    data: {
      type: 'textNote',
      fields: { name: 'Big' },
      relationships: [{ type: 'customer', target: { id: t.acme } }, ...t.features.map((f) => ({ type: 'link', target: { id: f }, importance: 'critical' }))],
    },
  };
  return () => call(app, 'POST', '/v2/notes', { token, body, headers: { 'idempotency-key': idempotencyKey } });
}

describe('fan-out beyond one transaction', () => {
  it('a note with 45 links: create, customer change and delete each end exact (stepwise), and verify finds no drift', async () => {
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

  it('a note with 120 links: each stepwise change takes a transaction per ~30 links, not one per link; a crash between two leaves every score exact, and the sweep finishes', async () => {
    const MANY = 120;
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await setup(c, MANY);
    // Each link adds its link item, its rating and its feature; the product and the components are shared.
    const steps = Math.ceil(MANY / Math.floor((100 - 1 - 4) / 3));
    const created = await countCalls(() => bigNote(ws.token, t, 'many-links')());
    expect(created.result.status, created.result.text).toBe(201);
    const big = created.result.json.data.id as string;
    // The note with its pending work, then the steps.
    expect(created.calls.TransactWriteItems).toBe(1 + steps);
    expect(await c.score(t.product)).toBe(MANY * 3);
    const moved = await countCalls(() => c.req('PUT', `/notes/${big}/relationships/customer`, { data: { target: { id: t.globex } } }));
    expect(moved.result.status, moved.result.text).toBe(200);
    // Each moved link adds the old customer's rating too.
    expect(moved.calls.TransactWriteItems).toBe(1 + Math.ceil(MANY / Math.floor((100 - 1 - 4) / 4)));
    expect(await c.score(t.product)).toBe(MANY * 3);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 0 });
    // The delete crashes once its second step of links has landed: the note is gone, every score exact, the rest pending.
    const budget = process.env.REQUEST_TIMEOUT_MS;
    process.env.REQUEST_TIMEOUT_MS = '5000';
    try {
      const crash = crashAt((call) => writesKey(call, 'LINK#'), { nth: 2 });
      expect((await c.req('DELETE', `/notes/${big}`)).status).toBe(500);
      expect(crash.crashed).toBe(true);
    } finally {
      heal();
      process.env.REQUEST_TIMEOUT_MS = budget;
    }
    expectError(await c.req('GET', `/notes/${big}`), 'resource.notFound');
    // Two steps of 32 links each (no note item in them) are gone; the other links still count, exactly.
    expect(await c.score(t.product)).toBe((MANY - 2 * Math.floor((100 - 4) / 3)) * 3);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 1 });
    expect(await sweepWhenDue(ws.workspaceId)).toEqual({ finished: 1, handedBack: 0, failed: 0 });
    expect(await c.score(t.product)).toBe(0);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, repaired: 0, pending: 0 });
  }, 180_000);

  it('a note delete that crashed after marking the note: the note is gone, its links still count exactly, the sweep removes them', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await setup(c);
    const big = await c.note({ customer: t.acme, links: t.features.map((f) => [f, 'important'] as [string, string]) });
    await crashedAfter('WORK#deleteNote#', () => c.req('DELETE', `/notes/${big}`));
    expectError(await c.req('GET', `/notes/${big}`), 'resource.notFound');
    expectError(await c.req('POST', `/notes/${big}/relationships`, { data: { type: 'link', target: { id: t.product } } }), 'resource.notFound');
    expect(await c.score(t.product)).toBe(LINKS * 2);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 1 });
    expect(await sweepWhenDue(ws.workspaceId)).toEqual({ finished: 1, handedBack: 0, failed: 0 });
    expect(await c.score(t.product)).toBe(0);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, repaired: 0, pending: 0 });
  }, 120_000);

  it('a customer change that crashed after changing the note: the ratings stay filed under the old customer, exactly, until the sweep (or a repeated PUT) moves them', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await setup(c);
    const big = await c.note({ customer: t.acme, links: t.features.map((f) => [f, 'critical'] as [string, string]) });
    await c.note({ customer: t.globex, links: [[t.features[0]!, 'nice to have']] });
    expect(await c.score(t.features[0]!)).toBe(3 + 1);
    await crashedAfter('WORK#noteCustomer#', () => c.req('PUT', `/notes/${big}/relationships/customer`, { data: { target: { id: t.globex } } }));
    expect((await c.ok('GET', `/notes/${big}`)).json.data.relationships.data[0].target.id).toBe(t.globex);
    expect(await c.score(t.features[0]!)).toBe(3 + 1);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 1 });
    const again = await c.req('PUT', `/notes/${big}/relationships/customer`, { data: { target: { id: t.globex } } });
    expect(again.status, again.text).toBe(200);
    // globex's later rating (the nice-to-have) now counts alone on feature 0.
    expect(await c.score(t.features[0]!)).toBe(1);
    expect(await c.score(t.product)).toBe(1 + (LINKS - 1) * 3);
    expect(await sweepWhenDue(ws.workspaceId)).toEqual({ finished: 1, handedBack: 0, failed: 0 });
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 0 });
  }, 120_000);

  it('a create that crashed after writing the note: a retry with its Idempotency-Key answers 408 saying its links follow while they are pending, the sweep makes them, and then the retry answers that note', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await setup(c);
    const create = bigNote(ws.token, t, 'big-note-1');
    await crashedAfter('WORK#noteLinks#', create);
    const [note] = (await c.ok('GET', '/notes')).json.data as Array<{ id: string }>;
    const early = await withBudget(1500, create);
    expectError(early, 'request.timeout', { detail: `Note ${note!.id} was created; ${LINKS} links are being added to it and follow without another request.` });
    expect(await c.score(t.product)).toBeLessThan(LINKS * 3);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 1 });
    expect(await sweepWhenDue(ws.workspaceId)).toEqual({ finished: 1, handedBack: 0, failed: 0 });
    const replay = await create();
    expect(replay.status, replay.text).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json.data.id).toBe(note!.id);
    expect(await c.score(t.product)).toBe(LINKS * 3);
    const links = (await c.ok('GET', `/notes/${note!.id}/relationships?type=link`)).json.data;
    expect(links).toHaveLength(LINKS);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 0 });
  }, 120_000);

  it('a duplicate sent while the first request is still making the links answers the first result only once every link is made: what its client reads then is whole', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await setup(c);
    const create = bigNote(ws.token, t, 'big-note-concurrent');
    let steps = 0;
    // The note's own transaction goes through; each link step after it commits, answered 400 ms late.
    const [first, duplicate] = await withFaults(
      (sent) => (sent.operation === 'TransactWriteItems' && ++steps > 1 ? FAULTS.withhold(400) : FAULTS.forward()),
      async () => {
        const firstDone = create();
        // The duplicate goes out once the note exists, while its links are still being made.
        while (((await c.ok('GET', '/notes')).json.data as unknown[]).length === 0) await new Promise((r) => setTimeout(r, 20));
        const dup = await create();
        const linksThen = (await c.ok('GET', `/notes/${dup.json.data?.id}/relationships?type=link&limit=100`)).json.data;
        return [await firstDone, { res: dup, links: linksThen.length as number, score: await c.score(t.product) }] as const;
      },
    );
    expect(first.status, first.text).toBe(201);
    expect(steps).toBeGreaterThan(2);
    expect(duplicate.res.status, duplicate.res.text).toBe(201);
    expect(duplicate.res.headers.get('idempotent-replayed')).toBe('true');
    expect(duplicate.res.json.data.id).toBe(first.json.data.id);
    expect(duplicate).toMatchObject({ links: LINKS, score: LINKS * 3 });
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 0 });
  }, 120_000);

  it('an unlink after a create that crashed before its links: refused (429) while the crashed request holds them, then it makes them first, so the unlinked one does not come back', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await setup(c);
    const create = bigNote(ws.token, t, 'big-note-2');
    await crashedAfter('WORK#noteLinks#', create);
    const id = ((await c.ok('GET', '/notes')).json.data as Array<{ id: string }>)[0]!.id;
    // The client links the first feature itself, then takes it away again.
    expect((await c.req('POST', `/notes/${id}/relationships`, { data: { type: 'link', target: { id: t.features[0] } } })).status).toBe(201);
    const unlink = () => c.req('DELETE', `/notes/${id}/relationships/link/${t.features[0]}`);
    const refused = await unlink();
    expectError(refused, 'rate.limitExceeded', {
      detail: new RegExp(
        `^Too many concurrent changes to the links of note ${id}; nothing was changed\\. Retry after ${refused.headers.get('retry-after')} seconds?\\.$`,
      ),
    });
    expect((await c.ok('GET', `/notes/${id}/relationships?type=link`)).json.data).toHaveLength(1);
    const [pending] = await workOf(ws.workspaceId);
    await new Promise((r) => setTimeout(r, Math.max(0, pending!.due - Date.now() + 50)));
    const res = await unlink();
    expect(res.status, res.text).toBe(204);
    expect(await workOf(ws.workspaceId)).toEqual([]);
    expect(await sweepWhenDue(ws.workspaceId)).toEqual({ finished: 0, handedBack: 0, failed: 0 });
    const links = (await c.ok('GET', `/notes/${id}/relationships?type=link&limit=100`)).json.data.map((l: { target: { id: string } }) => l.target.id);
    expect(links.sort()).toEqual(t.features.slice(1).sort());
    expect(await c.score(t.product)).toBe((LINKS - 1) * 3);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 0 });
  }, 120_000);

  it('a create whose link steps stay contended after the note was written answers 408 saying so, never 429 "nothing was changed" (a transaction conflict answered by the fault proxy)', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await setup(c);
    let transactions = 0;
    // The note's own transaction goes through; every link step after it meets a conflict.
    const res = await withBudget(2000, () =>
      withFaults(
        (call) =>
          call.operation === 'TransactWriteItems' && ++transactions > 1 ? FAULTS.transactionConflict(call.input.TransactItems.length, 0) : FAULTS.forward(),
        () => bigNote(ws.token, t, 'big-note-contended')(),
      ),
    );
    const [note] = (await c.ok('GET', '/notes')).json.data as Array<{ id: string }>;
    expectError(res, 'request.timeout', {
      detail: `Note ${note!.id} was created; ${LINKS} links are being added to it and follow without another request.`,
    });
    expect(transactions).toBeGreaterThan(2);
    expect(await sweepWhenDue(ws.workspaceId)).toEqual({ finished: 1, handedBack: 0, failed: 0 });
    expect((await c.ok('GET', `/notes/${note!.id}/relationships?type=link`)).json.data).toHaveLength(LINKS);
    expect(await c.score(t.product)).toBe(LINKS * 3);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 0 });
  }, 120_000);

  it('verify counts the work there was at its start: work the sweeper finishes while verify runs is still reported as pending', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await setup(c);
    await crashedAfter('WORK#noteLinks#', bigNote(ws.token, t, 'big-note-verified'));
    await untilDue(ws.workspaceId);
    let sweeping = false;
    let sweptAt = Infinity;
    // One item per page: verify's passes take long enough for the sweep it starts to end first.
    const report = await verifyWorkspace(
      ws.workspaceId,
      false,
      () => {
        if (sweeping) return;
        sweeping = true;
        void sweepNow(ws.workspaceId).then(() => (sweptAt = Date.now()));
      },
      1,
    );
    expect(sweptAt).toBeLessThan(Date.now());
    expect(report.pending).toBe(1);
    expect(await workOf(ws.workspaceId)).toEqual([]);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, pending: 0 });
  }, 120_000);
});
