// Planning entities (release groups, releases, objectives, key results, initiatives) made and
// linked through Productboard's operations, and the customer demand behind them, which is our
// extension (GET /v2/entities/{id}/demand, docs/compatibility.md): called plainly, held to our own document.
import { idsOf, relationshipLines, writes, type Check } from './check.ts';
import type { Probe } from './probe.ts';
import type { World } from './world.ts';

interface Demand {
  demand: number;
  linkedEntities: number;
  countedEntities: number;
}

/** Links `from` to `to` through createEntityRelationship, type link (Productboard's shape). */
async function link(world: World, probe: Probe, from: string, to: string): Promise<void> {
  await probe.reply(
    'createEntityRelationship',
    201,
    world.pb.entities.POST('/entities/{id}/relationships', { params: { path: { id: from } }, body: { data: { type: 'link', target: { id: to } } } }),
  );
}

/** The demand behind a planning entity (our extension), without pointInTime. */
async function demandOf(world: World, probe: Probe, id: string): Promise<Demand> {
  const got = await probe.extension('getCustomerDemand', 200, world.ours('GET', `/entities/${id}/demand`));
  const { demand, linkedEntities, countedEntities } = got.data.fields as Demand;
  return { demand, linkedEntities, countedEntities };
}

async function scoreOf(world: World, probe: Probe, id: string): Promise<number> {
  const got = await probe.reply('getCustomerScore', 200, world.pb.scores.GET('/entities/{id}/score', { params: { path: { id } } }));
  return got.data.fields.score;
}

/**
 * Product → Component → Apple Pay (feature) → Apple Pay on the web (subfeature), and Google Pay
 * (feature); notes of Acme on Apple Pay, of Globex on the subfeature, and an anonymous one on
 * Google Pay (each of weight 1: scores Apple Pay 2, the subfeature 1, Google Pay 1). Planning: the
 * release Spring in the group 2025, the objective Grow with the key result Retain, the initiative Wallets.
 */
async function planning(world: World, probe: Probe) {
  const product = await world.entity(probe, 'product', 'Product');
  const component = await world.entity(probe, 'component', 'Component', { parent: product });
  const applePay = await world.entity(probe, 'feature', 'Apple Pay', { parent: component });
  const applePayWeb = await world.entity(probe, 'subfeature', 'Apple Pay on the web', { parent: applePay });
  const googlePay = await world.entity(probe, 'feature', 'Google Pay', { parent: component });
  const acme = await world.entity(probe, 'company', 'Acme');
  const globex = await world.entity(probe, 'company', 'Globex');
  await world.note(probe, 'Acme wants Apple Pay', { customer: { id: acme, type: 'company' }, links: [applePay] });
  const globexNote = await world.note(probe, 'Globex wants it on the web', { customer: { id: globex, type: 'company' }, links: [applePayWeb] });
  await world.note(probe, 'Google Pay please', { links: [googlePay] });
  const group = await world.entity(probe, 'releaseGroup', '2025');
  const release = await world.entity(probe, 'release', 'Spring', { parent: group });
  const objective = await world.entity(probe, 'objective', 'Grow');
  const keyResult = await world.entity(probe, 'keyResult', 'Retain', { parent: objective });
  const initiative = await world.entity(probe, 'initiative', 'Wallets');
  return { product, component, applePay, applePayWeb, googlePay, acme, globex, globexNote, group, release, objective, keyResult, initiative };
}

/** The release linked to Apple Pay, to the subfeature (from the subfeature's side) and to Google Pay. */
async function linkedRelease(world: World, probe: Probe) {
  const p = await planning(world, probe);
  await link(world, probe, p.release, p.applePay);
  await link(world, probe, p.applePayWeb, p.release);
  await link(world, probe, p.release, p.googlePay);
  return p;
}

