// GET /v2/entities/{id}/demand: the customer demand behind an initiative, objective, key result or
// release — the scores of the product hierarchy entities linked to it, an entity under a linked
// ancestor counted once — read in one TransactGetItems whatever the subtrees under the linked
// entities, and refused (404) for anything else. The same answer under concurrent writes is
// test/planning/demand-property.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#lib/store/client.ts';
import { client } from '../score/helpers.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

/** Records the DynamoDB calls made meanwhile: each command's name and, for TransactGetItems, its item count. */
function recordReads() {
  const sent: Array<{ command: string; items?: number }> = [];
  const name = `demand-reads-${Math.random()}`;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? '?').replace(/Command$/, '');
      const items = (args.input as { TransactItems?: unknown[] }).TransactItems?.length;
      sent.push({ command, ...(command === 'TransactGetItems' ? { items } : {}) });
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { sent, stop: () => db().middlewareStack.remove(name) };
}
let recorder: ReturnType<typeof recordReads> | undefined;
afterEach(() => recorder?.stop());

async function setup() {
  const ws = await newWorkspace();
  const c = client(app, ws.token);
  const product = await c.entity('product');
  const component = await c.entity('component', product);
  const feature = await c.entity('feature', component, { name: 'Apple Pay' });
  const sub = await c.entity('subfeature', feature, { name: 'Apple Pay on the web' });
  const other = await c.entity('feature', component, { name: 'Google Pay' });
  const acme = await c.entity('company', undefined, { name: 'Acme' });
  const globex = await c.entity('company', undefined, { name: 'Globex' });
  const group = await c.entity('releaseGroup');
  const release = await c.entity('release', group, { name: 'Spring' });
  const link = async (from: string, to: string) => c.ok('POST', `/entities/${from}/relationships`, { data: { type: 'link', target: { id: to } } });
  const demand = async (id: string) => {
    const res = await c.req('GET', `/entities/${id}/demand`);
    expect(res.status, res.text).toBe(200);
    return res.json.data;
  };
  return { ws, c, product, component, feature, sub, other, acme, globex, group, release, link, demand };
}

