// Planning entities over HTTP (initiative, objective, keyResult, release, releaseGroup): every entity
// route serves them with their own parent rules, fields and status sets; they are not product
// hierarchy entities (no score, no note links); `link` joins them to the product hierarchy as the
// configurations say, and deleting one takes what it holds and its links, never the linked features.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEPTH, ENTITY_TYPES } from '#lib/domain/hierarchy.ts';
import { LINK_TARGETS } from '#lib/domain/relations.ts';
import { client } from '../score/helpers.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const parentOf = (id: string) => ({ relationships: [{ type: 'parent', target: { id } }] });
const STATUS = {
  upcoming: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a09',
  completed: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a08',
  notStarted: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a07',
};

async function setup() {
  const ws = await newWorkspace();
  const c = client(app, ws.token);
  const product = await c.entity('product');
  const feature = await c.entity('feature', product, { name: 'Apple Pay' });
  const sub = await c.entity('subfeature', feature);
  const group = await c.entity('releaseGroup', undefined, { name: 'Mobile' });
  const release = await c.entity('release', group, { name: 'Spring' });
  const objective = await c.entity('objective', undefined, { name: 'Grow checkout' });
  const keyResult = await c.entity('keyResult', objective, { name: 'Conversion +5%' });
  const initiative = await c.entity('initiative', undefined, { name: 'Wallets' });
  /** `type target` of each relationship of an entity (optionally one type), in list order. */
  const lines = async (id: string, qs = '') =>
    (await c.ok('GET', `/entities/${id}/relationships${qs}`)).json.data.map(
      (r: { type: string; target: { id: string; type: string } }) => `${r.type} ${r.target.type} ${r.target.id}`,
    );
  const link = (from: string, to: string) => c.req('POST', `/entities/${from}/relationships`, { data: { type: 'link', target: { id: to } } });
  return { ws, c, product, feature, sub, group, release, objective, keyResult, initiative, lines, link };
}

