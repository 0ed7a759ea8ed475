// POST /v2/entities/{id}/relationships and DELETE /v2/entities/{id}/relationships/{type}/{targetId}
// over HTTP: link, isBlockedBy and isBlocking both ways and without effect on the score; parent and
// child as moves; a parent the hierarchy requires cannot be deleted; other workspaces are 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../score/helpers.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

async function setup() {
  const ws = await newWorkspace();
  const c = client(app, ws.token);
  const product = await c.entity('product');
  const component = await c.entity('component', product);
  const a = await c.entity('feature', component, { name: 'A' });
  const b = await c.entity('feature', component, { name: 'B' });
  const ref = (id: string, type: string) => ({ id, type, links: { self: `${app.baseUrl}/entities/${id}`, html: `${app.webUrl}/entities/${id}` } });
  const lines = async (id: string, qs = '') =>
    (await c.ok('GET', `/entities/${id}/relationships${qs}`)).json.data.map((r: { type: string; target: { id: string } }) => `${r.type} ${r.target.id}`);
  return { ws, c, product, component, a, b, ref, lines };
}

describe('entity relationships: create and delete', () => {
  it('link (the default type) reads from both sides; isBlockedBy reads as isBlocking from the target; the score is untouched', async () => {
    const { c, a, b, component, ref, lines } = await setup();
    await c.note({ links: [[a]] });
    const created = await c.req('POST', `/entities/${a}/relationships`, { data: { target: { id: b } } });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toEqual({ data: { type: 'link', target: ref(b, 'feature') } });
    expect(await lines(a, '?type=link')).toEqual([`link ${b}`]);
    expect(await lines(b, '?type=link')).toEqual([`link ${a}`]);
    const blocked = await c.req('POST', `/entities/${a}/relationships`, { data: { type: 'isBlockedBy', target: { id: b } } });
    expect(blocked.json).toEqual({ data: { type: 'isBlockedBy', target: ref(b, 'feature') } });
    expect(await lines(b)).toEqual([`parent ${component}`, `isBlocking ${a}`, `link ${a}`]);
    expect(await lines(b, `?target[id]=${a}&type=isBlocking`)).toEqual([`isBlocking ${a}`]);
    expect(await c.score(a)).toBe(1);
    expect(await c.score(b)).toBe(0);
    // The inline relationships of the entity show them too.
    const got = await c.ok('GET', `/entities/${a}`);
    expect(got.json.data.relationships.data.map((r: { type: string }) => r.type)).toEqual(['parent', 'isBlockedBy', 'link']);

    expect((await c.req('DELETE', `/entities/${b}/relationships/isBlocking/${a}`)).status).toBe(204);
    expect(await lines(a)).toEqual([`parent ${component}`, `link ${b}`]);
    expect((await c.req('DELETE', `/entities/${a}/relationships/link/${b}`)).status).toBe(204);
    expect(await lines(b)).toEqual([`parent ${component}`]);
    expectError(await c.req('DELETE', `/entities/${a}/relationships/link/${b}`), 'resource.notFound');
  });

  it('an existing relation → 409; itself, a customer entity, or blocking both ways → 400 at /data/target/id', async () => {
    const { c, a, b } = await setup();
    const company = await c.entity('company');
    await c.ok('POST', `/entities/${a}/relationships`, { data: { type: 'isBlocking', target: { id: b } } });
    expectError(await c.req('POST', `/entities/${a}/relationships`, { data: { type: 'isBlocking', target: { id: b } } }), 'conflict.uniqueViolation');
    for (const [type, target] of [
      ['link', a],
      ['link', company],
      ['isBlockedBy', b],
    ] as const) {
      expectError(await c.req('POST', `/entities/${a}/relationships`, { data: { type, target: { id: target } } }), 'request.invalid', {
        source: { pointer: '/data/target/id' },
      });
    }
    expectError(await c.req('POST', `/entities/${a}/relationships`, { data: { type: 'sibling', target: { id: b } } }), 'request.invalid', {
      source: { pointer: '/data/type' },
    });
  });

  it('parent moves the entity and child moves the target, exactly as PUT …/relationships/parent; a refused parent → 400', async () => {
    const { c, product, component, a, b, ref, lines } = await setup();
    const sub = await c.entity('subfeature', a, { name: 'S' });
    await c.note({ links: [[sub]] });
    const moved = await c.req('POST', `/entities/${sub}/relationships`, { data: { type: 'parent', target: { id: b } } });
    expect(moved.status, moved.text).toBe(201);
    expect(moved.json).toEqual({ data: { type: 'parent', target: ref(b, 'feature') } });
    expect([await c.score(a), await c.score(b)]).toEqual([0, 1]);
    const other = await c.entity('component', product);
    const adopted = await c.req('POST', `/entities/${other}/relationships`, { data: { type: 'child', target: { id: b } } });
    expect(adopted.json).toEqual({ data: { type: 'child', target: ref(b, 'feature') } });
    expect(await lines(b, '?type=parent')).toEqual([`parent ${other}`]);
    expect([await c.score(other), await c.score(component)]).toEqual([1, 0]);
    expectError(await c.req('POST', `/entities/${a}/relationships`, { data: { type: 'parent', target: { id: sub } } }), 'request.invalid', {
      source: { pointer: '/data/target/id' },
    });
  });

  it('deleting a parent the hierarchy requires → 400 at the type parameter; a user leaves its company', async () => {
    const { c, component, a } = await setup();
    const res = await c.req('DELETE', `/entities/${a}/relationships/parent/${component}`);
    expectError(res, 'request.invalid', {
      source: { parameter: 'type' },
      detail: /A feature needs a parent .* PUT \/v2\/entities\/.*\/relationships\/parent instead/,
    });
    expectError(await c.req('DELETE', `/entities/${component}/relationships/child/${a}`), 'request.invalid', { source: { parameter: 'type' } });
    const company = await c.entity('company');
    const user = await c.entity('user', company, { email: 'u@example.com' });
    expectError(await c.req('DELETE', `/entities/${user}/relationships/parent/${a}`), 'resource.notFound');
    expect((await c.req('DELETE', `/entities/${company}/relationships/child/${user}`)).status).toBe(204);
    expect((await c.ok('GET', `/entities/${user}/relationships`)).json.data).toEqual([]);
    expect((await c.ok('GET', `/entities/${company}/relationships`)).json.data).toEqual([]);
  });

  it('another workspace’s entity, as source or target → 404, and nothing is written', async () => {
    const mine = await setup();
    const theirs = await setup();
    expectError(await theirs.c.req('POST', `/entities/${mine.a}/relationships`, { data: { target: { id: theirs.a } } }), 'resource.notFound');
    expectError(await theirs.c.req('POST', `/entities/${theirs.a}/relationships`, { data: { target: { id: mine.b } } }), 'resource.notFound', {
      source: { pointer: '/data/target/id' },
    });
    expectError(await theirs.c.req('POST', `/entities/${theirs.a}/relationships`, { data: { type: 'child', target: { id: mine.b } } }), 'resource.notFound');
    await mine.c.ok('POST', `/entities/${mine.a}/relationships`, { data: { target: { id: mine.b } } });
    expectError(await theirs.c.req('DELETE', `/entities/${mine.a}/relationships/link/${mine.b}`), 'resource.notFound');
    expect(await mine.lines(mine.a, '?type=link')).toEqual([`link ${mine.b}`]);
    expect(await theirs.lines(theirs.a)).toEqual([`parent ${theirs.component}`]);
  });
});
