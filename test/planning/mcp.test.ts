// The MCP tools over planning entities, through the SDK's own client: the demand behind a plan, the
// features of a release ranked by customer score (the same numbers as the REST routes), the
// releases of a product area, objectives with their key results; each needs entities:read, and
// another workspace's ids are not found.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, create, expectToolError, mcpClient, seedProduct, type Seeded } from '../mcp/support.ts';
import { call, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
let ws: TestWorkspace;
let seeded: Seeded;
let client: Client;
let plan: { group: string; spring: string; autumn: string; objective: string; kr: string; nested: string; sub: string };

const link = async (from: string, to: string) => {
  const res = await call(app, 'POST', `/v2/entities/${from}/relationships`, { token: ws.token, body: { data: { type: 'link', target: { id: to } } } });
  expect(res.status, res.text).toBe(201);
};
const entity = (type: string, name: string, parent?: string, fields: Record<string, unknown> = {}) =>
  create(app, ws.token, '/v2/entities', {
    type,
    fields: { name, ...fields },
    ...(parent ? { relationships: [{ type: 'parent', target: { id: parent } }] } : {}),
  });

beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace('MCP planning');
  // Apple Pay 5, Gift cards 2, Invoices 1, Wallets 0 (test/mcp/support.ts).
  seeded = await seedProduct(app, ws.token);
  const sub = await entity('subfeature', 'Apple Pay on the web', seeded.features['Apple Pay']);
  const group = await entity('releaseGroup', 'Mobile');
  const spring = await entity('release', 'Spring', group, {
    status: { name: 'In progress' },
    timeframe: { startDate: '2026-03-01', endDate: '2026-05-31', granularity: 'month' },
  });
  const autumn = await entity('release', 'Autumn', group);
  await entity('release', 'Empty', group);
  for (const f of [seeded.features['Apple Pay']!, sub, seeded.features['Gift cards']!, seeded.features['Wallets']!]) await link(spring, f);
  await link(autumn, seeded.features['Invoices']!);
  const objective = await entity('objective', 'Grow checkout', undefined, { status: { name: 'Not started' } });
  const kr = await entity('keyResult', 'Conversion +5%', objective);
  const nested = await entity('objective', 'Wallet adoption', objective);
  await link(objective, seeded.component);
  plan = { group, spring, autumn, objective, kr, nested, sub };
  client = await mcpClient(app, { token: ws.token });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await app?.close();
});