export const PLANNING_CHECKS: Check[] = [
  writes(
    'createEntity.planning',
    'a release is made in its release group and a key result under its objective; their relationships say so',
    async ({ world, probe }) => {
      const p = await planning(world, probe);
      const relationships = async (id: string) =>
        relationshipLines(
          probe,
          await probe.reply('listEntityRelationships', 200, world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id } } })),
        );
      probe.equal("Spring's relationships", await relationships(p.release), ['parent 2025']);
      probe.equal("2025's relationships", await relationships(p.group), ['child Spring']);
      probe.equal("Retain's relationships", await relationships(p.keyResult), ['parent Grow']);
    },
  ),
  writes('createEntityRelationship.link-planning', 'type link relates a release and features both ways, from either side', async ({ world, probe }) => {
    const p = await linkedRelease(world, probe);
    const links = async (id: string) =>
      relationshipLines(
        probe,
        await probe.reply(
          'listEntityRelationships',
          200,
          world.pb.entities.GET('/entities/{id}/relationships', { params: { path: { id }, query: { type: 'link' } } }),
        ),
      );
    probe.equal("Spring's links", await links(p.release), ['link Apple Pay', 'link Apple Pay on the web', 'link Google Pay']);
    probe.equal("Apple Pay's links", await links(p.applePay), ['link Spring']);
  }),
  writes(
    'listEntities.type[]-release',
    'type[]=release lists exactly the releases (not their group, nor other planning entities)',
    async ({ world, probe }) => {
      const p = await planning(world, probe);
      const autumn = await world.entity(probe, 'release', 'Autumn', { parent: p.group });
      const list = await probe.reply('listEntities', 200, world.pb.entities.GET('/entities', { params: { query: { 'type[]': ['release'] } } }));
      probe.same('releases', idsOf(list), [p.release, autumn]);
    },
  ),
  writes('getCustomerScore.release', 'a release has no customer score → 404 resource.notFound (its demand is our extension)', async ({ world, probe }) => {
    const p = await planning(world, probe);
    await probe.refusal(
      'getCustomerScore',
      { status: 404, code: 'resource.notFound' },
      world.pb.scores.GET('/entities/{id}/score', { params: { path: { id: p.release } } }),
    );
  }),
  writes(
    'getCustomerDemand.release',
    "our extension GET /v2/entities/{id}/demand: a release's demand is the sum of its linked features' scores, a subfeature linked with its feature counted once",
    async ({ world, probe }) => {
      const p = await planning(world, probe);
      probe.equal('demand before any link', await demandOf(world, probe, p.release), { demand: 0, linkedEntities: 0, countedEntities: 0 });
      await link(world, probe, p.release, p.applePay);
      await link(world, probe, p.applePayWeb, p.release);
      await link(world, probe, p.release, p.googlePay);
      const scores = [await scoreOf(world, probe, p.applePay), await scoreOf(world, probe, p.applePayWeb), await scoreOf(world, probe, p.googlePay)];
      probe.equal('scores of Apple Pay, its subfeature and Google Pay', scores, [2, 1, 1]);
      probe.equal('demand', await demandOf(world, probe, p.release), { demand: scores[0]! + scores[2]!, linkedEntities: 3, countedEntities: 2 });
    },
  ),
  writes(
    'getCustomerDemand.rating',
    "our extension GET /v2/entities/{id}/demand: a note rating a linked feature moves the release's demand by its weight (default 1, then critical 3 through our extension PUT …/relationships/link/{entityId})",
    async ({ world, probe }) => {
      const p = await linkedRelease(world, probe);
      probe.equal('demand', (await demandOf(world, probe, p.release)).demand, 3);
      const initech = await world.entity(probe, 'company', 'Initech');
      const note = await world.note(probe, 'Initech wants Google Pay', { customer: { id: initech, type: 'company' }, links: [p.googlePay] });
      probe.equal('demand after a rating of weight 1', (await demandOf(world, probe, p.release)).demand, 4);
      await probe.extension(
        'setNoteLinkImportance',
        200,
        world.ours('PUT', `/notes/${note}/relationships/link/${p.googlePay}`, { data: { importance: 'critical' } }),
      );
      probe.equal('demand after the rating turns critical', (await demandOf(world, probe, p.release)).demand, 6);
      // Globex's rating of the subfeature turns critical: counted once, inside Apple Pay's score.
      await probe.extension(
        'setNoteLinkImportance',
        200,
        world.ours('PUT', `/notes/${p.globexNote}/relationships/link/${p.applePayWeb}`, { data: { importance: 'critical' } }),
      );
      probe.equal('demand after the subfeature rating turns critical', (await demandOf(world, probe, p.release)).demand, 8);
      probe.equal("Apple Pay's and Google Pay's scores", [await scoreOf(world, probe, p.applePay), await scoreOf(world, probe, p.googlePay)], [4, 4]);
    },
  ),
  writes(
    'getCustomerDemand.objective-keyResult-initiative',
    'our extension GET /v2/entities/{id}/demand: an objective, its key result and an initiative each sum what they link; links between planning entities are not followed',
    async ({ world, probe }) => {
      const p = await planning(world, probe);
      await link(world, probe, p.objective, p.applePay);
      await link(world, probe, p.keyResult, p.googlePay);
      await link(world, probe, p.initiative, p.applePay);
      await link(world, probe, p.initiative, p.applePayWeb);
      await link(world, probe, p.initiative, p.objective);
      probe.equal('demand of Grow', await demandOf(world, probe, p.objective), { demand: 2, linkedEntities: 1, countedEntities: 1 });
      probe.equal('demand of Retain', await demandOf(world, probe, p.keyResult), { demand: 1, linkedEntities: 1, countedEntities: 1 });
      probe.equal('demand of Wallets', await demandOf(world, probe, p.initiative), { demand: 2, linkedEntities: 2, countedEntities: 1 });
    },
  ),
];
