// Productboard's field value operations (the values of tags and the status field), as its documents define them.
import { reads, writes, type Check } from './check.ts';
import type { Probe } from './probe.ts';
import type { World } from './world.ts';

const listValues = (world: World, id: string, query: { 'assignedEntityType[]'?: Array<'feature' | 'release' | 'company'> } = {}) =>
  world.pb.entities.GET('/entities/fields/{id}/values', { params: { path: { id }, query } });

/** The tag values as "name color", in the list's order. */
async function tagLines(world: World, probe: Probe): Promise<string[]> {
  const list = await probe.reply('listEntityFieldValues', 200, listValues(world, 'tags'));
  return list.data.map((v) => {
    const fields = v.fields as { name?: string; color?: string };
    return `${fields.name} ${fields.color}`;
  });
}

/** An entity's tags as names (an entity without tags: none). */
async function tagsOf(world: World, probe: Probe, id: string): Promise<string[]> {
  const got = await probe.reply('getEntity', 200, world.pb.entities.GET('/entities/{id}', { params: { path: { id } } }));
  const tags = got.data.fields?.tags as Array<{ name?: string }> | null | undefined;
  return (tags ?? []).map((t) => String(t.name));
}

/** Two products tagged "old" (the first also "keep"); the tag values' ids by name. */
async function tagged(world: World, probe: Probe) {
  const a = await world.entity(probe, 'product', 'A', { fields: { tags: [{ name: 'old' }, { name: 'keep' }] } });
  const b = await world.entity(probe, 'product', 'B', { fields: { tags: [{ name: 'old' }] } });
  const ids = await world.tagIds(probe);
  return { a, b, old: ids.get('old')!, keep: ids.get('keep')! };
}

const deleteValue = (world: World, valueId: string, query: { replaceWith?: string; force?: boolean } = {}) =>
  world.pb.entities.DELETE('/entities/fields/{id}/values/{valueId}', { params: { path: { id: 'tags', valueId }, query } });