describe('customer demand', () => {
  it("sums the linked entities' scores, a subfeature under a linked feature counted once, and moves by the weight a rating changes", async () => {
    const { c, feature, sub, other, acme, globex, release, link, demand } = await setup();
    await c.note({ customer: acme, links: [[feature, 'critical']] });
    const onSub = await c.note({ customer: globex, links: [[sub, 'important']] });
    await c.note({ links: [[other, 'nice to have']] });
    expect([await c.score(feature), await c.score(sub), await c.score(other)]).toEqual([5, 2, 1]);
    const empty = await demand(release);
    expect(empty).toEqual({
      id: release,
      type: 'customerDemand',
      fields: { demand: 0, linkedEntities: 0, countedEntities: 0, pointInTime: true },
      links: { self: `${app.baseUrl}/entities/${release}/demand`, target: `${app.baseUrl}/entities/${release}` },
    });
    await link(release, feature);
    await link(sub, release);
    // The subfeature's 2 are in the feature's 5 already.
    expect((await demand(release)).fields).toEqual({ demand: 5, linkedEntities: 2, countedEntities: 1, pointInTime: true });
    await link(release, other);
    expect((await demand(release)).fields).toEqual({ demand: 6, linkedEntities: 3, countedEntities: 2, pointInTime: true });
    // Globex's rating of the subfeature goes from important (2) to critical (3): the demand moves by 1.
    await c.ok('PUT', `/notes/${onSub}/relationships/link/${sub}`, { data: { importance: 'critical' } });
    expect((await demand(release)).fields.demand).toBe(7);
    // The subfeature moves under the other feature: still counted once, now inside Google Pay's score.
    await c.ok('PUT', `/entities/${sub}/relationships/parent`, { data: { target: { id: other } } });
    expect([await c.score(feature), await c.score(other)]).toEqual([3, 4]);
    expect((await demand(release)).fields).toEqual({ demand: 7, linkedEntities: 3, countedEntities: 2, pointInTime: true });
    // Unlinked, the feature leaves the sum; deleted, the subfeature's link goes with it.
    expect((await c.req('DELETE', `/entities/${release}/relationships/link/${feature}`)).status).toBe(204);
    expect((await demand(release)).fields).toEqual({ demand: 4, linkedEntities: 2, countedEntities: 1, pointInTime: true });
    expect((await c.req('DELETE', `/entities/${sub}`)).status).toBe(204);
    expect((await demand(release)).fields).toEqual({ demand: 1, linkedEntities: 1, countedEntities: 1, pointInTime: true });
  });

  it('answers for initiatives, objectives and key results alike; a component linked with its feature counts the component', async () => {
    const { c, component, feature, acme, link, demand } = await setup();
    await c.note({ customer: acme, links: [[feature, 'important']] });
    const objective = await c.entity('objective');
    const keyResult = await c.entity('keyResult', objective);
    const initiative = await c.entity('initiative');
    await link(objective, feature);
    await link(keyResult, component);
    await link(keyResult, feature);
    await link(initiative, objective);
    expect((await demand(objective)).fields).toEqual({ demand: 2, linkedEntities: 1, countedEntities: 1, pointInTime: true });
    expect((await demand(keyResult)).fields).toEqual({ demand: 2, linkedEntities: 2, countedEntities: 1, pointInTime: true });
    // Links of linked planning entities are not followed: the initiative is linked to no hierarchy entity.
    expect((await demand(initiative)).fields).toEqual({ demand: 0, linkedEntities: 0, countedEntities: 0, pointInTime: true });
  });

  it('one Query and one TransactGetItems of the linked entities and their ancestors, whatever their subtrees hold', async () => {
    const { c, product, component, feature, other, release, link, demand } = await setup();
    await link(release, feature);
    await link(release, other);
    await demand(release); // the placement cache learns the chains
    recorder = recordReads();
    await demand(release);
    const small = recorder.sent.filter((s) => s.command !== 'UpdateItem');
    recorder.stop();
    // Grow the subtrees under both linked features, with scores.
    for (let i = 0; i < 12; i++) await c.note({ links: [[await c.entity('subfeature', i % 2 ? feature : other), 'critical']] });
    recorder = recordReads();
    const big = await demand(release);
    const large = recorder.sent.filter((s) => s.command !== 'UpdateItem');
    expect(big.fields).toEqual({ demand: 12, linkedEntities: 2, countedEntities: 2, pointInTime: true });
    // The authentication's read (with the release), the links' Query, one snapshot of
    // the release, both features, their component and their product: 5 items.
    expect(large).toEqual(small);
    expect(large.filter((s) => s.command === 'TransactGetItems')).toEqual([{ command: 'TransactGetItems', items: 5 }]);
    expect(large.filter((s) => s.command === 'Query')).toHaveLength(1);
    expect([product, component]).toHaveLength(2);
  });

  it('above 100 items the linked entities are read separately: the same sum, pointInTime false', async () => {
    const { c, product, acme, release, link, demand } = await setup();
    const features: string[] = [];
    for (let i = 0; i < 101; i++) features.push(await c.entity('feature', product));
    await c.note({ customer: acme, links: features.slice(0, 30).map((f) => [f, 'important'] as [string, string]) });
    for (const f of features) await link(release, f);
    expect((await demand(release)).fields).toEqual({ demand: 60, linkedEntities: 101, countedEntities: 101, pointInTime: false });
  }, 120_000);

  it('anything but a live initiative, objective, key result or release → 404; entities:read is needed', async () => {
    const { ws, c, feature, acme, group, release } = await setup();
    const note = await c.note({});
    for (const id of [feature, acme, group, note, '00000000-0000-4000-8000-000000000000']) {
      expectError(await c.req('GET', `/entities/${id}/demand`), 'resource.notFound', {
        detail: `No initiative, objective, key result or release ${id} in this workspace.`,
      });
    }
    expectError(await c.req('GET', '/entities/not-a-uuid/demand'), 'request.invalid', { source: { parameter: 'id' } });
    const reader = await ws.member({ role: 'viewer' });
    expect((await call(app, 'GET', `/v2/entities/${release}/demand`, { token: reader.token })).status).toBe(200);
    const noRead = await ws.member({ role: 'admin', scopes: ['notes:read'] });
    expectError(await call(app, 'GET', `/v2/entities/${release}/demand`, { token: noRead.token }), 'auth.accessDenied');
    expect((await c.req('DELETE', `/entities/${release}`)).status).toBe(204);
    expectError(await c.req('GET', `/entities/${release}/demand`), 'resource.notFound');
  });
});

describe("TransactGetItems through the store's client", () => {
  it('reads the items as written, an absent item as an empty response', async () => {
    const { transactGet } = await import('#lib/store/calls.ts');
    const { tableName } = await import('#lib/store/table.ts');
    const pk = `TXGET#${Math.random()}`;
    const item = { pk, sk: 'a', n: 1.5, nested: { list: [1, 'x'], flag: true }, tags: new Set(['p', 'q']) };
    await db().send(new (await import('@aws-sdk/lib-dynamodb')).PutCommand({ TableName: tableName(), Item: item }));
    const input = {
      TransactItems: [{ Get: { TableName: tableName(), Key: { pk, sk: 'a' } } }, { Get: { TableName: tableName(), Key: { pk, sk: 'missing' } } }],
    };
    const out = await transactGet(input);
    expect(out.Responses).toEqual([{ Item: item }, {}]);
  });
});
