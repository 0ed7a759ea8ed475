// Productboard's entities and customer-score operations, as its documents define them.
import { cursorOf, idsOf, reads, relationshipLine, relationshipLines, writes, type Check } from './check.ts';
import type { Probe } from './probe.ts';
import { PLANNED, type EntitySearch, type EntityType, type Seed, type World } from './world.ts';
import { seedEntities } from '../pagination/seed.ts';

const features = (s: Seed) => [s.e.applePay, s.e.googlePay, s.e.applePayRefunds, s.e.legacyBilling];

/** Product → Component → Feature, in a fresh world. */
async function smallTree(world: World, probe: Probe) {
  const product = await world.entity(probe, 'product', 'Product');
  const component = await world.entity(probe, 'component', 'Component', { parent: product });
  const feature = await world.entity(probe, 'feature', 'Feature', { parent: component });
  return { product, component, feature };
}

const listEntityChecks: Check[] = [
  reads('listEntities', 'lists every entity of the workspace', async ({ seed, probe }) => {
    const list = await probe.reply('listEntities', 200, seed.world.pb.entities.GET('/entities'));
    probe.same('entities', idsOf(list), Object.values(seed.e));
  }),
  reads('listEntities.type[]', 'type[]=feature lists the features only', async ({ seed, probe }) => {
    const list = await probe.reply('listEntities', 200, seed.world.pb.entities.GET('/entities', { params: { query: { 'type[]': ['feature'] } } }));
    probe.same('features', idsOf(list), features(seed));
  }),
  reads('listEntities.type[]-several', 'type[] repeated lists each type', async ({ seed, probe }) => {
    const list = await probe.reply('listEntities', 200, seed.world.pb.entities.GET('/entities', { params: { query: { 'type[]': ['product', 'component'] } } }));
    probe.same('products and components', idsOf(list), [seed.e.payments, seed.e.platform, seed.e.checkout, seed.e.wallets, seed.e.infra]);
  }),
  reads('listEntities.parent[id]', "type[]=feature&parent[id]=<component> lists exactly that component's features", async ({ seed, probe }) => {
    const list = await probe.reply(
      'listEntities',
      200,
      seed.world.pb.entities.GET('/entities', { params: { query: { 'type[]': ['feature'], 'parent[id]': seed.e.checkout } } }),
    );
    probe.same('features of Checkout', idsOf(list), [seed.e.applePay, seed.e.googlePay]);
  }),
  reads('listEntities.parent[id]-alone', 'parent[id] alone lists the children of any type', async ({ seed, probe }) => {
    const list = await probe.reply('listEntities', 200, seed.world.pb.entities.GET('/entities', { params: { query: { 'parent[id]': seed.e.applePay } } }));
    probe.same('children of Apple Pay', idsOf(list), [seed.e.applePayWatch]);
  }),
  reads('listEntities.name', 'name matches case-insensitively as a substring', async ({ seed, probe }) => {
    const list = await probe.reply(
      'listEntities',
      200,
      seed.world.pb.entities.GET('/entities', { params: { query: { 'type[]': ['feature'], name: 'APPLE pay' } } }),
    );
    probe.same('features named like "apple pay"', idsOf(list), [seed.e.applePay, seed.e.applePayRefunds]);
  }),
  reads('listEntities.owner[id]', 'owner[id] lists the entities that member owns', async ({ seed, probe }) => {
    const list = await probe.reply(
      'listEntities',
      200,
      seed.world.pb.entities.GET('/entities', { params: { query: { 'owner[id]': seed.world.workspace.admin.id } } }),
    );
    probe.same("admin's entities", idsOf(list), [seed.e.applePay]);
  }),
  reads('listEntities.owner[email]', 'owner[email] lists the entities that member owns', async ({ seed, probe }) => {
    const list = await probe.reply(
      'listEntities',
      200,
      seed.world.pb.entities.GET('/entities', { params: { query: { 'owner[email]': seed.maker.email.toUpperCase() } } }),
    );
    probe.same("maker's entities", idsOf(list), [seed.e.googlePay]);
  }),
  reads('listEntities.status[id]', 'status[id] lists the entities in that status', async ({ seed, probe }) => {
    const list = await probe.reply('listEntities', 200, seed.world.pb.entities.GET('/entities', { params: { query: { 'status[id]': PLANNED.id } } }));
    probe.same('planned entities', idsOf(list), [seed.e.applePay, seed.e.applePayRefunds]);
  }),
  reads('listEntities.status[name]', 'status[name] lists the entities in that status', async ({ seed, probe }) => {
    const list = await probe.reply('listEntities', 200, seed.world.pb.entities.GET('/entities', { params: { query: { 'status[name]': 'planned' } } }));
    probe.same('planned entities', idsOf(list), [seed.e.applePay, seed.e.applePayRefunds]);
  }),
  reads('listEntities.teams[id]', 'teams[id] lists the entities assigned to that team', async ({ seed, probe }) => {
    const list = await probe.reply('listEntities', 200, seed.world.pb.entities.GET('/entities', { params: { query: { 'teams[id]': seed.teams.payments } } }));
    probe.same("Payments team's entities", idsOf(list), [seed.e.applePay, seed.e.googlePay]);
    const idle = await probe.reply('listEntities', 200, seed.world.pb.entities.GET('/entities', { params: { query: { 'teams[id]': seed.teams.idle } } }));
    probe.same("Idle team's entities", idsOf(idle), []);
  }),
  reads('listEntities.teams[name]', 'teams[name] lists the entities assigned to the team of that name (any case)', async ({ seed, probe }) => {
    const list = await probe.reply(
      'listEntities',
      200,
      seed.world.pb.entities.GET('/entities', { params: { query: { 'type[]': ['feature'], 'teams[name]': 'payments TEAM' } } }),
    );
    probe.same("Payments team's features", idsOf(list), [seed.e.applePay, seed.e.googlePay]);
    const none = await probe.reply('listEntities', 200, seed.world.pb.entities.GET('/entities', { params: { query: { 'teams[name]': 'No such team' } } }));
    probe.same('entities of a team that does not exist', idsOf(none), []);
  }),
  reads('listEntities.archived', 'archived=true / archived=false split the entities by their archived field', async ({ seed, probe }) => {
    const archived = await probe.reply(
      'listEntities',
      200,
      seed.world.pb.entities.GET('/entities', { params: { query: { 'type[]': ['feature'], archived: true } } }),
    );
    probe.same('archived features', idsOf(archived), [seed.e.legacyBilling]);
    const live = await probe.reply(
      'listEntities',
      200,
      seed.world.pb.entities.GET('/entities', { params: { query: { 'type[]': ['feature'], archived: false } } }),
    );
    probe.same('features not archived', idsOf(live), [seed.e.applePay, seed.e.googlePay, seed.e.applePayRefunds]);
  }),
  writes('listEntities.metadata[source]', 'metadata[source][system] and metadata[source][recordId] match what create stored', async ({ world, probe }) => {
    const { component } = await smallTree(world, probe);
    const created = await probe.reply(
      'createEntity',
      201,
      world.pb.entities.POST('/entities', {
        body: {
          data: {
            type: 'feature',
            fields: { name: 'From Jira' },
            relationships: [{ type: 'parent', target: { id: component } }],
            metadata: { source: { system: 'jira', recordId: 'JIRA-7' } },
          },
        },
      }),
    );
    world.names.set(created.data!.id, 'From Jira');
    const bySystem = await probe.reply('listEntities', 200, world.pb.entities.GET('/entities', { params: { query: { 'metadata[source][system]': 'jira' } } }));
    probe.same('entities from jira', idsOf(bySystem), [created.data!.id]);
    const byRecord = await probe.reply(
      'listEntities',
      200,
      world.pb.entities.GET('/entities', { params: { query: { 'metadata[source][recordId]': 'JIRA-7' } } }),
    );
    probe.same('entities from JIRA-7', idsOf(byRecord), [created.data!.id]);
  }),
  reads('listEntities.fields[]', 'fields[]=name returns only the name of each record', async ({ seed, probe }) => {
    const list = await probe.reply(
      'listEntities',
      200,
      seed.world.pb.entities.GET('/entities', { params: { query: { 'type[]': ['feature'], 'fields[]': ['name'] } } }),
    );
    probe.equal('field names per record', [...new Set((list.data ?? []).map((e) => Object.keys(e.fields ?? {}).join(',')))], ['name']);
  }),
  reads(
    'listEntities.unknown-parameter',
    'a query parameter the operation does not define → 400 request.invalid with source.parameter',
    async ({ seed, probe }) => {
      // Productboard's types rightly refuse an undefined parameter: the cast is the point of this check.
      const query = { foo: 'bar' } as never;
      await probe.refusal(
        'listEntities',
        { status: 400, code: 'request.invalid', parameter: 'foo' },
        seed.world.pb.entities.GET('/entities', { params: { query } }),
      );
    },
  ),
  reads('listEntities.limit[]', 'limit[]=5 (not the limit extension) → 400 request.invalid with source.parameter', async ({ seed, probe }) => {
    const query = { 'limit[]': ['5'] } as never;
    await probe.refusal(
      'listEntities',
      { status: 400, code: 'request.invalid', parameter: 'limit[]' },
      seed.world.pb.entities.GET('/entities', { params: { query } }),
    );
  }),
  writes('listEntities.pagination', 'links.next carries a pageCursor; repeating the request with it walks every entity once', async ({ app, world, probe }) => {
    const product = await world.entity(probe, 'product', 'Product');
    const seeded = await seedEntities(world.workspace.workspaceId, 105, { parent: { id: product, type: 'product' } });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const query = { 'type[]': ['feature' as const], ...(cursor ? { pageCursor: cursor } : {}) };
      const page = await probe.reply('listEntities', 200, world.pb.entities.GET('/entities', { params: { query } }));
      pages++;
      seen.push(...idsOf(page));
      const next = page.links?.next;
      if (next && !next.startsWith(`${app.baseUrl}/entities?`)) probe.fail(`links.next is not an absolute URL of the list: ${next}`);
      cursor = cursorOf(next);
    } while (cursor && pages < 5);
    probe.equal('pages', pages, 2);
    probe.equal('entities walked', seen.length, seeded.length);
    probe.equal('distinct entities walked', new Set(seen).size, seeded.length);
  }),
];