export const FIELD_VALUE_CHECKS: Check[] = [
  reads('listEntityFieldValues', "the tags field's values are the workspace's tags", async ({ seed, probe }) => {
    const list = await probe.reply('listEntityFieldValues', 200, listValues(seed.world, 'tags'));
    probe.equal(
      'tag names',
      list.data.map((v) => (v.fields as { name?: string }).name),
      ['mobile'],
    );
  }),
  reads('listEntityFieldValues.assignedEntityType[]', "assignedEntityType[]=release keeps the release's status values", async ({ seed, probe }) => {
    const list = await probe.reply('listEntityFieldValues', 200, listValues(seed.world, 'status', { 'assignedEntityType[]': ['release'] }));
    probe.equal(
      'status values of a release',
      list.data.map((v) => (v.fields as { name?: string }).name),
      ['In progress', 'Completed', 'Upcoming'],
    );
    const none = await probe.reply('listEntityFieldValues', 200, listValues(seed.world, 'status', { 'assignedEntityType[]': ['company'] }));
    probe.equal('status values of a company', none.data, []);
  }),
  reads('listEntityFieldValues.unknown-field', 'a field id that is no field → 404 resource.notFound', async ({ seed, probe }) => {
    await probe.refusal('listEntityFieldValues', { status: 404, code: 'resource.notFound' }, listValues(seed.world, '00000000-0000-4000-8000-000000000000'));
  }),
  writes(
    'createEntityFieldValue',
    '→ 201 with the id; the list shows the tag with its color and an entity can be tagged by the id',
    async ({ world, probe }) => {
      const created = await probe.reply(
        'createEntityFieldValue',
        201,
        world.pb.entities.POST('/entities/fields/{id}/values', {
          params: { path: { id: 'tags' } },
          body: { data: { fields: { name: 'web', color: 'lime' } } },
        }),
      );
      const id = String(created.data?.id);
      probe.equal('tags', await tagLines(world, probe), ['web lime']);
      const product = await world.entity(probe, 'product', 'Product', { fields: { tags: [{ id }] } });
      probe.equal("the product's tags", await tagsOf(world, probe, product), ['web']);
    },
  ),
  writes(
    'createEntityFieldValue.duplicate',
    'a name a tag has (any case) → 409 conflict.uniqueViolation at the name; nothing made',
    async ({ world, probe }) => {
      await tagged(world, probe);
      await probe.refusal(
        'createEntityFieldValue',
        { status: 409, code: 'conflict.uniqueViolation', pointer: '/data/fields/name' },
        world.pb.entities.POST('/entities/fields/{id}/values', { params: { path: { id: 'tags' } }, body: { data: { fields: { name: 'OLD' } } } }),
      );
      probe.equal('tag names', (await tagLines(world, probe)).map((l) => l.split(' ')[0]).sort(), ['keep', 'old']);
    },
  ),
  writes('updateEntityFieldValue', 'PATCH renames and recolors a tag; every entity holding it reads the new name', async ({ world, probe }) => {
    const { a, b, old } = await tagged(world, probe);
    const updated = await probe.reply(
      'updateEntityFieldValue',
      200,
      world.pb.entities.PATCH('/entities/fields/{id}/values/{valueId}', {
        params: { path: { id: 'tags', valueId: old } },
        body: { data: { fields: { name: 'Renamed', color: 'red' } } },
      }),
    );
    probe.equal('reference id', updated.data?.id, old);
    probe.equal(
      'tags but keep',
      (await tagLines(world, probe)).filter((l) => !l.startsWith('keep ')),
      ['Renamed red'],
    );
    probe.equal('tags of A and B', [await tagsOf(world, probe, a), await tagsOf(world, probe, b)], [['Renamed', 'keep'], ['Renamed']]);
  }),
  writes(
    'updateEntityFieldValue.duplicate',
    "a rename to another tag's name (any case) → 409 conflict.uniqueViolation at the name; nothing renamed",
    async ({ world, probe }) => {
      const { a, old } = await tagged(world, probe);
      await probe.refusal(
        'updateEntityFieldValue',
        { status: 409, code: 'conflict.uniqueViolation', pointer: '/data/fields/name' },
        world.pb.entities.PATCH('/entities/fields/{id}/values/{valueId}', {
          params: { path: { id: 'tags', valueId: old } },
          body: { data: { fields: { name: 'KEEP' } } },
        }),
      );
      probe.equal('tags of A', await tagsOf(world, probe, a), ['old', 'keep']);
    },
  ),
  writes(
    'deleteEntityFieldValue',
    'a tag entities hold → 400 at force and kept; with force → 204, off the list and cleared from every entity',
    async ({ world, probe }) => {
      const { a, b, old } = await tagged(world, probe);
      await probe.refusal('deleteEntityFieldValue', { status: 400, code: 'request.invalid', parameter: 'force' }, deleteValue(world, old));
      probe.equal('tags of A and B', [await tagsOf(world, probe, a), await tagsOf(world, probe, b)], [['old', 'keep'], ['old']]);
      await probe.reply('deleteEntityFieldValue', 204, deleteValue(world, old, { force: true }));
      probe.equal(
        'tag names',
        (await tagLines(world, probe)).map((l) => l.split(' ')[0]),
        ['keep'],
      );
      probe.equal('tags of A and B', [await tagsOf(world, probe, a), await tagsOf(world, probe, b)], [['keep'], []]);
    },
  ),
  writes('deleteEntityFieldValue.replaceWith', 'replaceWith puts the replacement in its place (once) on every entity', async ({ world, probe }) => {
    const { a, b, old, keep } = await tagged(world, probe);
    await probe.reply('deleteEntityFieldValue', 204, deleteValue(world, old, { replaceWith: keep }));
    probe.equal('tags of A and B', [await tagsOf(world, probe, a), await tagsOf(world, probe, b)], [['keep'], ['keep']]);
  }),
  writes('deleteEntityFieldValue.status', 'a status value is fixed → 400 request.invalid at the id parameter', async ({ world, probe }) => {
    const list = await probe.reply('listEntityFieldValues', 200, listValues(world, 'status', { 'assignedEntityType[]': ['feature'] }));
    const planned = list.data.find((v) => (v.fields as { name?: string }).name === 'Planned');
    if (!planned) return probe.stop('no status value Planned');
    await probe.refusal(
      'deleteEntityFieldValue',
      { status: 400, code: 'request.invalid', parameter: 'id' },
      world.pb.entities.DELETE('/entities/fields/{id}/values/{valueId}', { params: { path: { id: 'status', valueId: planned.id } } }),
    );
  }),
];
