// One round trip on an authenticated read: the credential, the member (and the application of an
// access token) and the item the route names come from ONE BatchGetItem, and nothing of that item
// is released before the credential proves live. Observed with a middleware that records (does not
// alter) every command the document client sends to DynamoDB Local.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { revokeCredential } from '#lib/store/credentials.ts';
import { setMemberActive } from '#lib/store/members.ts';
import { client } from '../score/helpers.ts';
import { expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';
import { recordCommands } from '../support/commands.ts';

let app: TestApp;
let ws: TestWorkspace;
let recorder: ReturnType<typeof recordCommands>;
/** The names of the commands sent since the last clear. */
const sent = () => recorder.sent.map((s) => s.command);
beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace();
  recorder = recordCommands('recordCommands');
});
afterAll(async () => {
  recorder.stop();
  await app.close();
});
beforeEach(() => recorder.clear());

describe('one round trip per authenticated read', () => {
  it('GET score sends exactly one BatchGetItem and nothing else; GET entity and GET note never read their item again (rate limit off)', async () => {
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const n = await c.note({ links: [[p, 'critical']] });
    for (const path of [`/entities/${p}/score`, `/entities/${p}`, `/notes/${n}`]) {
      await c.ok('GET', path); // warm: the signature is verified once per instance
      recorder.clear();
      await c.ok('GET', path);
      if (path.endsWith('/score')) expect(sent(), path).toEqual(['BatchGetItem']);
      else {
        // The item came with the credential; what follows is the route's own extra reads (custom field definitions).
        expect(sent()[0], path).toBe('BatchGetItem');
        expect(
          sent().filter((x) => x === 'GetItem' || x === 'BatchGetItem'),
          path,
        ).toEqual(['BatchGetItem']);
      }
    }
    expect((await c.ok('GET', `/entities/${p}/score`)).json.data.fields.score).toBe(1); // an anonymous note's link counts 1
  });

  it("with the rate limit on, requests served from the instance's leased share write nothing: at most one lease per five requests", async () => {
    const saved = process.env.RATE_LIMIT_PER_SECOND;
    process.env.RATE_LIMIT_PER_SECOND = '50';
    try {
      const m = await ws.member({ role: 'maker' });
      const c = client(app, m.token);
      const p = await client(app, ws.token).entity('product');
      recorder.clear();
      for (let i = 0; i < 20; i++) expect((await c.req('GET', `/entities/${p}/score`)).status).toBe(200);
      const writes = sent().filter((s) => s === 'UpdateItem').length;
      expect(sent().filter((s) => s === 'BatchGetItem')).toHaveLength(20);
      expect(writes).toBeGreaterThanOrEqual(1);
      expect(writes).toBeLessThanOrEqual(20 / 5 + 1);
    } finally {
      process.env.RATE_LIMIT_PER_SECOND = saved;
    }
  });

  it('a revoked token reading an existing entity: 401 auth.invalid and nothing of the prefetched item in the answer', async () => {
    const m = await ws.member({ role: 'maker' });
    const c = client(app, m.token);
    const p = await client(app, ws.token).entity('product', undefined, { name: 'secret-name' });
    await c.ok('GET', `/entities/${p}`);
    await revokeCredential(ws.workspaceId, m.tokenId);
    const res = await c.req('GET', `/entities/${p}`);
    expectError(res, 'auth.invalid', { detail: 'The bearer token has been revoked.' });
    expect(res.text).not.toContain('secret-name');
  });

  it('a refused token on POST /v2/notes naming a customer and a link: the one BatchGetItem carried them, then 401 and nothing else sent — revoked or deactivated', async () => {
    const admin = client(app, ws.token);
    const p = await admin.entity('product');
    const u = await admin.entity('user', undefined, { name: 'secret-customer' });
    const body = {
      data: {
        type: 'textNote',
        fields: { name: 'Feedback' },
        relationships: [
          { type: 'customer', target: { id: u } },
          { type: 'link', target: { id: p }, importance: 'critical' },
        ],
      },
    };
    const refusals = [
      { refuse: (m: { tokenId: string }) => revokeCredential(ws.workspaceId, m.tokenId), detail: 'The bearer token has been revoked.' },
      {
        refuse: (m: { member: { email: string } }) => setMemberActive(ws.workspaceId, m.member.email, false),
        detail: "The token's member is deactivated or no longer exists.",
      },
    ];
    for (const { refuse, detail } of refusals) {
      const m = await ws.member({ role: 'maker' });
      const c = client(app, m.token);
      await c.ok('GET', `/entities/${p}/score`); // the signature is verified once per instance
      await refuse(m);
      recorder.clear();
      const res = await c.req('POST', '/notes', body);
      expectError(res, 'auth.invalid', { detail });
      expect(res.text).not.toContain('secret-customer');
      // Credential and member, then the customer, the target and the customer's rating of it.
      expect(recorder.sent.map((s) => [s.command, s.keys])).toEqual([['BatchGetItem', 2 + 3]]);
    }
    expect(await admin.score(p)).toBe(0);
  });

  it("another workspace's token on the entity's id: 404, the prefetch keyed by the token's own workspace", async () => {
    const other = await newWorkspace();
    const p = await client(app, ws.token).entity('product');
    expectError(await client(app, other.token).req('GET', `/entities/${p}/score`), 'resource.notFound');
    expectError(await client(app, other.token).req('GET', `/entities/${p.toUpperCase()}`), 'resource.notFound');
  });
});