describe('planning entities: create, read, parent rules', () => {
  it('each type is created, read back with its fields and its parent and children', async () => {
    const { ws, c, group, release, objective, keyResult } = await setup();
    const created = await c.req('POST', '/entities', {
      data: {
        type: 'release',
        fields: {
          name: 'Summer',
          description: '<p>June</p>',
          status: { name: 'upcoming' },
          timeframe: { startDate: '2026-06-01', endDate: '2026-06-30', granularity: 'month' },
          archived: false,
        },
        ...parentOf(group),
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.id;
    expect(created.json).toEqual({ data: { id, type: 'release', links: { self: `${app.baseUrl}/entities/${id}`, html: `${app.webUrl}/entities/${id}` } } });
    const got = await c.ok('GET', `/entities/${id}`);
    expect(got.json.data).toMatchObject({
      id,
      type: 'release',
      fields: {
        name: 'Summer',
        description: '<p>June</p>',
        status: { id: STATUS.upcoming, name: 'Upcoming' },
        timeframe: { startDate: '2026-06-01', endDate: '2026-06-30', granularity: 'month' },
        archived: false,
      },
      relationships: { data: [{ type: 'parent', target: { id: group, type: 'releaseGroup' } }], links: {} },
    });
    // fields[]=all: every field a release has, and no other.
    const all = await c.ok('GET', `/entities/${release}?fields[]=all`);
    expect(Object.keys(all.json.data.fields)).toEqual(['name', 'description', 'status', 'timeframe', 'archived']);
    const groupRead = await c.ok('GET', `/entities/${group}?fields[]=all`);
    expect(Object.keys(groupRead.json.data.fields)).toEqual(['name', 'description', 'archived']);
    expect(groupRead.json.data.relationships.data.map((r: { type: string; target: { id: string } }) => `${r.type} ${r.target.id}`)).toEqual([
      `child ${release}`,
      `child ${id}`,
    ]);
    const kr = await c.ok('GET', `/entities/${keyResult}`);
    expect(kr.json.data.relationships.data).toEqual([
      {
        type: 'parent',
        target: { id: objective, type: 'objective', links: { self: `${app.baseUrl}/entities/${objective}`, html: `${app.webUrl}/entities/${objective}` } },
      },
    ]);
    // An initiative takes an owner and tags, as a feature does.
    const initiative = await c.req('POST', '/entities', {
      data: { type: 'initiative', fields: { name: 'Wallets 2', owner: { email: ws.admin.email }, tags: [{ name: 'q3' }], status: { name: 'Not started' } } },
    });
    expect(initiative.status, initiative.text).toBe(201);
    expect((await c.ok('GET', `/entities/${initiative.json.data.id}`)).json.data.fields).toEqual({
      name: 'Wallets 2',
      owner: { id: ws.admin.id, email: ws.admin.email },
      tags: [{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'q3' }],
      status: { id: STATUS.notStarted, name: 'Not started' },
      archived: false,
    });
  });

  it.each([
    ['a key result without an objective', { type: 'keyResult', fields: { name: 'x' } }, '/data/relationships', /needs a parent \(objective\)/],
    ['a release without a release group', { type: 'release', fields: { name: 'x' } }, '/data/relationships', /needs a parent \(releaseGroup\)/],
    [
      'a release under a product',
      { type: 'release', fields: { name: 'x' }, ...parentOf('PRODUCT') },
      '/data/relationships/0/target/id',
      /cannot have a product parent; allowed: releaseGroup/,
    ],
    [
      'a feature under a release group',
      { type: 'feature', fields: { name: 'x' }, ...parentOf('GROUP') },
      '/data/relationships/0/target/id',
      /cannot have a releaseGroup parent/,
    ],
    [
      'an initiative with a parent',
      { type: 'initiative', fields: { name: 'x' }, ...parentOf('OBJECTIVE') },
      '/data/relationships/0/target/id',
      /cannot have a parent/,
    ],
    [
      'a key result under a key result',
      { type: 'keyResult', fields: { name: 'x' }, ...parentOf('KEYRESULT') },
      '/data/relationships/0/target/id',
      /allowed: objective/,
    ],
    [
      'an owner on a release',
      { type: 'release', fields: { name: 'x', owner: { email: 'a@example.com' } }, ...parentOf('GROUP') },
      '/data/fields/owner',
      /Unknown field 'owner' for a release/,
    ],
    [
      'a status on a release group',
      { type: 'releaseGroup', fields: { name: 'x', status: { name: 'Upcoming' } } },
      '/data/fields/status',
      /Unknown field 'status' for a releaseGroup/,
    ],
    [
      'a feature status on a release',
      { type: 'release', fields: { name: 'x', status: { name: 'New idea' } }, ...parentOf('GROUP') },
      '/data/fields/status/name',
      /^No status of a release is named 'New idea'; the statuses of a release are Upcoming \(\S+\), In progress \(\S+\), Completed \(\S+\)\.$/,
    ],
    [
      'a release status on a feature',
      { type: 'feature', fields: { name: 'x', status: { name: 'upcoming' } }, ...parentOf('PRODUCT') },
      '/data/fields/status/name',
      /^No status of a feature is named 'upcoming'; the statuses of a feature are New idea \(\S+\), Candidate \(\S+\), Planned \(\S+\), In progress \(\S+\), Released \(\S+\), Won't do \(\S+\)\.$/,
    ],
  ])('create with %s → 400 request.invalid at its pointer, nothing created', async (_name, body, pointer, detail) => {
    const s = await setup();
    const ids: Record<string, string> = { PRODUCT: s.product, GROUP: s.group, OBJECTIVE: s.objective, KEYRESULT: s.keyResult };
    const data = JSON.parse(JSON.stringify(body).replace(/PRODUCT|GROUP|OBJECTIVE|KEYRESULT/, (k) => ids[k]!));
    const before = (await s.c.ok('GET', `/entities?type[]=${data.type}`)).json.data.length;
    expectError(await s.c.req('POST', '/entities', { data }), 'request.invalid', { source: { pointer }, detail });
    expect((await s.c.ok('GET', `/entities?type[]=${data.type}`)).json.data.length).toBe(before);
  });

  it("updates by fields and by patch check the type's status set at the value", async () => {
    const { c, release, initiative } = await setup();
    await c.ok('PATCH', `/entities/${initiative}`, { data: { patch: [{ op: 'set', path: 'status', value: { name: 'Completed' } }] } });
    expect((await c.ok('GET', `/entities/${initiative}`)).json.data.fields.status).toEqual({ id: STATUS.completed, name: 'Completed' });
    expectError(
      await c.req('PATCH', `/entities/${release}`, { data: { patch: [{ op: 'set', path: 'status', value: { name: 'Released' } }] } }),
      'request.invalid',
      {
        source: { pointer: '/data/patch/0/value/name' },
        detail: /^No status of a release is named 'Released'/,
      },
    );
    expectError(await c.req('PATCH', `/entities/${release}`, { data: { fields: { status: { id: STATUS.notStarted } } } }), 'request.invalid', {
      source: { pointer: '/data/fields/status/id' },
      detail: /is no status of a release/,
    });
    await c.ok('PATCH', `/entities/${release}`, { data: { fields: { status: { id: STATUS.completed } } } });
    expect((await c.ok('GET', `/entities/${release}`)).json.data.fields.status).toEqual({ id: STATUS.completed, name: 'Completed' });
  });

  it('moves within their own trees: a release to another group, a key result to another objective, objectives nested and detached; cycles and foreign parents refused', async () => {
    const { c, group, release, objective, keyResult, product, lines } = await setup();
    const otherGroup = await c.entity('releaseGroup');
    await c.ok('PUT', `/entities/${release}/relationships/parent`, { data: { target: { id: otherGroup } } });
    expect(await lines(release, '?type=parent')).toEqual([`parent releaseGroup ${otherGroup}`]);
    expect(await lines(group, '?type=child')).toEqual([]);
    const parentObjective = await c.entity('objective');
    await c.ok('PUT', `/entities/${objective}/relationships/parent`, { data: { target: { id: parentObjective } } });
    const otherObjective = await c.entity('objective', parentObjective);
    await c.ok('POST', `/entities/${otherObjective}/relationships`, { data: { type: 'child', target: { id: keyResult } } });
    expect(await lines(otherObjective, '?type=child')).toEqual([`child keyResult ${keyResult}`]);
    expectError(await c.req('PUT', `/entities/${parentObjective}/relationships/parent`, { data: { target: { id: objective } } }), 'request.invalid', {
      source: { pointer: '/data/target/id' },
      detail: /cycle/,
    });
    expectError(await c.req('PUT', `/entities/${release}/relationships/parent`, { data: { target: { id: product } } }), 'request.invalid', {
      source: { pointer: '/data/target/id' },
    });
    expectError(await c.req('PUT', `/entities/${otherGroup}/relationships/parent`, { data: { target: { id: group } } }), 'request.invalid', {
      source: { pointer: '/data/target/id' },
      detail: /A releaseGroup cannot have a parent/,
    });
    // An objective may stand alone; a release may not.
    expect((await c.req('DELETE', `/entities/${objective}/relationships/parent/${parentObjective}`)).status).toBe(204);
    expect(await lines(objective, '?type=parent')).toEqual([]);
    expectError(await c.req('DELETE', `/entities/${release}/relationships/parent/${otherGroup}`), 'request.invalid', {
      source: { parameter: 'type' },
      detail: /needs a parent/,
    });
  });

  it(`nested objectives are capped at ${MAX_DEPTH} levels, key results included`, async () => {
    const { c } = await setup();
    let top = await c.entity('objective');
    for (let depth = 2; depth < MAX_DEPTH; depth++) top = await c.entity('objective', top);
    const leaf = await c.entity('keyResult', top);
    const deepest = await c.entity('objective', top);
    expect([leaf, deepest]).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    const tooDeep = {
      source: { pointer: '/data/relationships/0/target/id' },
      detail: `The hierarchy would be ${MAX_DEPTH + 1} levels deep; the maximum is ${MAX_DEPTH}.`,
    };
    expectError(
      await c.req('POST', '/entities', { data: { type: 'keyResult', fields: { name: 'too deep' }, ...parentOf(deepest) } }),
      'request.invalid',
      tooDeep,
    );
    expectError(
      await c.req('POST', '/entities', { data: { type: 'objective', fields: { name: 'too deep' }, ...parentOf(deepest) } }),
      'request.invalid',
      tooDeep,
    );
  });
});

describe('planning entities: lists, search, configurations', () => {
  it("type[]=release lists exactly the releases; parent[id] a group's releases; status filters take the release statuses", async () => {
    const { c, group, release } = await setup();
    const later = await c.entity('release', group, { status: { name: 'Upcoming' } });
    const elsewhere = await c.entity('release', await c.entity('releaseGroup'));
    const list = await c.ok('GET', '/entities?type[]=release');
    expect(list.json.data.map((e: { id: string; type: string }) => [e.type, e.id])).toEqual([
      ['release', release],
      ['release', later],
      ['release', elsewhere],
    ]);
    const inGroup = await c.ok('GET', `/entities?type[]=release&parent[id]=${group}`);
    expect(inGroup.json.data.map((e: { id: string }) => e.id)).toEqual([release, later]);
    const upcoming = await c.ok('GET', '/entities?type[]=release&status[name]=upcoming');
    expect(upcoming.json.data.map((e: { id: string }) => e.id)).toEqual([later]);
    const paged = await c.ok('GET', '/entities?type[]=release&limit=2');
    expect(paged.json.data).toHaveLength(2);
    const rest = await c.ok('GET', paged.json.links.next.slice(app.baseUrl.length));
    expect(rest.json.data.map((e: { id: string }) => e.id)).toEqual([elsewhere]);
    // Every type without a filter includes them.
    const types = new Set((await c.ok('GET', '/entities')).json.data.map((e: { type: string }) => e.type));
    expect([...types].sort()).toEqual(['feature', 'initiative', 'keyResult', 'objective', 'product', 'release', 'releaseGroup', 'subfeature']);
  });

  it("Productboard's search body finds them by filter.type, with return.fields", async () => {
    const { c, objective, keyResult, initiative } = await setup();
    const found = await c.ok('POST', '/entities/search', {
      data: { filter: { type: ['objective', 'keyResult', 'initiative'] }, return: { fields: ['name'] } },
    });
    expect(found.json.data.map((e: { id: string; type: string; fields: unknown }) => [e.type, e.id, e.fields])).toEqual([
      ['objective', objective, { name: 'Grow checkout' }],
      ['keyResult', keyResult, { name: 'Conversion +5%' }],
      ['initiative', initiative, { name: 'Wallets' }],
    ]);
    const spec = await c.ok('POST', '/entities/search', { data: { types: ['keyResult'] } });
    expect(spec.json.data.map((e: { id: string }) => e.id)).toEqual([keyResult]);
  });

  it('configurations give each type its fields, its parent and child rules and the types it links to', async () => {
    const { c } = await setup();
    const release = (await c.ok('GET', '/entities/configurations/release')).json.data;
    expect(Object.keys(release.fields)).toEqual(['name', 'description', 'status', 'timeframe', 'archived']);
    expect(release.relationships).toEqual({
      parent: { targetType: ['releaseGroup'], cardinality: 'single', mandatory: true },
      link: { targetType: ['product', 'component', 'feature', 'subfeature', 'initiative'], cardinality: 'multiple', mandatory: false },
    });
    const group = (await c.ok('GET', '/entities/configurations/releaseGroup')).json.data;
    expect(group.relationships).toEqual({ child: { targetType: ['release'], cardinality: 'multiple', mandatory: false } });
    const objective = (await c.ok('GET', '/entities/configurations/objective')).json.data;
    expect(objective.relationships).toEqual({
      parent: { targetType: ['objective'], cardinality: 'single', mandatory: false },
      child: { targetType: ['objective', 'keyResult'], cardinality: 'multiple', mandatory: false },
      link: { targetType: ['product', 'component', 'feature', 'subfeature', 'initiative'], cardinality: 'multiple', mandatory: false },
    });
    const feature = (await c.ok('GET', '/entities/configurations/feature')).json.data;
    expect(feature.relationships).toMatchObject({
      link: { targetType: ['product', 'component', 'feature', 'subfeature', 'initiative', 'objective', 'keyResult', 'release'] },
      isBlockedBy: { targetType: ['product', 'component', 'feature', 'subfeature'] },
      isBlocking: { targetType: ['product', 'component', 'feature', 'subfeature'] },
    });
    const company = (await c.ok('GET', '/entities/configurations/company')).json.data;
    expect(company.relationships).toEqual({ child: { targetType: ['user'], cardinality: 'multiple', mandatory: false } });
  });

  it('the link rule is symmetric: B may be linked to A exactly when A may be linked to B', () => {
    for (const a of ENTITY_TYPES) for (const b of LINK_TARGETS[a]) expect(LINK_TARGETS[b], `${a} → ${b}`).toContain(a);
  });
});

describe('planning entities: links, score, notes', () => {
  it('a feature in a release, features and initiatives serving an objective: links read from both sides; the other pairs → 400 naming the allowed types', async () => {
    const { c, product, feature, sub, group, release, objective, keyResult, initiative, lines, link } = await setup();
    for (const [from, to] of [
      [feature, release],
      [release, sub],
      [objective, feature],
      [initiative, objective],
      [keyResult, product],
      [initiative, release],
    ]) {
      const res = await link(from!, to!);
      expect(res.status, res.text).toBe(201);
    }
    expect(await lines(release, '?type=link')).toEqual(
      [`link feature ${feature}`, `link initiative ${initiative}`, `link subfeature ${sub}`].sort((a, b) => a.split(' ')[2]!.localeCompare(b.split(' ')[2]!)),
    );
    expect(await lines(feature, '?type=link')).toEqual(expect.arrayContaining([`link release ${release}`, `link objective ${objective}`]));
    expect(await lines(objective, '?type=link&target[type]=initiative')).toEqual([`link initiative ${initiative}`]);
    const company = await c.entity('company');
    for (const [from, to, detail] of [
      [release, group, /Entity .* is a releaseGroup; a release has link relationships with a product, component, feature, subfeature or initiative only\./],
      [group, feature, /A releaseGroup has no link relationships\./],
      [release, objective, /is an objective; a release has link relationships/],
      [company, initiative, /A company has no link relationships/],
      [initiative, company, /is a company; an initiative has link relationships/],
    ] as const) {
      expectError(await link(from, to), 'request.invalid', { source: { pointer: '/data/target/id' }, detail });
    }
    expectError(await c.req('POST', `/entities/${feature}/relationships`, { data: { type: 'isBlockedBy', target: { id: release } } }), 'request.invalid', {
      source: { pointer: '/data/target/id' },
      detail: /a feature has isBlockedBy relationships with a product, component, feature or subfeature only/,
    });
    expectError(await link(feature, release), 'conflict.uniqueViolation');
    expect((await c.req('DELETE', `/entities/${release}/relationships/link/${feature}`)).status).toBe(204);
    expect(await lines(feature, '?type=link&target[type]=release')).toEqual([]);
  });

  it('they have no customer score (404, as anything but a product hierarchy entity) and take no note links', async () => {
    const { c, release, objective, keyResult, initiative, group } = await setup();
    for (const id of [release, objective, keyResult, initiative, group])
      expectError(await c.req('GET', `/entities/${id}/score`), 'resource.notFound', { detail: /No product hierarchy entity/ });
    expectError(
      await c.req('POST', '/notes', { data: { type: 'textNote', fields: { name: 'n' }, relationships: [{ type: 'link', target: { id: release } }] } }),
      'request.invalid',
      {
        source: { pointer: '/data/relationships/0/target/id' },
        detail: /is a release; a link targets a product, component, feature or subfeature/,
      },
    );
    expect((await c.ok('GET', '/notes')).json.data).toEqual([]);
    // Named in the route's path, the target is refused at its parameter, not in the (valid) body.
    const note = (await c.ok('POST', '/notes', { data: { type: 'textNote', fields: { name: 'n' } } })).json.data.id as string;
    expectError(await c.req('PUT', `/notes/${note}/relationships/link/${release}`, { data: { importance: 'critical' } }), 'request.invalid', {
      source: { parameter: 'entityId' },
      detail: `Entity ${release} is a release; a link targets a product, component, feature or subfeature.`,
    });
  });

  it("another workspace's planning entity is 404 on every route", async () => {
    const { release, objective } = await setup();
    const other = client(app, (await newWorkspace()).token);
    const mine = await other.entity('feature', await other.entity('product'));
    expectError(await other.req('GET', `/entities/${release}`), 'resource.notFound');
    expectError(await other.req('GET', `/entities/${release}/demand`), 'resource.notFound');
    expectError(await other.req('PATCH', `/entities/${objective}`, { data: { fields: { name: 'x' } } }), 'resource.notFound');
    expectError(await other.req('POST', `/entities/${mine}/relationships`, { data: { type: 'link', target: { id: release } } }), 'resource.notFound', {
      source: { pointer: '/data/target/id' },
    });
    expectError(await other.req('DELETE', `/entities/${release}`), 'resource.notFound');
  });
});

describe('planning entities: deletes', () => {
  it('a release group takes its releases; their links go on both sides; the linked features and their scores stay', async () => {
    const { c, feature, sub, group, release, lines, link } = await setup();
    await c.note({ links: [[feature, 'critical']] });
    const second = await c.entity('release', group);
    await link(feature, release);
    await link(sub, second);
    expect((await c.req('DELETE', `/entities/${group}`)).status).toBe(204);
    for (const id of [group, release, second]) expectError(await c.req('GET', `/entities/${id}`), 'resource.notFound');
    expect(await lines(feature)).toEqual([expect.stringMatching(/^parent product /), `child subfeature ${sub}`]);
    expect(await lines(sub, '?type=link')).toEqual([]);
    expect(await c.score(feature)).toBe(1);
    expect((await c.ok('GET', '/entities?type[]=release')).json.data).toEqual([]);
  });

  it('an objective takes its key results and nested objectives with their links; an initiative only its links', async () => {
    const { c, feature, objective, keyResult, initiative, lines, link } = await setup();
    const nested = await c.entity('objective', objective);
    const nestedKr = await c.entity('keyResult', nested);
    await link(keyResult, feature);
    await link(nestedKr, feature);
    await link(initiative, objective);
    await link(initiative, feature);
    expect((await c.req('DELETE', `/entities/${objective}`)).status).toBe(204);
    for (const id of [objective, keyResult, nested, nestedKr]) expectError(await c.req('GET', `/entities/${id}`), 'resource.notFound');
    expect(await lines(feature, '?type=link')).toEqual([`link initiative ${initiative}`]);
    expect(await lines(initiative, '?type=link')).toEqual([`link feature ${feature}`]);
    expect((await c.req('DELETE', `/entities/${initiative}`)).status).toBe(204);
    expect(await lines(feature, '?type=link')).toEqual([]);
    expect((await c.ok('GET', `/entities/${feature}`)).json.data.fields.name).toBe('Apple Pay');
  });

  it("deleting a linked feature removes the link from the release's side", async () => {
    const { c, feature, release, lines, link } = await setup();
    await link(release, feature);
    expect((await c.req('DELETE', `/entities/${feature}`)).status).toBe(204);
    expect(await lines(release, '?type=link')).toEqual([]);
  });
});
