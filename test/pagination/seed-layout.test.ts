// The bulk seed writes entity items itself; this keeps it honest: an item built by entityItem
// equals, key for key, what POST /v2/entities stores (apart from the score aggregates).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db, tableName } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { entityItem } from './seed.ts';
import { call, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app.close();
});

it('seeded entity items have the layout the create endpoint writes', async () => {
  const ws = await newWorkspace();
  const create = async (data: unknown) => {
    const res = await call(app, 'POST', '/v2/entities', { token: ws.token, body: { data } });
    expect(res.status, res.text).toBe(201);
    return res.json.data.id as string;
  };
  const product = await create({ type: 'product', fields: { name: 'P' } });
  const feature = await create({
    type: 'feature',
    fields: { name: 'F', tags: [{ name: 't' }], owner: { email: ws.admin.email } },
    relationships: [{ type: 'parent', target: { id: product } }],
  });
  for (const [id, parent] of [
    [product, undefined],
    [feature, { id: product, type: 'product' }],
  ] as const) {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.entity(ws.workspaceId, id) }));
    const { own: _own, total: _total, growth, ...stored } = Item!;
    // The feature's create counted the product's growth (lib/store/entities.ts); absent counts as none.
    expect(growth).toBe(id === product ? 1 : undefined);
    if (id === feature) expect(stored.gsi3pk).toBe(keys.ownedBy(ws.workspaceId, ws.admin.id));
    // Created with no child yet, flagged once one joins (lib/store/entity-writes.ts); a seeded item
    // without the flag is still searched for children by a subtree delete (absent means unknown).
    expect(stored).toEqual({
      ...entityItem(ws.workspaceId, { id, type: Item!.type, createdAt: Item!.createdAt, fields: Item!.fields, ...(parent ? { parent } : {}) }),
      hadChildren: id === product,
    });
  }
});
