// Relations between hierarchy entities (lib/store/relations.ts) against DynamoDB Local: both sides
// written and deleted together, each side reading its own type, refusals that write nothing,
// workspace isolation, the cascade removing both sides, the score untouched, and the relationship
// list with its filters and pages.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { Conflict, InvalidInput, NotFound } from '#lib/domain/errors.ts';
import { deleteEntity } from '#lib/store/cascade.ts';
import { db, tableName } from '#lib/store/client.ts';
import { getEntity } from '#lib/store/entities.ts';
import * as keys from '#lib/store/keys.ts';
import { entityRelationshipsAfter, type EntityRelationshipFilter } from '#lib/store/pages.ts';
import { createRelation, deleteRelation } from '#lib/store/relations.ts';
import { readScore } from '#lib/store/score.ts';
import { sweep } from '#lib/store/sweep.ts';
import { entity, note, storeWorkspace, walk } from './support.ts';

const PATH = ['data', 'target', 'id'];

async function tree() {
  const { ws } = await storeWorkspace();
  const product = await entity(ws, 'product', 'Product');
  const a = await entity(ws, 'feature', 'A', { parent: product.id });
  const b = await entity(ws, 'feature', 'B', { parent: product.id });
  const c = await entity(ws, 'feature', 'C', { parent: product.id });
  return { ws, product, a, b, c };
}

const name = new Map<string, string>();
async function lines(ws: string, id: string, filter: EntityRelationshipFilter = {}, limit = 100) {
  const e = (await getEntity(ws, id))!;
  const { records } = await walk((after, n) => entityRelationshipsAfter(ws, e, filter, after, n), limit);
  return records.map((r) => `${r.type} ${name.get(r.target.id) ?? r.target.id}`);
}

/** Every relation item of a workspace (both sides of each relation). */
async function relationItems(ws: string) {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :r)',
      ExpressionAttributeValues: { ':pk': keys.partition(ws), ':r': 'REL#' },
    }),
  );
  return Items ?? [];
}

