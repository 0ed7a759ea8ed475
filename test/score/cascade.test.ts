// A cascade over a subtree larger than one transaction (122 entities, 100-item transactions), and a
// crash simulated at each stage of it: after every step the live scores equal the definition, and
// `score verify --repair` finishes the delete.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cascadeHooks } from '#lib/store/cascade.ts';
import { client } from './helpers.ts';
import { verifyScores } from '../../local/admin/score.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());
afterEach(() => {
  delete cascadeHooks.afterStep;
});

const FEATURES = 120;

async function bigTree(c: ReturnType<typeof client>) {
  const product = await c.entity('product');
  const keep = await c.entity('feature', product);
  const comp = await c.entity('component', product);
  const features: string[] = [];
  for (let i = 0; i < FEATURES; i += 40) features.push(...(await Promise.all(Array.from({ length: 40 }, () => c.entity('feature', comp)))));
  const sub = await c.entity('subfeature', features[0]);
  const acme = await c.entity('company');
  const rated = await c.note({ customer: acme, links: features.slice(0, 12).map((f) => [f, 'important'] as [string, string]) });
  await c.note({ links: [[sub], [keep], [comp]] });
  return { product, keep, comp, features, sub, rated };
}

class Crash extends Error {}

describe('cascade delete of a subtree larger than one transaction', () => {
  it('without a crash: 204, the whole subtree is gone, links to it removed, ancestors exact', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await bigTree(c);
    expect([await c.score(t.product), await c.score(t.comp)]).toEqual([12 * 2 + 3, 12 * 2 + 2]);
    expect((await c.req('DELETE', `/entities/${t.comp}`)).status).toBe(204);
    expect(await c.score(t.product)).toBe(1);
    for (const id of [t.comp, t.sub, ...t.features.slice(0, 5)]) expectError(await c.req('GET', `/entities/${id}/score`), 'resource.notFound');
    expect((await c.ok('GET', `/notes/${t.rated}`)).json.data.relationships.data.filter((r: any) => r.type === 'link')).toEqual([]);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  }, 90_000);

  it.each([
    ['detached', 1],
    ['marked', 1],
    ['deleted', 60],
  ])('a crash after step "%s" (#%i): every live score stays exact, verify finds no drift, verify --repair (or a repeated DELETE) finishes the delete', async (stage, nth) => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const t = await bigTree(c);
    let count = 0;
    cascadeHooks.afterStep = (step) => {
      if (step === stage && ++count === nth) throw new Crash(`simulated crash after ${step}`);
    };
    expectError(await c.req('DELETE', `/entities/${t.comp}`), 'internal.serverError');
    delete cascadeHooks.afterStep;

    // Intermediate state: the root is gone, its total left the ancestors at once.
    expectError(await c.req('GET', `/entities/${t.comp}`), 'resource.notFound');
    expect([await c.score(t.product), await c.score(t.keep)]).toEqual([1, 1]);
    // Writes into the doomed subtree are refused.
    const survivor = t.features[FEATURES - 1]!;
    const linkRes = await c.req('POST', '/notes', { data: { type: 'textNote', fields: { name: 'late' }, relationships: [{ type: 'link', target: { id: survivor } }] } });
    expectError(linkRes, 'resource.notFound');
    if (stage === 'detached') {
      // Not yet marked: a descendant still answers with its own untouched subtree score.
      expect(await c.score(t.features[0]!)).toBe(2 + 1);
    }
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });

    if (stage === 'deleted') {
      // A client retrying the DELETE finishes the cascade just as well.
      expect((await c.req('DELETE', `/entities/${t.comp}`)).status).toBe(204);
    } else {
      const repaired = await verifyScores({ workspace: ws.workspaceId, repair: true });
      expect(repaired.mismatches).toBe(0);
    }
    for (const id of [t.sub, t.features[0]!, survivor]) expectError(await c.req('GET', `/entities/${id}`), 'resource.notFound');
    expect((await c.ok('GET', `/notes/${t.rated}`)).json.data.relationships.data.filter((r: any) => r.type === 'link')).toEqual([]);
    expect(await c.score(t.product)).toBe(1);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0, repaired: 0 });
  }, 90_000);
});