const entityChecks: Check[] = [
  writes('createEntity', 'creates a feature under a component → 201 with a reference', async ({ world, probe }) => {
    const product = await world.entity(probe, 'product', 'Product');
    const component = await world.entity(probe, 'component', 'Component', { parent: product });
    const created = await probe.reply(
      'createEntity',
      201,
      world.pb.entities.POST('/entities', {
        body: { data: { type: 'feature', fields: { name: 'New feature' }, relationships: [{ type: 'parent', target: { id: component } }] } },
      }),
    );
    const id = created.data!.id;
    world.names.set(id, 'New feature');
    probe.equal('type', created.data!.type, 'feature');
    const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id } } }));
    probe.equal('relationships', relationshipLines(probe, got.data.relationships), ['parent Component']);
  }),
  writes('createEntity.owner-by-id', 'an owner given by member id → 201; the entity shows the owner with id and e-mail', async ({ world, probe }) => {
    const admin = world.workspace.admin;
    const product = await probe.reply(
      'createEntity',
      201,
      world.pb.entities.POST('/entities', { body: { data: { type: 'product', fields: { name: 'Owned', owner: { id: admin.id } } } } }),
    );
    const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: product.data!.id } } }));
    probe.equal('owner', got.data.fields?.owner, { id: admin.id, email: admin.email });
  }),
  writes('createEntity.status-by-id', 'a status given by id → 201; the entity shows id and name', async ({ world, probe }) => {
    const product = await probe.reply(
      'createEntity',
      201,
      world.pb.entities.POST('/entities', { body: { data: { type: 'product', fields: { name: 'Planned', status: { id: PLANNED.id } } } } }),
    );
    const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: product.data!.id } } }));
    probe.equal('status', got.data.fields?.status, PLANNED);
  }),
  writes('createEntity.metadata', 'metadata.source on create is stored and shown as metadata.source', async ({ world, probe }) => {
    const source = { system: 'jira', recordId: 'JIRA-7', url: 'https://jira.example.com/browse/JIRA-7' };
    const product = await probe.reply(
      'createEntity',
      201,
      world.pb.entities.POST('/entities', { body: { data: { type: 'product', fields: { name: 'Imported' }, metadata: { source } } } }),
    );
    const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: product.data!.id } } }));
    probe.equal('metadata', got.data.metadata, { source });
  }),
  writes('getEntity.user-redacted', "without users:pii:read, a user's name and e-mail read [redacted]; with it, in clear", async ({ world, probe }) => {
    const user = await world.entity(probe, 'user', 'Jane Customer', { fields: { email: 'jane@customer.example' } });
    const reader = await world.member('reader', { role: 'viewer', scopes: ['entities:read'] });
    const hidden = await probe.reply('getEntity', 200, reader.pb.entities.GET('/entities/{id}', { params: { path: { id: user } } }));
    probe.equal('without the scope', [hidden.data.fields?.name, hidden.data.fields?.email], ['[redacted]', '[redacted]']);
    const trusted = await world.member('trusted', { role: 'viewer', scopes: ['entities:read', 'users:pii:read'] });
    const shown = await probe.reply('getEntity', 200, trusted.pb.entities.GET('/entities/{id}', { params: { path: { id: user } } }));
    probe.equal('with the scope', [shown.data.fields?.name, shown.data.fields?.email], ['Jane Customer', 'jane@customer.example']);
  }),
  writes(
    'createEntity.metadata-url',
    "metadata.source.url is held to Productboard's 1024 characters: one of 1024 is stored and read back, one of 1025 → 400 at it",
    async ({ world, probe }) => {
      const base = 'https://jira.example.com/browse/';
      const url = `${base}${'x'.repeat(1024 - base.length)}`;
      const product = await probe.reply(
        'createEntity',
        201,
        world.pb.entities.POST('/entities', { body: { data: { type: 'product', fields: { name: 'Imported' }, metadata: { source: { url } } } } }),
      );
      const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: product.data!.id } } }));
      probe.equal('metadata', got.data.metadata, { source: { url } });
      await probe.refusal(
        'createEntity',
        { status: 400, code: 'request.invalid', pointer: '/data/metadata/source/url' },
        world.pb.entities.POST('/entities', { body: { data: { type: 'product', fields: { name: 'Imported' }, metadata: { source: { url: `${url}x` } } } } }),
      );
    },
  ),
  writes(
    'createEntity.timeframe',
    "a timeframe reads back with Productboard's granularities: none when none was given, one of year/quarter/month/day when given; another → 400",
    async ({ world, probe }) => {
      const timeframes = [
        { startDate: '2026-01-01', endDate: '2026-12-31' },
        { startDate: '2026-01-01', endDate: '2026-03-31', granularity: 'quarter' as const },
      ];
      for (const timeframe of timeframes) {
        const created = await probe.reply(
          'createEntity',
          201,
          world.pb.entities.POST('/entities', { body: { data: { type: 'initiative', fields: { name: 'Planned work', timeframe } } } }),
        );
        const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: created.data!.id } } }));
        probe.equal(`timeframe ${timeframe.granularity ?? 'without granularity'}`, got.data.fields?.timeframe, timeframe);
      }
      // 'week' is outside Productboard's enum, so outside the generated type: cast on purpose.
      await probe.refusal(
        'createEntity',
        { status: 400, code: 'request.invalid', pointer: '/data/fields/timeframe/granularity' },
        world.pb.entities.POST('/entities', {
          body: {
            data: {
              type: 'initiative',
              fields: { name: 'Weekly', timeframe: { startDate: '2026-01-05', endDate: '2026-01-11', granularity: 'week' as 'day' } },
            },
          },
        }),
      );
    },
  ),
  reads('getEntity', 'retrieves a feature: its non-empty fields and its relationships', async ({ seed, probe }) => {
    const got = await probe.reply('getEntity', 200, seed.world.pb.entities.GET('/entities/{id}', { params: { path: { id: seed.e.applePay } } }));
    const admin = seed.world.workspace.admin;
    const tags = await seed.world.tagIds(probe);
    probe.equal('fields', got.data.fields, {
      name: 'Apple Pay',
      status: PLANNED,
      owner: { id: admin.id, email: admin.email },
      tags: [{ id: tags.get('mobile'), name: 'mobile' }],
      teams: [{ id: seed.teams.payments, name: 'Payments team' }],
      archived: false,
    });
    probe.equal('relationships', relationshipLines(probe, got.data.relationships), ['child Apple Pay on watch', 'parent Checkout']);
  }),
  reads('getEntity.fields[]', 'fields[]=name returns only the name', async ({ seed, probe }) => {
    const got = await probe.reply(
      'getEntity',
      200,
      seed.world.pb.entities.GET('/entities/{id}', { params: { path: { id: seed.e.applePay }, query: { 'fields[]': ['name'] } } }),
    );
    probe.equal('fields', got.data.fields, { name: 'Apple Pay' });
  }),
  reads('getEntity.fields[]=all', 'fields[]=all returns every configured field, empty ones as null', async ({ seed, probe }) => {
    const got = await probe.reply(
      'getEntity',
      200,
      seed.world.pb.entities.GET('/entities/{id}', { params: { path: { id: seed.e.applePayRefunds }, query: { 'fields[]': ['all'] } } }),
    );
    const fields = got.data.fields ?? {};
    probe.equal(
      'fields with a value',
      Object.keys(fields)
        .filter((k) => fields[k] !== null)
        .sort(),
      ['archived', 'name', 'status'],
    );
    probe.equal('has the empty description as null', fields.description, null);
    probe.equal('reads archived, never set, as false', fields.archived, false);
  }),
  reads('getEntity.unknown', "another workspace's or no entity → 404 resource.notFound", async ({ seed, probe }) => {
    await probe.refusal(
      'getEntity',
      { status: 404, code: 'resource.notFound' },
      seed.world.pb.entities.GET('/entities/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } }),
    );
  }),
  writes('updateEntity', 'PATCH data.fields replaces the values → 200 with a reference', async ({ world, probe }) => {
    const { feature } = await smallTree(world, probe);
    await probe.reply(
      'updateEntity',
      200,
      world.pb.entities.PATCH('/entities/{id}', { params: { path: { id: feature } }, body: { data: { fields: { name: 'Renamed' } } } }),
    );
    const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: feature } } }));
    probe.equal('name', got.data.fields?.name, 'Renamed');
  }),
  writes('updateEntity.patch-set', 'PATCH data.patch set replaces a value', async ({ world, probe }) => {
    const { feature } = await smallTree(world, probe);
    await probe.reply(
      'updateEntity',
      200,
      world.pb.entities.PATCH('/entities/{id}', {
        params: { path: { id: feature } },
        body: { data: { patch: [{ op: 'set', path: 'name', value: 'Renamed' }] } },
      }),
    );
    const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: feature } } }));
    probe.equal('name', got.data.fields?.name, 'Renamed');
  }),
  writes('updateEntity.patch-items', 'PATCH data.patch addItems and removeItems change a list field item by item', async ({ world, probe }) => {
    const product = await world.entity(probe, 'product', 'Tagged', { fields: { tags: [{ name: 'a' }, { name: 'b' }] } });
    await probe.reply(
      'updateEntity',
      200,
      world.pb.entities.PATCH('/entities/{id}', {
        params: { path: { id: product } },
        body: {
          data: {
            patch: [
              { op: 'addItems', path: 'tags', value: [{ name: 'c' }] },
              { op: 'removeItems', path: 'tags', value: [{ name: 'a' }] },
            ],
          },
        },
      }),
    );
    const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: product } } }));
    const tags = await world.tagIds(probe);
    probe.equal('tags', got.data.fields?.tags, [
      { id: tags.get('b'), name: 'b' },
      { id: tags.get('c'), name: 'c' },
    ]);
  }),
  writes('updateEntity.patch-clear', 'PATCH data.patch clear erases a value', async ({ world, probe }) => {
    const product = await world.entity(probe, 'product', 'Owned', { fields: { owner: { email: world.workspace.admin.email } } });
    await probe.reply(
      'updateEntity',
      200,
      world.pb.entities.PATCH('/entities/{id}', { params: { path: { id: product } }, body: { data: { patch: [{ op: 'clear', path: 'owner' }] } } }),
    );
    const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: product } } }));
    probe.equal('owner', got.data.fields?.owner, undefined);
  }),
  writes(
    'updateEntity.patch-parts',
    "PATCH data.patch names a timeframe's parts by Productboard's nested ids; clearing a date alone → 400 (a timeframe has both dates)",
    async ({ world, probe }) => {
      const timeframe = { startDate: '2026-01-01', endDate: '2026-03-31', granularity: 'quarter' as const };
      const initiative = await world.entity(probe, 'initiative', 'Planned work', { fields: { timeframe } });
      await probe.reply(
        'updateEntity',
        200,
        world.pb.entities.PATCH('/entities/{id}', {
          params: { path: { id: initiative } },
          body: {
            data: {
              patch: [
                { op: 'set', path: 'timeframe.endDate', value: '2026-06-30' },
                { op: 'clear', path: 'timeframe.granularity' },
              ],
            },
          },
        }),
      );
      const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: initiative } } }));
      probe.equal('timeframe', got.data.fields?.timeframe, { startDate: '2026-01-01', endDate: '2026-06-30' });
      await probe.refusal(
        'updateEntity',
        { status: 400, code: 'request.invalid', pointer: '/data/patch/0/path' },
        world.pb.entities.PATCH('/entities/{id}', {
          params: { path: { id: initiative } },
          body: { data: { patch: [{ op: 'clear', path: 'timeframe.startDate' }] } },
        }),
      );
    },
  ),
  writes('updateEntity.fields-and-patch', 'PATCH with both data.fields and data.patch → 400 request.invalid, nothing changed', async ({ world, probe }) => {
    const product = await world.entity(probe, 'product', 'Product');
    await probe.refusal(
      'updateEntity',
      { status: 400, code: 'request.invalid' },
      world.pb.entities.PATCH('/entities/{id}', {
        params: { path: { id: product } },
        body: { data: { fields: { name: 'A' }, patch: [{ op: 'set', path: 'name', value: 'B' }] } },
      }),
    );
    const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: product } } }));
    probe.equal('name', got.data.fields?.name, 'Product');
  }),
  writes('updateEntity.metadata', 'PATCH data.metadata.source sets the source (merge-patch per field)', async ({ world, probe }) => {
    const product = await world.entity(probe, 'product', 'Product');
    await probe.reply(
      'updateEntity',
      200,
      world.pb.entities.PATCH('/entities/{id}', {
        params: { path: { id: product } },
        body: { data: { metadata: { source: { system: 'jira', recordId: 'JIRA-8' } } } },
      }),
    );
    const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: product } } }));
    probe.equal('metadata', got.data.metadata, { source: { system: 'jira', recordId: 'JIRA-8' } });
  }),
  writes('deleteEntity', 'DELETE → 204; the entity and its children are gone (404)', async ({ world, probe }) => {
    const { component, feature } = await smallTree(world, probe);
    await probe.reply('deleteEntity', 204, world.pb.entities.DELETE('/entities/{id}', { params: { path: { id: component } } }));
    await probe.refusal(
      'getEntity',
      { status: 404, code: 'resource.notFound' },
      world.pb.entities.GET('/entities/{id}', { params: { path: { id: component } } }),
    );
    await probe.refusal(
      'getEntity',
      { status: 404, code: 'resource.notFound' },
      world.pb.entities.GET('/entities/{id}', { params: { path: { id: feature } } }),
    );
  }),
];

