// The MCP server's tools through the SDK's own client, authorized by an API token (the way a
// script connects): every tool listed and called, scopes per tool as on the REST routes, another
// workspace's ids not found, the transport's HTTP-level answers.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, create, expectToolError, mcpClient, seedProduct, type Seeded } from './support.ts';
import { MCP_SCOPES } from '../../lib/auth/protected-resource.ts';
import { requiredScope, TOOLS, withErrorCodes } from '../../lib/http/mcp/server.ts';
import { call, challengeOf, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
let ws: TestWorkspace;
let seeded: Seeded;
let client: Client;

beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace('MCP tools');
  seeded = await seedProduct(app, ws.token);
  client = await mcpClient(app, { token: ws.token });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await app?.close();
});

const score = async (id: string) => (await call(app, 'GET', `/v2/entities/${id}/score`, { token: ws.token })).json.data.fields.score as number;

describe('tools/list', () => {
  it('lists exactly the twelve tools, each with an input schema and a description', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'create_note',
      'get_customer_demand',
      'get_customer_score',
      'get_entity',
      'get_note',
      'list_notes',
      'list_objectives',
      'list_releases_of_area',
      'rank_by_customer_score',
      'rank_plan_by_customer_score',
      'rate_link',
      'search_entities',
    ]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      // A client is told that an argument the tool does not name is refused.
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
      expect(t.description!.length).toBeGreaterThan(40);
    }
    const create = tools.find((t) => t.name === 'create_note')!;
    expect(create.inputSchema.required).toEqual(['name']);
    expect(create.annotations?.readOnlyHint).toBe(false);
  });
});

describe('scores', () => {
  it('the protected resource metadata offers exactly the scopes the tools require, so a client asks for no more', () => {
    expect(new Set(TOOLS.map(requiredScope))).toEqual(new Set(MCP_SCOPES));
  });

  it('get_customer_score answers the score with the entity name and type', async () => {
    const result = await callTool(client, 'get_customer_score', { entityId: seeded.features['Apple Pay'] });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      id: seeded.features['Apple Pay'],
      type: 'feature',
      name: 'Apple Pay',
      parentId: seeded.component,
      link: `${app.baseUrl}/entities/${seeded.features['Apple Pay']}`,
      score: 5,
    });
    expect(result.content).toEqual([{ type: 'text', text: 'feature "Apple Pay" has a customer score of 5.' }]);
  });

  it('rank_by_customer_score ranks the features under a product in the order and with the values of GET …/score', async () => {
    const result = await callTool(client, 'rank_by_customer_score', { parentId: seeded.product, type: 'feature' });
    const ranked = result.structuredContent.entities as Array<{ rank: number; id: string; name: string; score: number }>;
    expect(ranked.map((r) => r.name)).toEqual(['Apple Pay', 'Gift cards', 'Invoices', 'Wallets']);
    expect(ranked.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
    for (const r of ranked) expect(r.score).toBe(await score(r.id));
    expect(ranked.map((r) => r.score)).toEqual([5, 2, 1, 0]);
    expect(result.structuredContent.nextCursor).toBeUndefined();
    const one = await callTool(client, 'rank_by_customer_score', { parentId: seeded.product, type: 'feature', limit: 1 });
    expect(one.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^1 feature of product "[^"]+" by customer score, ranks 1–1 of 4; more with nextCursor\.$/) },
    ]);
  });

  it('rank_by_customer_score pages with a cursor that says scores may move, and refuses it with other arguments', async () => {
    const first = await callTool(client, 'rank_by_customer_score', { parentId: seeded.product, limit: 2 });
    // Every descendant: the component (its subtree: 5 + 1 = 6) first.
    expect(first.structuredContent.entities.map((r: any) => [r.name, r.score])).toEqual([
      ['Payments', 6],
      ['Apple Pay', 5],
    ]);
    expect(first.structuredContent.cursorNote).toMatch(/scores may move between pages/);
    const second = await callTool(client, 'rank_by_customer_score', { parentId: seeded.product, limit: 2, cursor: first.structuredContent.nextCursor });
    expect(second.structuredContent.entities.map((r: any) => [r.rank, r.name])).toEqual([
      [3, 'Gift cards'],
      [4, 'Invoices'],
    ]);
    const third = await callTool(client, 'rank_by_customer_score', { parentId: seeded.product, limit: 2, cursor: second.structuredContent.nextCursor });
    expect(third.structuredContent.entities.map((r: any) => r.name)).toEqual(['Wallets']);
    expect(third.structuredContent.nextCursor).toBeUndefined();
    const foreign = await callTool(client, 'rank_by_customer_score', { parentId: seeded.component, limit: 2, cursor: first.structuredContent.nextCursor });
    expectToolError(foreign, 'request.invalid', /cursor is not valid for this call/);
  });
});

