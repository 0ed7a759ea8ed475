import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NOTES_PER_RATING } from '#lib/store/aggregates.ts';
import { db } from '#lib/store/client.ts';
import { BulkWriter } from '#lib/store/move/load.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { client } from './helpers.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

describe('GET /v2/entities/{id}/score', () => {
  it('answers the spec shape: customerScore, fields.score, links.self under {base_url}; 0 with no data', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const res = await c.req('GET', `/entities/${product}/score`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: { id: product, type: 'customerScore', fields: { score: 0 }, links: { self: `${app.baseUrl}/entities/${product}/score` } },
    });
  });

  it('404 resource.notFound for a company, a user, a note, an unknown id and another workspace', async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const c = client(app, ws.token);
    const company = await c.entity('company');
    const user = await c.entity('user', company);
    const note = await c.note();
    const foreign = await client(app, other.token).entity('product');
    for (const id of [company, user, note, '00000000-0000-4000-8000-000000000000', foreign]) {
      expectError(await c.req('GET', `/entities/${id}/score`), 'resource.notFound');
    }
  });

  it('a non-uuid id → 400 request.invalid with source.parameter id', async () => {
    const ws = await newWorkspace();
    expectError(await client(app, ws.token).req('GET', '/entities/not-a-uuid/score'), 'request.invalid', { source: { parameter: 'id' } });
  });

  it('needs entities:read', async () => {
    const ws = await newWorkspace();
    const product = await client(app, ws.token).entity('product');
    const { token } = await ws.member({ scopes: ['notes:read'] });
    expectError(await call(app, 'GET', `/v2/entities/${product}/score`, { token }), 'auth.accessDenied');
  });

  it("one DynamoDB read for the whole score request, whatever the subtree size: the entity rides in the bearer check's BatchGetItem", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const small = await c.entity('product');
    const big = await c.entity('product');
    let parent = big;
    for (let i = 0; i < 5; i++) parent = await c.entity('component', parent);
    const features = await Promise.all(Array.from({ length: 6 }, () => c.entity('feature', parent)));
    const customer = await c.entity('company');
    await c.note({ customer, links: features.map((f) => [f, 'critical'] as [string, string]) });
    await c.note({ links: features.map((f) => [f] as [string]) });
    const reads: Array<[string, string[]]> = [];
    const stack = db().middlewareStack;
    stack.add(
      (next, context) => async (args) => {
        type Key = { pk?: { S?: string }; sk?: { S?: string } };
        const input = args.input as { Key?: Key; RequestItems?: Record<string, { Keys?: Key[] }> };
        const keys = input.Key ? [input.Key] : Object.values(input.RequestItems ?? {}).flatMap((r) => r.Keys ?? []);
        if (/^(GetItem|Query|Scan|BatchGetItem|TransactGetItems)Command$/.test(context.commandName ?? '')) {
          reads.push([context.commandName!, keys.map((k) => k.sk?.S ?? '')]);
        }
        return next(args);
      },
      { step: 'deserialize', name: 'countScoreReads' },
    );
    try {
      for (const [id, score] of [
        [small, 0],
        [big, 6 * 3 + 6 * 1],
      ] as const) {
        reads.length = 0;
        expect(await c.score(id)).toBe(score);
        expect(reads).toHaveLength(1);
        expect(reads[0]![0]).toBe('BatchGetItemCommand');
        expect(reads[0]![1]).toContain(`ENT#${id}`);
      }
    } finally {
      stack.remove('countScoreReads');
    }
  });
});