/** Productboard's search body, typed by its document. */
const search = (seed: Seed, data: EntitySearch) => seed.world.pb.entities.POST('/entities/search', { body: { data } });
/**
 * Productboard's standard field filters. openapi-typescript renders them and the custom-field
 * filters (additionalProperties) as one object type whose index signature the standard ones
 * cannot satisfy, so a field filter must be cast: a limit of the generated client, not of the API.
 */
const fieldFilters = (filters: Record<string, unknown>) => filters as never;
/** A body outside Productboard's type (the specification's, or a wrong one): the cast is the point. */
const searchUntyped = (seed: Seed, body: unknown) => seed.world.pb.entities.POST('/entities/search', { body: body as never });

const searchChecks: Check[] = [
  reads('performEntitiesSearch.spec-body', "the service specification's body {data: {types}} lists those types", async ({ seed, probe }) => {
    const list = await probe.reply('performEntitiesSearch', 200, searchUntyped(seed, { data: { types: ['feature'] } }));
    probe.same('features', idsOf(list), features(seed));
  }),
  reads('performEntitiesSearch.filter-type', 'filter.type lists those types', async ({ seed, probe }) => {
    const list = await probe.reply('performEntitiesSearch', 200, search(seed, { filter: { type: ['feature'] } }));
    probe.same('features', idsOf(list), features(seed));
  }),
  reads('performEntitiesSearch.filter-parent', 'filter.relationships.parent lists the children of those entities', async ({ seed, probe }) => {
    const list = await probe.reply(
      'performEntitiesSearch',
      200,
      search(seed, { filter: { type: ['feature'], relationships: { parent: [{ id: seed.e.checkout }] } } }),
    );
    probe.same('features of Checkout', idsOf(list), [seed.e.applePay, seed.e.googlePay]);
  }),
  reads('performEntitiesSearch.filter-name', 'filter.fields.name matches case-insensitively as a substring', async ({ seed, probe }) => {
    const list = await probe.reply('performEntitiesSearch', 200, search(seed, { filter: { type: ['feature'], fields: fieldFilters({ name: 'apple PAY' }) } }));
    probe.same('features named like "apple pay"', idsOf(list), [seed.e.applePay, seed.e.applePayRefunds]);
  }),
  reads('performEntitiesSearch.filter-owner', 'filter.fields.owner by e-mail', async ({ seed, probe }) => {
    const list = await probe.reply(
      'performEntitiesSearch',
      200,
      search(seed, { filter: { type: ['feature'], fields: fieldFilters({ owner: [{ email: seed.world.workspace.admin.email }] }) } }),
    );
    probe.same("admin's features", idsOf(list), [seed.e.applePay]);
  }),
  reads('performEntitiesSearch.filter-status', 'filter.fields.status by name', async ({ seed, probe }) => {
    const list = await probe.reply(
      'performEntitiesSearch',
      200,
      search(seed, { filter: { type: ['feature'], fields: fieldFilters({ status: [{ name: 'Planned' }] }) } }),
    );
    probe.same('planned features', idsOf(list), [seed.e.applePay, seed.e.applePayRefunds]);
  }),
  reads(
    'performEntitiesSearch.filter-status-unknown',
    "filter.fields.status alternatives, one naming no status (as in Productboard's structured_filter example): that one matches nothing",
    async ({ seed, probe }) => {
      const list = await probe.reply(
        'performEntitiesSearch',
        200,
        search(seed, { filter: { type: ['feature'], fields: fieldFilters({ status: [{ name: 'Planned' }, { name: 'At Risk' }] }) } }),
      );
      probe.same('planned features', idsOf(list), [seed.e.applePay, seed.e.applePayRefunds]);
    },
  ),
  reads('performEntitiesSearch.filter-archived', 'filter.fields.archived', async ({ seed, probe }) => {
    const list = await probe.reply('performEntitiesSearch', 200, search(seed, { filter: { type: ['feature'], fields: fieldFilters({ archived: true }) } }));
    probe.same('archived features', idsOf(list), [seed.e.legacyBilling]);
  }),
  reads('performEntitiesSearch.filter-id', 'filter.id lists those entities', async ({ seed, probe }) => {
    const list = await probe.reply('performEntitiesSearch', 200, search(seed, { filter: { type: ['feature'], id: [seed.e.applePay, seed.e.googlePay] } }));
    probe.same('by id', idsOf(list), [seed.e.applePay, seed.e.googlePay]);
  }),
  reads('performEntitiesSearch.filter-createdAt', 'filter.createdAt.from lists what was created at or after it', async ({ seed, probe }) => {
    const from = seed.createdAt.get(seed.e.applePayRefunds)!;
    const list = await probe.reply('performEntitiesSearch', 200, search(seed, { filter: { type: ['feature'], createdAt: { from } } }));
    probe.same(
      'features created since apple pay refunds',
      idsOf(list),
      features(seed).filter((id) => seed.createdAt.get(id)! >= from),
    );
  }),
  reads('performEntitiesSearch.return-fields', 'return.fields selects the fields of each record', async ({ seed, probe }) => {
    const list = await probe.reply('performEntitiesSearch', 200, search(seed, { filter: { type: ['feature'] }, return: { fields: ['name'] } }));
    probe.equal('field names per record', [...new Set((list.data ?? []).map((e) => Object.keys(e.fields ?? {}).join(',')))], ['name']);
  }),
  reads(
    'performEntitiesSearch.mixed-body',
    "a body mixing the specification's types with Productboard's filter → 400 request.invalid",
    async ({ seed, probe }) => {
      await probe.refusal(
        'performEntitiesSearch',
        { status: 400, code: 'request.invalid' },
        searchUntyped(seed, { data: { types: ['feature'], filter: { type: ['feature'] } } }),
      );
    },
  ),
];