describe('entities', () => {
  it('search_entities filters by type, name fragment and parent', async () => {
    const byName = await callTool(client, 'search_entities', { types: ['feature'], name: 'PAY' });
    expect(byName.structuredContent.entities.map((e: any) => e.fields.name)).toEqual(['Apple Pay']);
    const children = await callTool(client, 'search_entities', { parentId: seeded.component });
    expect(children.structuredContent.entities.map((e: any) => e.fields.name)).toEqual(['Apple Pay', 'Invoices']);
    const paged = await callTool(client, 'search_entities', { types: ['feature'], limit: 3 });
    expect(paged.structuredContent.entities).toHaveLength(3);
    const rest = await callTool(client, 'search_entities', { types: ['feature'], limit: 3, cursor: paged.structuredContent.nextCursor });
    expect(rest.structuredContent.entities.map((e: any) => e.fields.name)).toEqual(['Wallets']);
    expect(rest.structuredContent.nextCursor).toBeUndefined();
  });

  it('search_entities refuses a name of white space alone, as the REST name parameter does, rather than match every name with a space', async () => {
    for (const name of [' ', '\u200B', '\t\n']) {
      expectToolError(
        await callTool(client, 'search_entities', { name }),
        'request.invalid',
        /^'\/name' must have a visible character, not only white space \(got '[\s\S]+'\)\.$/,
        {
          pointer: '/name',
        },
      );
      expectError(await call(app, 'GET', `/v2/entities?name=${encodeURIComponent(name)}`, { token: ws.token }), 'request.invalid', {
        detail: /visible character, not only white space/,
        source: { parameter: 'name' },
      });
    }
    const spaced = await callTool(client, 'search_entities', { name: ' pay' });
    expect(spaced.structuredContent.entities.map((e: any) => e.fields.name)).toEqual(['Apple Pay']);
  });

  it('get_entity answers the record GET /v2/entities/{id} answers', async () => {
    const result = await callTool(client, 'get_entity', { entityId: seeded.component });
    const rest = await call(app, 'GET', `/v2/entities/${seeded.component}`, { token: ws.token });
    expect(result.structuredContent).toEqual({ entity: rest.json.data });
  });
});