describe('relations between hierarchy entities', () => {
  it('link reads as link from both sides; isBlockedBy reads as isBlocking from the target; delete removes both sides', async () => {
    const { ws, product, a, b, c } = await tree();
    for (const e of [product, a, b, c]) name.set(e.id, e.fields.name as string);
    await createRelation(ws, a.id, 'link', b.id, PATH);
    await createRelation(ws, a.id, 'isBlockedBy', c.id, PATH);
    expect(await lines(ws, a.id)).toEqual(['parent Product', 'isBlockedBy C', 'link B']);
    expect(await lines(ws, b.id)).toEqual(['parent Product', 'link A']);
    expect(await lines(ws, c.id)).toEqual(['parent Product', 'isBlocking A']);
    expect(await relationItems(ws)).toHaveLength(4);
    await deleteRelation(ws, c.id, 'isBlocking', a.id);
    expect(await lines(ws, a.id)).toEqual(['parent Product', 'link B']);
    expect(await lines(ws, c.id)).toEqual(['parent Product']);
    await expect(deleteRelation(ws, c.id, 'isBlocking', a.id)).rejects.toBeInstanceOf(NotFound);
    expect(await relationItems(ws)).toHaveLength(2);
  });

  it('refusals write nothing: an existing relation (409), the two blocking each other, itself, a customer entity, an unknown or foreign target', async () => {
    const { ws, a, b } = await tree();
    await createRelation(ws, a.id, 'isBlocking', b.id, PATH);
    await expect(createRelation(ws, a.id, 'isBlocking', b.id, PATH)).rejects.toBeInstanceOf(Conflict);
    await expect(createRelation(ws, b.id, 'isBlockedBy', a.id, PATH)).rejects.toBeInstanceOf(Conflict);
    await expect(createRelation(ws, a.id, 'isBlockedBy', b.id, PATH)).rejects.toThrow(/cannot block each other/);
    await expect(createRelation(ws, a.id, 'link', a.id, PATH)).rejects.toThrow(/with itself/);
    const acme = await entity(ws, 'company', 'Acme');
    const refusal = await createRelation(ws, a.id, 'link', acme.id, PATH).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(InvalidInput);
    expect((refusal as InvalidInput).location).toEqual({ pointer: '/data/target/id' });
    await expect(createRelation(ws, a.id, 'link', '00000000-0000-4000-8000-000000000000', PATH)).rejects.toBeInstanceOf(NotFound);
    const other = await tree();
    await expect(createRelation(other.ws, other.a.id, 'link', b.id, PATH)).rejects.toBeInstanceOf(NotFound);
    await expect(createRelation(other.ws, a.id, 'link', other.b.id, PATH)).rejects.toBeInstanceOf(NotFound);
    expect(await relationItems(ws)).toHaveLength(2);
    expect(await relationItems(other.ws)).toHaveLength(0);
  });

  it('relations given on create are written with the entity, both sides', async () => {
    const { ws, product, a } = await tree();
    const d = await entity(ws, 'feature', 'D', {
      parent: product.id,
      relations: [
        { type: 'link', targetId: a.id, path: PATH },
        { type: 'isBlocking', targetId: product.id, path: PATH },
      ],
    });
    name.set(d.id, 'D');
    name.set(product.id, 'Product');
    name.set(a.id, 'A');
    expect(await lines(ws, d.id)).toEqual(['parent Product', 'isBlocking Product', 'link A']);
    expect(await lines(ws, product.id, { type: 'isBlockedBy' })).toEqual(['isBlockedBy D']);
    // A refused relation refuses the whole create.
    await expect(
      entity(ws, 'feature', 'E', { parent: product.id, relations: [{ type: 'link', targetId: '00000000-0000-4000-8000-000000000000', path: PATH }] }),
    ).rejects.toBeInstanceOf(NotFound);
  });

  it('deleting an entity removes both sides of its relations, and relations leave the score alone', async () => {
    const { ws, product, a, b, c } = await tree();
    await note(ws, 'feedback', { links: [a.id] });
    await createRelation(ws, a.id, 'link', b.id, PATH);
    await createRelation(ws, c.id, 'isBlocking', a.id, PATH);
    expect([await readScore(ws, product.id), await readScore(ws, a.id), await readScore(ws, b.id), await readScore(ws, c.id)]).toEqual([1, 1, 0, 0]);
    await deleteEntity(ws, a.id);
    name.set(b.id, 'B');
    name.set(product.id, 'Product');
    // Gone for readers at once; the items themselves are the clean-up's (the pending work the sweep finishes).
    expect(await lines(ws, b.id)).toEqual(['parent Product']);
    expect(await relationItems(ws)).toHaveLength(4);
    expect(await sweep({ workspace: ws, until: Date.now() + 30_000 })).toMatchObject({ finished: 1, failed: 0 });
    expect(await relationItems(ws)).toEqual([]);
    expect(await lines(ws, b.id)).toEqual(['parent Product']);
  });

  it('the relationship list: type, target type and target id filters; pages through parent, children and relations', async () => {
    const { ws, product, a, b, c } = await tree();
    for (const e of [product, a, b, c]) name.set(e.id, e.fields.name as string);
    const comp = await entity(ws, 'component', 'Comp', { parent: product.id });
    name.set(comp.id, 'Comp');
    await createRelation(ws, product.id, 'link', a.id, PATH);
    await createRelation(ws, product.id, 'isBlockedBy', b.id, PATH);
    const all = ['child A', 'child B', 'child C', 'child Comp', 'isBlockedBy B', 'link A'];
    expect(await lines(ws, product.id)).toEqual(all);
    expect(await lines(ws, product.id, {}, 1)).toEqual(all);
    expect(await lines(ws, product.id, {}, 4)).toEqual(all);
    expect(await lines(ws, product.id, { type: 'child', targetType: 'component' })).toEqual(['child Comp']);
    expect(await lines(ws, product.id, { targetType: 'feature' }, 2)).toEqual(['child A', 'child B', 'child C', 'isBlockedBy B', 'link A']);
    expect(await lines(ws, product.id, { targetId: a.id })).toEqual(['child A', 'link A']);
    expect(await lines(ws, product.id, { type: 'link' })).toEqual(['link A']);
    expect(await lines(ws, product.id, { type: 'link' }, 1)).toEqual(['link A']);
    expect(await lines(ws, a.id, { type: 'parent', targetId: product.id })).toEqual(['parent Product']);
    expect(await lines(ws, a.id, { type: 'parent', targetId: b.id })).toEqual([]);
  });
});