describe('planning tools', () => {
  it("get_customer_demand answers what GET /v2/entities/{id}/demand answers, with the plan's name and status", async () => {
    const rest = (await call(app, 'GET', `/v2/entities/${plan.spring}/demand`, { token: ws.token })).json.data.fields;
    const result = await callTool(client, 'get_customer_demand', { entityId: plan.spring });
    expect(result.structuredContent).toEqual({
      id: plan.spring,
      type: 'release',
      name: 'Spring',
      parentId: plan.group,
      link: `${app.baseUrl}/entities/${plan.spring}`,
      status: 'In progress',
      timeframe: { startDate: '2026-03-01', endDate: '2026-05-31', granularity: 'month' },
      demand: rest.demand,
      linkedEntities: 4,
      countedEntities: 3,
      pointInTime: true,
    });
    expect(rest.demand).toBe(7);
    expect(result.content).toEqual([{ type: 'text', text: 'release "Spring" has a customer demand of 7 from 3 linked entities.' }]);
    expect((await callTool(client, 'get_customer_demand', { entityId: plan.objective })).structuredContent.demand).toBe(6);
    expectToolError(
      await callTool(client, 'get_customer_demand', { entityId: plan.group }),
      'resource.notFound',
      /No initiative, objective, key result or release/,
    );
  });

  it('rank_plan_by_customer_score ranks the features of a release by the scores GET …/score answers; the subfeature under a linked feature is not counted', async () => {
    const result = await callTool(client, 'rank_plan_by_customer_score', { planId: plan.spring });
    const ranked = result.structuredContent.entities as Array<{ rank: number; id: string; name: string; score: number; counted: boolean }>;
    // Equal scores go by id.
    const zeros = [
      [plan.sub, 'Apple Pay on the web', false],
      [seeded.features['Wallets']!, 'Wallets', true],
    ] as const;
    const [z1, z2] = [...zeros].sort(([a], [b]) => (a < b ? -1 : 1)) as [(typeof zeros)[number], (typeof zeros)[number]];
    expect(ranked.map((r) => [r.rank, r.name, r.score, r.counted])).toEqual([
      [1, 'Apple Pay', 5, true],
      [2, 'Gift cards', 2, true],
      [3, z1[1], 0, z1[2]],
      [4, z2[1], 0, z2[2]],
    ]);
    for (const r of ranked) expect(r.score).toBe((await call(app, 'GET', `/v2/entities/${r.id}/score`, { token: ws.token })).json.data.fields.score);
    expect(result.structuredContent.demand).toBe(7);
    const first = await callTool(client, 'rank_plan_by_customer_score', { planId: plan.spring, type: 'feature', limit: 2 });
    expect(first.structuredContent.entities.map((r: { name: string }) => r.name)).toEqual(['Apple Pay', 'Gift cards']);
    const second = await callTool(client, 'rank_plan_by_customer_score', {
      planId: plan.spring,
      type: 'feature',
      limit: 2,
      cursor: first.structuredContent.nextCursor,
    });
    expect(second.structuredContent.entities.map((r: { rank: number; name: string }) => [r.rank, r.name])).toEqual([[3, 'Wallets']]);
    expect(second.structuredContent.nextCursor).toBeUndefined();
    expectToolError(
      await callTool(client, 'rank_plan_by_customer_score', { planId: plan.spring, limit: 3, cursor: first.structuredContent.nextCursor }),
      'request.invalid',
      /cursor/,
    );
  });

  it('list_releases_of_area lists the releases holding the area or anything under it, with those entities and their scores', async () => {
    const byComponent = await callTool(client, 'list_releases_of_area', { areaId: seeded.component });
    expect(
      byComponent.structuredContent.releases.map((r: { name: string; entities: Array<{ name: string; score: number }> }) => [
        r.name,
        r.entities.map((e) => `${e.name} ${e.score}`),
      ]),
    ).toEqual([
      ['Spring', ['Apple Pay 5', 'Apple Pay on the web 0']],
      ['Autumn', ['Invoices 1']],
    ]);
    expect(byComponent.content[0]!.text).toBe('2 releases hold component "Payments" or entities under it.');
    const byFeature = await callTool(client, 'list_releases_of_area', { areaId: seeded.features['Wallets'] });
    expect(byFeature.structuredContent.releases.map((r: { id: string }) => r.id)).toEqual([plan.spring]);
    expect(byFeature.structuredContent.releases[0]).toMatchObject({ status: 'In progress', parentId: plan.group });
    expectToolError(await callTool(client, 'list_releases_of_area', { areaId: plan.spring }), 'resource.notFound', /No product hierarchy entity/);
  });

  it('list_objectives lists objectives with their key results, nested ones under parentId, paginated', async () => {
    const all = await callTool(client, 'list_objectives', {});
    expect(
      all.structuredContent.objectives.map((o: { name: string; status?: string; keyResults: Array<{ id: string; name: string }> }) => [
        o.name,
        o.status,
        o.keyResults.map((k) => k.name),
      ]),
    ).toEqual([
      ['Grow checkout', 'Not started', ['Conversion +5%']],
      ['Wallet adoption', undefined, []],
    ]);
    const nested = await callTool(client, 'list_objectives', { parentId: plan.objective });
    expect(nested.structuredContent.objectives.map((o: { id: string }) => o.id)).toEqual([plan.nested]);
    const page = await callTool(client, 'list_objectives', { limit: 1 });
    expect(page.structuredContent.objectives.map((o: { id: string }) => o.id)).toEqual([plan.objective]);
    const next = await callTool(client, 'list_objectives', { limit: 1, cursor: page.structuredContent.nextCursor });
    expect(next.structuredContent.objectives.map((o: { id: string }) => o.id)).toEqual([plan.nested]);
    expectToolError(await callTool(client, 'list_objectives', { parentId: plan.kr }), 'resource.notFound', /No objective/);
  });

  it('each needs entities:read; another workspace finds none of them', async () => {
    const reader = await ws.member({ role: 'admin', scopes: ['notes:read'] });
    const readerClient = await mcpClient(app, { token: reader.token });
    const other = await mcpClient(app, { token: (await newWorkspace()).token });
    try {
      for (const [name, args] of [
        ['get_customer_demand', { entityId: plan.spring }],
        ['rank_plan_by_customer_score', { planId: plan.spring }],
        ['list_releases_of_area', { areaId: seeded.product }],
        ['list_objectives', {}],
      ] as const) {
        expectToolError(await callTool(readerClient, name, args), 'auth.accessDenied', /entities:read/);
      }
      expectToolError(await callTool(other, 'get_customer_demand', { entityId: plan.spring }), 'resource.notFound');
      expectToolError(await callTool(other, 'rank_plan_by_customer_score', { planId: plan.spring }), 'resource.notFound');
      expectToolError(await callTool(other, 'list_releases_of_area', { areaId: seeded.product }), 'resource.notFound');
      expect((await callTool(other, 'list_objectives', {})).structuredContent.objectives).toEqual([]);
    } finally {
      await readerClient.close();
      await other.close();
    }
  });
});