describe('notes', () => {
  it("create_note (customer by e-mail) moves the linked feature's score by the importance's weight; get_note and list_notes show it", async () => {
    const before = (await callTool(client, 'get_customer_score', { entityId: seeded.features['Wallets'] })).structuredContent.score;
    const created = await callTool(client, 'create_note', {
      name: 'Wallet demand',
      content: 'Wants Google Wallet',
      customer: { email: 'bea.buyer@example.com' },
      links: [{ entityId: seeded.features['Wallets'], importance: 'critical' }],
    });
    expect(created.isError, JSON.stringify(created)).toBeFalsy();
    const note = created.structuredContent.note;
    expect(note.fields).toEqual({
      name: 'Wallet demand',
      content: 'Wants Google Wallet',
      creator: { id: ws.admin.id, email: ws.admin.email },
      processed: false,
      archived: false,
    });
    expect(note.relationships.data).toEqual([
      {
        type: 'customer',
        target: { id: seeded.user, type: 'user', links: { self: `${app.baseUrl}/entities/${seeded.user}`, html: `${app.webUrl}/entities/${seeded.user}` } },
      },
      {
        type: 'link',
        target: {
          id: seeded.features['Wallets'],
          type: 'feature',
          links: { self: `${app.baseUrl}/entities/${seeded.features['Wallets']}`, html: `${app.webUrl}/entities/${seeded.features['Wallets']}` },
        },
        importance: 'critical',
      },
    ]);
    const after = (await callTool(client, 'get_customer_score', { entityId: seeded.features['Wallets'] })).structuredContent.score;
    expect(after - before).toBe(3);

    const got = await callTool(client, 'get_note', { noteId: note.id });
    const rest = await call(app, 'GET', `/v2/notes/${note.id}`, { token: ws.token });
    expect(got.structuredContent).toEqual({ note: rest.json.data });
    const listed = await callTool(client, 'list_notes', { limit: 100 });
    // Newest first, as GET /v2/notes lists them.
    expect(listed.structuredContent.notes.map((n: any) => n.fields.name)).toEqual(['Wallet demand', 'Bea interview', 'Acme call']);
    // The REST list's filters: the creator (the token's member), the creation time.
    const mine = await callTool(client, 'list_notes', { creatorEmail: ws.admin.email.toUpperCase(), createdFrom: rest.json.data.createdAt });
    expect(mine.structuredContent.notes.map((n: any) => n.id)).toEqual([note.id]);
    const later = await callTool(client, 'list_notes', { createdFrom: '2999-01-01T00:00:00Z' });
    expect(later.structuredContent).toEqual({ notes: [] });
  });

  it('rate_link creates a link, then re-rates it; the score follows the latest rating', async () => {
    const note = await create(app, ws.token, '/v2/notes', {
      type: 'textNote',
      fields: { name: 'Acme follow-up' },
      relationships: [{ type: 'customer', target: { id: seeded.company } }],
    });
    const invoices = seeded.features['Invoices']!;
    const before = await score(invoices);
    const linked = await callTool(client, 'rate_link', { noteId: note, entityId: invoices, importance: 'important' });
    expect(linked.structuredContent).toEqual({ noteId: note, entityId: invoices, entityType: 'feature', importance: 'important', created: true });
    expect(await score(invoices)).toBe(before + 2);
    const rerated = await callTool(client, 'rate_link', { noteId: note, entityId: invoices, importance: 'not important' });
    expect(rerated.structuredContent.created).toBe(false);
    expect(await score(invoices)).toBe(before);
  });

  it('get_note and list_notes answer a conversation note (made through REST) as the REST API does, its parts included; create_note makes text notes', async () => {
    const other = await newWorkspace('MCP conversations');
    const otherClient = await mcpClient(app, { token: other.token });
    try {
      const parts = [{ externalId: 'm1', authorType: 'customer', authorName: 'Ada', content: 'Apple Pay, please', timestamp: '2030-01-01T10:00:00Z' }];
      const chat = await create(app, other.token, '/v2/notes', { type: 'conversation', fields: { name: 'Support chat', content: parts } });
      const rest = await call(app, 'GET', `/v2/notes/${chat}`, { token: other.token });
      const got = await callTool(otherClient, 'get_note', { noteId: chat });
      expect(got.isError, JSON.stringify(got)).toBeFalsy();
      expect(got.structuredContent).toEqual({ note: rest.json.data });
      expect(got.structuredContent.note).toMatchObject({ type: 'conversationNote', fields: { content: parts } });
      const created = await callTool(otherClient, 'create_note', { name: 'Call notes', content: 'Asked for Apple Pay' });
      expect(created.structuredContent.note.type).toBe('textNote');
      const listed = await callTool(otherClient, 'list_notes', {});
      expect(listed.structuredContent.notes.map((n: any) => [n.type, n.fields.name])).toEqual([
        ['textNote', 'Call notes'],
        ['conversationNote', 'Support chat'],
      ]);
    } finally {
      await otherClient.close();
    }
  });

  it("create_note's refusals point at its own arguments, never into the REST body it builds from them (where the customer comes first)", async () => {
    const other = await newWorkspace('MCP pointers');
    const foreign = await create(app, other.token, '/v2/entities', { type: 'product', fields: { name: 'Elsewhere' } });
    const [wallets, gift] = [seeded.features['Wallets']!, seeded.features['Gift cards']!];
    const before = (await callTool(client, 'list_notes', { limit: 100 })).structuredContent.notes.length;
    const createNote = async (args: Record<string, unknown>) => {
      const result = await callTool(client, 'create_note', args);
      expect(JSON.stringify(result)).not.toContain('/data');
      return result;
    };
    expectToolError(await createNote({ name: 'n'.repeat(256) }), 'request.invalid', "'/name' must be at most 255 characters long (got 256).", {
      pointer: '/name',
    });
    expectToolError(await createNote({ name: ' ' }), 'request.invalid', /^'\/name' must have a visible character/, { pointer: '/name' });
    for (const customer of [undefined, { id: seeded.company }, { email: 'bea.buyer@example.com' }]) {
      const withCustomer = customer ? { customer } : {};
      expectToolError(
        await createNote({ name: 'x', ...withCustomer, links: [{ entityId: gift }, { entityId: wallets }, { entityId: wallets }] }),
        'request.invalid',
        `'/links/2/entityId' links entity ${wallets} a second time.`,
        { pointer: '/links/2/entityId' },
      );
      expectToolError(await createNote({ name: 'x', ...withCustomer, links: [{ entityId: gift }, { entityId: foreign }] }), 'resource.notFound', undefined, {
        pointer: '/links/1/entityId',
      });
    }
    expectToolError(await createNote({ name: 'x', customer: { id: foreign } }), 'resource.notFound', undefined, {
      pointer: '/customer/id',
    });
    expect((await callTool(client, 'list_notes', { limit: 100 })).structuredContent.notes).toHaveLength(before);
  });

  it('create_note with an unknown customer e-mail is a tool error and creates nothing', async () => {
    const before = (await callTool(client, 'list_notes', { limit: 100 })).structuredContent.notes.length;
    const result = await callTool(client, 'create_note', { name: 'Nobody', customer: { email: 'nobody@example.com' } });
    expectToolError(result, 'resource.notFound', /nobody@example.com/);
    expect((await callTool(client, 'list_notes', { limit: 100 })).structuredContent.notes).toHaveLength(before);
  });
});