describe('the score rule', () => {
  it('per (entity, customer) only the most recently set rating counts; anonymous links count 1 whatever the importance', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const feature = await c.entity('feature', product);
    const acme = await c.entity('company');
    await c.note({ customer: acme, links: [[feature, 'critical']] });
    expect(await c.score(feature)).toBe(3);
    await c.note({ customer: acme, links: [[feature, 'nice to have']] });
    expect(await c.score(feature)).toBe(1);
    await c.note({ links: [[feature, 'not important']] });
    expect(await c.score(feature)).toBe(2);
    expect(await c.score(product)).toBe(2);
  });

  it('re-rating makes a rating the latest; deleting the counting rating falls back to the next most recent', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const acme = await c.entity('company');
    const n1 = await c.note({ customer: acme, links: [[product, 'important']] });
    const n2 = await c.note({ customer: acme, links: [[product, 'nice to have']] });
    const n3 = await c.note({ customer: acme, links: [[product, 'not important']] });
    expect(await c.score(product)).toBe(0);
    await c.ok('PUT', `/notes/${n1}/relationships/link/${product}`, { data: { importance: 'critical' } });
    expect(await c.score(product)).toBe(3);
    await c.ok('DELETE', `/notes/${n1}/relationships/link/${product}`);
    expect(await c.score(product)).toBe(0); // n3 (not important) is now the latest
    await c.ok('DELETE', `/notes/${n3}`);
    expect(await c.score(product)).toBe(1); // n2
    await c.ok('DELETE', `/notes/${n2}/relationships/link/${product}`);
    expect(await c.score(product)).toBe(0);
  });

  it("changing a note's customer moves its ratings to the new customer keeping their set time", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const acme = await c.entity('company');
    const globex = await c.entity('company');
    const early = await c.note({ customer: acme, links: [[product, 'critical']] });
    await c.note({ customer: globex, links: [[product, 'nice to have']] });
    expect(await c.score(product)).toBe(4);
    // The moved rating was set before globex's own: globex's later one keeps counting.
    await c.ok('PUT', `/notes/${early}/relationships/customer`, { data: { target: { type: 'company', id: globex } } });
    expect(await c.score(product)).toBe(1);
    // Clearing the customer makes the link anonymous: 1, and globex's own counts again.
    await c.ok('DELETE', `/notes/${early}/relationships/customer/${globex}`);
    expect(await c.score(product)).toBe(2);
  });

  it('score(e) sums own over the subtree, and follows a move of a subtree', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p1 = await c.entity('product');
    const p2 = await c.entity('product');
    const comp = await c.entity('component', p1);
    const f = await c.entity('feature', comp);
    const sf = await c.entity('subfeature', f);
    const acme = await c.entity('company');
    await c.note({
      customer: acme,
      links: [
        [sf, 'important'],
        [comp, 'critical'],
        [p1, 'nice to have'],
      ],
    });
    await c.note({ links: [[f]] });
    expect([await c.score(p1), await c.score(comp), await c.score(f), await c.score(sf), await c.score(p2)]).toEqual([7, 6, 3, 2, 0]);
    const moved = await c.req('PUT', `/entities/${comp}/relationships/parent`, { data: { target: { id: p2 } } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json).toEqual({
      data: { type: 'parent', target: { id: p2, type: 'product', links: { self: `${app.baseUrl}/entities/${p2}`, html: `${app.webUrl}/entities/${p2}` } } },
    });
    expect([await c.score(p1), await c.score(p2), await c.score(comp)]).toEqual([1, 6, 6]);
  });

  it('deleting an entity cascades to its subtree and takes its score out of its ancestors', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const comp = await c.entity('component', p);
    const f = await c.entity('feature', comp);
    const sf = await c.entity('subfeature', f);
    const n = await c.note({ links: [[sf], [p]] });
    expect(await c.score(p)).toBe(2);
    expect((await c.req('DELETE', `/entities/${comp}`)).status).toBe(204);
    expect(await c.score(p)).toBe(1);
    for (const id of [comp, f, sf]) expectError(await c.req('GET', `/entities/${id}`), 'resource.notFound');
    const note = await c.ok('GET', `/notes/${n}`);
    expect(note.json.data.relationships.data.map((r: any) => r.target.id)).toEqual([p]);
  });
});

describe('the cap on notes through which one customer rates one entity', () => {
  it(`with ${MAX_NOTES_PER_RATING} notes of a customer linked to a feature (seeded raw, aggregates rebuilt), one more link → 400 request.invalid, nothing written, the score unchanged; re-rating one of them still succeeds`, async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const feature = await c.entity('feature', product);
    const acme = await c.entity('company');
    // Seeded as test/move/bulk-seed.ts does: raw items through the bulk writer, then `score verify --repair`.
    const writer = new BulkWriter({ ws: ws.workspaceId, id: (id) => id, quiet: 'seed', sealedSecret: () => '' });
    const seeded: string[] = [];
    const t0 = Date.parse('2025-01-01T00:00:00Z');
    for (let i = 0; i < MAX_NOTES_PER_RATING; i++) {
      const id = crypto.randomUUID();
      seeded.push(id);
      const at = new Date(t0 + i * 60_000).toISOString();
      await writer.add({
        kind: 'note',
        id,
        type: 'textNote',
        fields: { name: `Rating ${i}` },
        customer: { id: acme, type: 'company' },
        createdAt: at,
        updatedAt: at,
        links: [{ entityId: feature, entityType: 'feature', importance: 'important', ratedAt: at }],
      });
    }
    await writer.flush();
    await verifyWorkspace(ws.workspaceId, true);
    expect(await verifyWorkspace(ws.workspaceId, false)).toMatchObject({ mismatches: 0 });
    expect([await c.score(feature), await c.score(product)]).toEqual([2, 2]);

    const capped = (res: Awaited<ReturnType<typeof c.req>>) => {
      expectError(res, 'request.invalid', { source: { pointer: '/data' } });
      expect(res.json.errors[0].detail).toBe('A customer can rate one entity through at most 1000 notes.');
    };
    const extra = await c.note({ customer: acme });
    capped(await c.req('POST', `/notes/${extra}/relationships`, { data: { type: 'link', target: { id: feature }, importance: 'critical' } }));
    capped(await c.req('PUT', `/notes/${extra}/relationships/link/${feature}`, { data: { importance: 'critical' } }));
    const links = (await c.ok('GET', `/notes/${extra}/relationships`)).json.data.filter((r: { type: string }) => r.type === 'link');
    expect(links).toEqual([]);
    expect([await c.score(feature), await c.score(product)]).toEqual([2, 2]);

    // A note already among the 1000 is no new note: re-rating it is allowed and makes it the latest.
    const rerated = await c.req('PUT', `/notes/${seeded[0]}/relationships/link/${feature}`, { data: { importance: 'critical' } });
    expect(rerated.status, rerated.text).toBe(200);
    expect([await c.score(feature), await c.score(product)]).toEqual([3, 3]);
  }, 60_000);
});