const relationshipChecks: Check[] = [
  reads('listEntityRelationships', "lists an entity's parent and children", async ({ seed, probe }) => {
    const list = await probe.reply(
      'listEntityRelationships',
      200,
      seed.world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id: seed.e.applePay } } }),
    );
    probe.equal('relationships', relationshipLines(probe, list), ['child Apple Pay on watch', 'parent Checkout']);
  }),
  reads('listEntityRelationships.type', 'type=child keeps the children', async ({ seed, probe }) => {
    const list = await probe.reply(
      'listEntityRelationships',
      200,
      seed.world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id: seed.e.applePay }, query: { type: 'child' } } }),
    );
    probe.equal('relationships', relationshipLines(probe, list), ['child Apple Pay on watch']);
  }),
  reads('listEntityRelationships.target[type]', 'target[type] keeps the relationships to entities of that type', async ({ seed, probe }) => {
    const list = await probe.reply(
      'listEntityRelationships',
      200,
      seed.world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id: seed.e.checkout }, query: { 'target[type]': 'feature' } } }),
    );
    probe.equal('relationships', relationshipLines(probe, list), ['child Apple Pay', 'child Google Pay']);
  }),
  reads('listEntityRelationships.target[id]', 'target[id] keeps the relationships to that entity', async ({ seed, probe }) => {
    const list = await probe.reply(
      'listEntityRelationships',
      200,
      seed.world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id: seed.e.applePay }, query: { 'target[id]': seed.e.checkout } } }),
    );
    probe.equal('relationships', relationshipLines(probe, list), ['parent Checkout']);
  }),
  writes(
    'listEntityRelationships.pagination',
    "an entity's relationships attribute holds 20 and links.next to the relationship list, which pages on",
    async ({ world, probe }) => {
      const product = await world.entity(probe, 'product', 'Product');
      const children = await seedEntities(world.workspace.workspaceId, 25, { type: 'component', parent: { id: product, type: 'product' } });
      const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id: product } } }));
      const inline = got.data.relationships;
      probe.equal('inline relationships', inline?.data?.length, 20);
      const seen = (inline?.data ?? []).map((r) => String(r.target?.id));
      let cursor = cursorOf(inline?.links?.next);
      if (!inline?.links?.next?.startsWith(`${world.app.baseUrl}/entities/${product}/relationships?`))
        probe.fail(`relationships.links.next does not point at the relationship list: ${inline?.links?.next}`);
      while (cursor) {
        const page = await probe.reply(
          'listEntityRelationships',
          200,
          world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id: product }, query: { pageCursor: cursor } } }),
        );
        seen.push(...(page.data ?? []).map((r) => String(r.target?.id)));
        cursor = cursorOf(page.links?.next);
      }
      probe.equal('children walked', [...new Set(seen)].length, children.length);
    },
  ),
  writes('createEntityRelationship.link', 'type link relates two features both ways (no effect on the score)', async ({ world, probe }) => {
    const { component, feature } = await smallTree(world, probe);
    const other = await world.entity(probe, 'feature', 'Other', { parent: component });
    const created = await probe.reply(
      'createEntityRelationship',
      201,
      world.pb.entities.POST('/entities/{id}/relationships', { params: { path: { id: feature } }, body: { data: { type: 'link', target: { id: other } } } }),
    );
    probe.equal('created', relationshipLine(probe, created.data), 'link Other');
    const mine = await probe.reply(
      'listEntityRelationships',
      200,
      world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id: feature }, query: { type: 'link' } } }),
    );
    probe.equal("Feature's links", relationshipLines(probe, mine), ['link Other']);
    const theirs = await probe.reply(
      'listEntityRelationships',
      200,
      world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id: other }, query: { type: 'link' } } }),
    );
    probe.equal("Other's links", relationshipLines(probe, theirs), ['link Feature']);
  }),
  writes('createEntityRelationship.isBlockedBy', 'type isBlockedBy shows as isBlocking from the target', async ({ world, probe }) => {
    const { component, feature } = await smallTree(world, probe);
    const blocker = await world.entity(probe, 'feature', 'Blocker', { parent: component });
    await probe.reply(
      'createEntityRelationship',
      201,
      world.pb.entities.POST('/entities/{id}/relationships', {
        params: { path: { id: feature } },
        body: { data: { type: 'isBlockedBy', target: { id: blocker } } },
      }),
    );
    const theirs = await probe.reply(
      'listEntityRelationships',
      200,
      world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id: blocker }, query: { type: 'isBlocking' } } }),
    );
    probe.equal("Blocker's relationships", relationshipLines(probe, theirs), ['isBlocking Feature']);
  }),
  writes('createEntityRelationship.parent', 'type parent moves the entity (and the score follows)', async ({ world, probe }) => {
    const { component, feature } = await smallTree(world, probe);
    const other = await world.entity(probe, 'feature', 'Other', { parent: component });
    const sub = await world.entity(probe, 'subfeature', 'Sub', { parent: feature });
    await world.note(probe, 'Feedback', { links: [sub] });
    await probe.reply(
      'createEntityRelationship',
      201,
      world.pb.entities.POST('/entities/{id}/relationships', { params: { path: { id: sub } }, body: { data: { type: 'parent', target: { id: other } } } }),
    );
    const moved = await probe.reply('getCustomerScore', 200, world.pb.scores.GET('/entities/{id}/score', { params: { path: { id: other } } }));
    const left = await probe.reply('getCustomerScore', 200, world.pb.scores.GET('/entities/{id}/score', { params: { path: { id: feature } } }));
    probe.equal('scores of Other and Feature', [moved.data.fields.score, left.data.fields.score], [1, 0]);
  }),
  writes('createEntityRelationship.child', 'type child moves the target under the entity', async ({ world, probe }) => {
    const { product, feature } = await smallTree(world, probe);
    const other = await world.entity(probe, 'component', 'Other component', { parent: product });
    await probe.reply(
      'createEntityRelationship',
      201,
      world.pb.entities.POST('/entities/{id}/relationships', { params: { path: { id: other } }, body: { data: { type: 'child', target: { id: feature } } } }),
    );
    const list = await probe.reply(
      'listEntityRelationships',
      200,
      world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id: feature }, query: { type: 'parent' } } }),
    );
    probe.equal("Feature's parent", relationshipLines(probe, list), ['parent Other component']);
  }),
  writes('createEntityRelationship.invalid-parent', 'a parent the hierarchy rules refuse → 400 request.invalid', async ({ world, probe }) => {
    const { feature } = await smallTree(world, probe);
    const sub = await world.entity(probe, 'subfeature', 'Sub', { parent: feature });
    await probe.refusal(
      'createEntityRelationship',
      { status: 400, code: 'request.invalid' },
      world.pb.entities.POST('/entities/{id}/relationships', { params: { path: { id: feature } }, body: { data: { type: 'parent', target: { id: sub } } } }),
    );
  }),
  writes('replaceEntityRelationship', 'PUT parent moves the entity → 200 with the relationship', async ({ world, probe }) => {
    const { product, feature } = await smallTree(world, probe);
    const other = await world.entity(probe, 'component', 'Other component', { parent: product });
    const replaced = await probe.reply(
      'replaceEntityRelationship',
      200,
      world.pb.entities.PUT('/entities/{id}/relationships/parent', { params: { path: { id: feature } }, body: { data: { target: { id: other } } } }),
    );
    probe.equal('relationship', relationshipLine(probe, replaced.data), 'parent Other component');
  }),
  writes('deleteEntityRelationship.link', 'DELETE …/relationships/link/{targetId} → 204; the link is gone', async ({ world, probe }) => {
    const { component, feature } = await smallTree(world, probe);
    const other = await world.entity(probe, 'feature', 'Other', { parent: component });
    await probe.setup(
      'createEntityRelationship',
      201,
      world.pb.entities.POST('/entities/{id}/relationships', { params: { path: { id: feature } }, body: { data: { type: 'link', target: { id: other } } } }),
    );
    await probe.reply(
      'deleteEntityRelationship',
      204,
      world.pb.entities.DELETE('/entities/{id}/relationships/{type}/{targetId}', { params: { path: { id: feature, type: 'link', targetId: other } } }),
    );
    const list = await probe.reply(
      'listEntityRelationships',
      200,
      world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id: feature }, query: { type: 'link' } } }),
    );
    probe.equal('links', relationshipLines(probe, list), []);
  }),
  writes('deleteEntityRelationship.required-parent', 'deleting a parent the hierarchy rules require → 400 request.invalid', async ({ world, probe }) => {
    const { component, feature } = await smallTree(world, probe);
    await probe.refusal(
      'deleteEntityRelationship',
      { status: 400, code: 'request.invalid' },
      world.pb.entities.DELETE('/entities/{id}/relationships/{type}/{targetId}', { params: { path: { id: feature, type: 'parent', targetId: component } } }),
    );
  }),
];