describe('scopes and tenants', () => {
  it("a viewer's token reads but cannot create_note or rate_link (auth.accessDenied)", async () => {
    const viewer = await ws.member({ role: 'viewer' });
    const viewerClient = await mcpClient(app, { token: viewer.token });
    try {
      expect((await callTool(viewerClient, 'get_customer_score', { entityId: seeded.product })).isError).toBeFalsy();
      expectToolError(
        await callTool(viewerClient, 'create_note', { name: 'Not allowed' }),
        'auth.accessDenied',
        "The tool create_note needs the scope 'notes:write', which the token does not carry.",
      );
      expectToolError(
        await callTool(viewerClient, 'rate_link', { noteId: seeded.product, entityId: seeded.product, importance: 'critical' }),
        'auth.accessDenied',
        /notes:write/,
      );
    } finally {
      await viewerClient.close();
    }
  });

  it('a token with only notes:read cannot read scores (entities:read)', async () => {
    const reader = await ws.member({ scopes: ['notes:read'] });
    const readerClient = await mcpClient(app, { token: reader.token });
    try {
      expectToolError(await callTool(readerClient, 'get_customer_score', { entityId: seeded.product }), 'auth.accessDenied', /entities:read/);
      expect((await callTool(readerClient, 'list_notes', {})).isError).toBeFalsy();
    } finally {
      await readerClient.close();
    }
  });

  it("arguments that fail a tool's input schema are a tool error with request.invalid, as the tools' own refusals: the detail in the REST API's words, the argument's pointer as source", async () => {
    const product = seeded.product;
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['get_customer_score', { entityId: 'not-a-uuid' }, "'/entityId' must be a UUID (got 'not-a-uuid').", '/entityId'],
      ['get_customer_score', { entityId: 5 }, "'/entityId' must be a string (got 5).", '/entityId'],
      ['get_customer_score', {}, "'/entityId' is required.", '/entityId'],
      ['rank_by_customer_score', { parentId: product, limit: 1000 }, "'/limit' must be at most 100 (got 1000).", '/limit'],
      // A union says what it takes.
      [
        'get_entity',
        { entityId: product, fields: 'ALL' },
        "'/fields' must be the string 'all' or a non-empty array of field identifiers (got 'ALL').",
        '/fields',
      ],
      ['get_entity', { entityId: product, fields: [] }, "'/fields' must not be empty.", '/fields'],
      ['get_entity', { entityId: product, fields: ['name', 5] }, "'/fields/1' must be a string (got 5).", '/fields/1'],
      [
        'create_note',
        { name: 'x', customer: { id: product, email: 'a@example.com' } },
        "'/customer' must name the customer by id or by e-mail, one of them.",
        '/customer',
      ],
      ['create_note', { name: 'x', links: [{ entityId: product, weight: 1 }] }, "Unknown property 'weight' in '/links/0'.", '/links/0/weight'],
    ];
    for (const [name, args, detail, pointer] of cases) expectToolError(await callTool(client, name, args), 'request.invalid', detail, { pointer });
  });

  it("a tool error the SDK gives itself gets the envelope's code, without the SDK's prefix", () => {
    const sdk = { jsonrpc: '2.0', id: 4, result: { isError: true, content: [{ type: 'text', text: 'MCP error -32602: Tool get_note disabled' }] } };
    expect(withErrorCodes(sdk)).toEqual({
      jsonrpc: '2.0',
      id: 4,
      result: {
        isError: true,
        content: [{ type: 'text', text: 'request.invalid: Tool get_note disabled' }],
        structuredContent: { errors: [{ code: 'request.invalid', title: 'Request schema invalid', detail: 'Tool get_note disabled' }] },
      },
    });
  });

  it('an argument the tool does not take is refused, naming it and those it takes, as REST refuses an unknown property; nothing is written', async () => {
    const before = (await callTool(client, 'list_notes', { limit: 100 })).structuredContent.notes.length;
    const appleBefore = await score(seeded.features['Apple Pay']!);
    // A misspelt customer would otherwise make an anonymous note, which counts 1 where "not important" counts 0.
    expectToolError(
      await callTool(client, 'create_note', {
        name: 'Typo',
        customerEmail: 'bea.buyer@example.com',
        links: [{ entityId: seeded.features['Apple Pay'], importance: 'not important' }],
      }),
      'request.invalid',
      "Unknown argument 'customerEmail' of tool create_note; it takes name, content, customer, links.",
      { pointer: '/customerEmail' },
    );
    expectToolError(await callTool(client, 'create_note', { name: 'Typo', contnet: '<p>feedback</p>' }), 'request.invalid', /'contnet'/, {
      pointer: '/contnet',
    });
    expect((await callTool(client, 'list_notes', { limit: 100 })).structuredContent.notes).toHaveLength(before);
    expect(await score(seeded.features['Apple Pay']!)).toBe(appleBefore);
    // A filter misspelt would otherwise widen the answer to everything.
    expectToolError(await callTool(client, 'search_entities', { types: ['feature'], nmae: 'nothing' }), 'request.invalid', /'nmae'/, { pointer: '/nmae' });
    expectToolError(
      await callTool(client, 'rank_by_customer_score', { parentId: seeded.product, limt: 1 }),
      'request.invalid',
      "Unknown argument 'limt' of tool rank_by_customer_score; it takes parentId, type, limit, cursor.",
      { pointer: '/limt' },
    );
  });

  it("another workspace's ids are not found", async () => {
    const other = await newWorkspace('Other team');
    const otherClient = await mcpClient(app, { token: other.token });
    try {
      expectToolError(await callTool(otherClient, 'get_customer_score', { entityId: seeded.product }), 'resource.notFound');
      expectToolError(await callTool(otherClient, 'rank_by_customer_score', { parentId: seeded.product }), 'resource.notFound');
      expectToolError(await callTool(otherClient, 'get_entity', { entityId: seeded.product }), 'resource.notFound');
      expectToolError(await callTool(otherClient, 'create_note', { name: 'x', links: [{ entityId: seeded.features['Apple Pay'] }] }), 'resource.notFound');
      expect((await callTool(otherClient, 'search_entities', {})).structuredContent.entities).toEqual([]);
    } finally {
      await otherClient.close();
    }
  });
});

describe('HTTP', () => {
  it('GET and DELETE /mcp → 405 with the Allow the edge gives every other method there: POST, OPTIONS', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await call(app, method, '/mcp', { token: ws.token });
      expectError(res, 'request.methodNotAllowed', { detail: method === 'PUT' ? 'This path does not take PUT; it takes POST, OPTIONS.' : /takes only POST/ });
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    }
  });

  it('without a token: 401 pointing at the protected resource metadata', async () => {
    const res = await call(app, 'POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expectError(res, 'auth.invalid');
    expect(challengeOf(res)).toBe(`Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('a malformed JSON-RPC envelope is refused naming the member and the rule, with its pointer', async () => {
    const post = (body: unknown) =>
      call(app, 'POST', '/mcp', { token: ws.token, body, headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-03-26' } });
    const cases: Array<[unknown, string, string]> = [
      [{ jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, "'/id' must be a string or an integer (got an object).", '/id'],
      [{ jsonrpc: '2.0', id: null, method: 'ping' }, "'/id' must be a string or an integer (got null).", '/id'],
      [{ jsonrpc: '2.0', id: 1, method: 5 }, "'/method' must be a string (got 5).", '/method'],
      [{ jsonrpc: '2.0', id: 1, method: 'ping', x: 1 }, "Unknown property 'x' in the body.", '/x'],
      [{ jsonrpc: '2.0', id: 1 }, "'/method' is required (or, in a response, 'result' or 'error').", '/method'],
      [
        { jsonrpc: '2.0', id: 1, method: 'ping', result: {} },
        "'/result' must not be given with 'method': a message is a request or notification, or a response.",
        '/result',
      ],
      [{ jsonrpc: '2.0', id: 1, method: 'ping', params: [1] }, "'/params' must be an object (got an array).", '/params'],
      [
        [
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { jsonrpc: '2.0', id: null, method: 'ping' },
        ],
        "'/1/id' must be a string or an integer (got null).",
        '/1/id',
      ],
    ];
    for (const [body, detail, pointer] of cases) expectError(await post(body), 'request.invalid', { detail, source: { pointer } });
    // What the envelope allows still passes: a request, a notification, a response.
    expect((await post({ jsonrpc: '2.0', id: 'a', method: 'ping' })).json).toEqual({ jsonrpc: '2.0', id: 'a', result: {} });
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await post({ jsonrpc: '2.0', id: 3, result: {} })).status).toBe(202);
  });

  it('an Accept that does not take both application/json and text/event-stream is refused, naming the header; ranges count as RFC 9110 says', async () => {
    const post = (accept: string) => call(app, 'POST', '/mcp', { token: ws.token, body: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: { accept } });
    const refused: Array<[string, string]> = [
      ['application/json', 'text/event-stream'],
      ['text/event-stream', 'application/json'],
      ['application/json, text/event-stream;q=0', 'text/event-stream'],
      ['*/*;q=0', 'application/json or text/event-stream'],
      ['text/*, application/json;q=0', 'application/json'],
      ['text/html', 'application/json or text/event-stream'],
    ];
    for (const [accept, lacking] of refused)
      expectError(await post(accept), 'request.invalid', {
        detail: `Accept ${JSON.stringify(accept)} does not accept ${lacking}: the MCP Streamable HTTP transport requires a client to accept both application/json and text/event-stream (by name, or by a range such as */* or text/*).`,
        source: { parameter: 'Accept' },
      });
    for (const accept of [
      '*/*',
      'application/*, text/*',
      'application/json, text/*',
      'text/event-stream;q=0.5, */*;q=0.1',
      'Application/JSON, Text/Event-Stream',
    ]) {
      const res = await post(accept);
      expect(res.status, `${accept}: ${res.text}`).toBe(200);
      expect(res.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
  });
});