/** A configuration's relationships as `<type> <targetTypes, sorted> <cardinality>[ mandatory]` lines. */
const relationshipConfigLines = (relationships: Record<string, { targetType?: string[]; cardinality?: string; mandatory?: boolean }> | undefined) =>
  Object.entries(relationships ?? {})
    .map(([type, r]) => `${type} ${[...(r.targetType ?? [])].sort().join(',')} ${r.cardinality}${r.mandatory ? ' mandatory' : ''}`)
    .sort();

/** Target types, as relationshipConfigLines lists them (sorted). */
const targets = (...types: string[]) => [...types].sort().join(',');
const HIERARCHY = ['product', 'component', 'feature', 'subfeature'];

const configurationChecks: Check[] = [
  reads(
    'listEntityConfigurations',
    'lists a configuration per entity type we serve (the product hierarchy, planning entities and customers)',
    async ({ seed, probe }) => {
      const list = await probe.reply('listEntityConfigurations', 200, seed.world.pb.entities.GET('/entities/configurations'));
      probe.equal('types', (list.data ?? []).map((c) => c.type).sort(), [
        'company',
        'component',
        'feature',
        'initiative',
        'keyResult',
        'objective',
        'product',
        'release',
        'releaseGroup',
        'subfeature',
        'user',
      ]);
    },
  ),
  reads('listEntityConfigurations.type[]', 'type[] keeps those types', async ({ seed, probe }) => {
    const list = await probe.reply(
      'listEntityConfigurations',
      200,
      seed.world.pb.entities.GET('/entities/configurations', { params: { query: { 'type[]': ['feature', 'release'] } } }),
    );
    probe.equal('types', (list.data ?? []).map((c) => c.type).sort(), ['feature', 'release']);
  }),
  reads(
    'getEntityConfiguration',
    "a type's configuration: every field with its id, name, path /fields/<id> and schema; its relationships with their target types",
    async ({ seed, probe }) => {
      const got = await probe.reply(
        'getEntityConfiguration',
        200,
        seed.world.pb.entities.GET('/entities/configurations/{type}', { params: { path: { type: 'feature' } } }),
      );
      const fields = Object.values(got.data?.fields ?? {});
      probe.equal(
        'fields whose path is not /fields/<id>',
        fields.filter((f) => f.path !== `/fields/${f.id}`).map((f) => f.id),
        [],
      );
      probe.equal('relationships', relationshipConfigLines(got.data?.relationships), [
        `child subfeature multiple`,
        `isBlockedBy ${targets(...HIERARCHY)} multiple`,
        `isBlocking ${targets(...HIERARCHY)} multiple`,
        `link ${targets(...HIERARCHY, 'initiative', 'keyResult', 'objective', 'release')} multiple`,
        `parent component,product single mandatory`,
      ]);
    },
  ),
  reads(
    'getEntityConfiguration.planning',
    'the planning types: a release in a release group, a key result in an objective, each linked to the product hierarchy',
    async ({ seed, probe }) => {
      const planning = ['name', 'description', 'status', 'owner', 'tags', 'teams', 'timeframe', 'archived'];
      const expected = {
        release: {
          fields: ['name', 'description', 'status', 'timeframe', 'archived'],
          relationships: ['link component,feature,initiative,product,subfeature multiple', 'parent releaseGroup single mandatory'],
        },
        releaseGroup: { fields: ['name', 'description', 'archived'], relationships: ['child release multiple'] },
        objective: {
          fields: planning,
          relationships: ['child keyResult,objective multiple', 'link component,feature,initiative,product,subfeature multiple', 'parent objective single'],
        },
        keyResult: { fields: planning, relationships: ['link component,feature,initiative,product,subfeature multiple', 'parent objective single mandatory'] },
        initiative: { fields: planning, relationships: [`link ${targets(...HIERARCHY, 'keyResult', 'objective', 'release')} multiple`] },
      } as const;
      for (const [type, want] of Object.entries(expected)) {
        const got = await probe.reply(
          'getEntityConfiguration',
          200,
          seed.world.pb.entities.GET('/entities/configurations/{type}', { params: { path: { type: type as EntityType } } }),
        );
        probe.equal(`${type} relationships`, relationshipConfigLines(got.data?.relationships), want.relationships);
        // Standard fields first, in response order; the seed workspace has no custom fields.
        probe.equal(`${type} fields`, Object.keys(got.data?.fields ?? {}), want.fields);
      }
    },
  ),
];

const scoreChecks: Check[] = [
  reads('getCustomerScore', 'the score of a component sums its subtree (one rating and one anonymous link → 2)', async ({ seed, probe }) => {
    const got = await probe.reply('getCustomerScore', 200, seed.world.pb.scores.GET('/entities/{id}/score', { params: { path: { id: seed.e.checkout } } }));
    probe.equal('score', got.data.fields.score, 2);
    probe.equal('self', got.data.links.self, `${seed.world.app.baseUrl}/entities/${seed.e.checkout}/score`);
  }),
  reads('getCustomerScore.not-hierarchy', 'a company is not scored → 404 resource.notFound', async ({ seed, probe }) => {
    await probe.refusal(
      'getCustomerScore',
      { status: 404, code: 'resource.notFound' },
      seed.world.pb.scores.GET('/entities/{id}/score', { params: { path: { id: seed.e.acme } } }),
    );
  }),
];

export const ENTITY_CHECKS: Check[] = [...listEntityChecks, ...entityChecks, ...searchChecks, ...relationshipChecks, ...configurationChecks, ...scoreChecks];
