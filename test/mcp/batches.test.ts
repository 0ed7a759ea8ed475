// JSON-RPC batches on /mcp: refused under the protocol versions that removed them, and under older
// ones charged to the request budget one message at a time, so a batch is no way around the limit;
// answered as an array, with no id shared; params a method does not take answered -32602.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, expectError, newWorkspace, rateLimitEachTest, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
let ws: TestWorkspace;
beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace();
});
afterAll(() => app.close());
afterEach(() => {
  vi.useRealTimers();
});

const LIMIT = 10;
rateLimitEachTest(LIMIT);

const pings = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'ping' }));
const post = (token: string, body: unknown, version?: string) =>
  call(app, 'POST', '/mcp', {
    token,
    body,
    headers: { accept: 'application/json, text/event-stream', ...(version ? { 'mcp-protocol-version': version } : {}) },
  });

describe('JSON-RPC batches on the MCP endpoint', () => {
  it.each(['2025-06-18', '2025-11-25'])('under protocol version %s → 400 request.invalid, and nothing runs', async (version) => {
    const member = await ws.member({ role: 'maker', scopes: ['notes:write', 'notes:read'] });
    const notes = (await call(app, 'GET', '/v2/notes', { token: member.token })).json.data.length;
    const create = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_note', arguments: { name: 'batched' } } };
    expectError(await post(member.token, [...pings(1), create], version), 'request.invalid', {
      detail: `A JSON-RPC batch (2 messages) under MCP protocol version ${version}: batches were removed in 2025-06-18; send one message per request.`,
      source: { parameter: 'MCP-Protocol-Version' },
    });
    expect((await call(app, 'GET', '/v2/notes', { token: member.token })).json.data).toHaveLength(notes);
    expectError(await post(member.token, pings(1), version), 'request.invalid', {
      detail: `A JSON-RPC batch (1 message) under MCP protocol version ${version}: batches were removed in 2025-06-18; send one message per request.`,
      source: { parameter: 'MCP-Protocol-Version' },
    });
    // One message under the same version is answered.
    const one = await post(member.token, pings(1)[0], version);
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it.each(['zzz', '1999-01-01', '2025-06-18x'])(
    'under MCP-Protocol-Version %s, which this server does not support, a batch gets the refusal a single message gets: the version is unsupported, not one without batches',
    async (version) => {
      const member = await ws.member({ role: 'maker' });
      const unsupported = {
        detail: `MCP-Protocol-Version "${version}" is not a protocol version this server supports; it supports 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07.`,
        source: { parameter: 'MCP-Protocol-Version' },
      };
      expectError(await post(member.token, pings(1), version), 'request.invalid', unsupported);
      expectError(await post(member.token, pings(1)[0], version), 'request.invalid', unsupported);
    },
  );

  it('a lone initialize request is answered whatever MCP-Protocol-Version says: it negotiates its version in its params', async () => {
    const member = await ws.member({ role: 'maker' });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    };
    const res = await post(member.token, initialize, 'zzz');
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.protocolVersion).toBe('2025-06-18');
  });

  it('under 2025-03-26 (or no version header, which means it), each message spends the budget as one request: a batch of 3 leaves what 3 requests leave, one of k passes with k left, one of k + 1 is refused', async () => {
    // The clock (Date) the budget is counted by is stopped: nothing refills while the test runs.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now());
    const member = await ws.member({ role: 'maker' });
    const three = await post(member.token, pings(3), '2025-03-26');
    expect(three.status, three.text).toBe(200);
    expect(three.json).toEqual([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, result: {} })));
    expect(three.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 3));
    // Brought to k = 4 left by single messages, a twin of k passes and leaves none; one of k + 1 is refused.
    const k = 4;
    const [exact, over] = [await ws.member({ role: 'maker' }), await ws.member({ role: 'maker' })];
    for (const m of [exact, over])
      for (let i = 0; i < LIMIT - k; i++) {
        const one = await post(m.token, pings(1)[0]);
        expect(one.status, one.text).toBe(200);
        expect(one.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1 - i));
      }
    const fits = await post(exact.token, pings(k));
    expect(fits.status, fits.text).toBe(200);
    expect(fits.json).toEqual(pings(k).map(({ id }) => ({ jsonrpc: '2.0', id, result: {} })));
    expect(fits.headers.get('x-ratelimit-remaining')).toBe('0');
    const tooMany = await post(over.token, pings(k + 1));
    expectError(tooMany, 'rate.limitExceeded', { detail: "More than 10 requests per second for this member's API tokens; retry after 1 second." });
    expect(tooMany.headers.get('x-ratelimit-remaining')).toBe('0');
    // A batch larger than the whole budget cannot pass, header or not.
    const other = await ws.member({ role: 'maker' });
    const all = await post(other.token, pings(3 * LIMIT));
    expectError(all, 'rate.limitExceeded', { detail: "More than 10 requests per second for this member's API tokens; retry after 1 second." });
    expect(all.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('a batch is answered with an array, also of one response (JSON-RPC 2.0 §6); a batch of notifications alone gets 202', async () => {
    const member = await ws.member({ role: 'maker' });
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    const one = await post(member.token, pings(1), '2025-03-26');
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    const withNotification = await post(member.token, [...pings(1), initialized], '2025-03-26');
    expect(withNotification.json).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    const onlyNotification = await post(member.token, [initialized], '2025-03-26');
    expect(onlyNotification.status).toBe(202);
    expect(onlyNotification.text).toBe('');
  });

  it('an initialize request among other messages of a batch → 400 pointing at it, and nothing runs', async () => {
    const member = await ws.member({ role: 'maker' });
    const initialize = {
      jsonrpc: '2.0',
      id: 9,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    };
    expectError(await post(member.token, [...pings(1), initialize], '2025-03-26'), 'request.invalid', {
      detail: 'Message 1 of the JSON-RPC batch is an initialize request, which must be sent alone, before any other message. Nothing was run.',
      source: { pointer: '/1/method' },
    });
    const alone = await post(member.token, [initialize], '2025-03-26');
    expect(alone.status, alone.text).toBe(200);
    expect(alone.json[0].result.protocolVersion).toBe('2025-03-26');
  });

  it('two requests of a batch with one id → 400 at the second, and neither runs', async () => {
    const member = await ws.member({ role: 'maker', scopes: ['notes:write', 'notes:read'] });
    const notes = async () => (await call(app, 'GET', '/v2/notes', { token: member.token })).json.data.length as number;
    const before = await notes();
    const create = (name: string, id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'create_note', arguments: { name } } });
    expectError(await post(member.token, [create('first', 1), create('second', 1)], '2025-03-26'), 'request.invalid', {
      detail:
        'Messages 0 and 1 of the JSON-RPC batch are requests with the same id 1: each request of a batch needs its own id, by which its answer is told apart. Nothing was run.',
      source: { pointer: '/1/id' },
    });
    expect(await notes()).toBe(before);
    // 1 and "1" are two ids.
    const distinct = await post(member.token, [create('first', 1), create('second', '1')], '2025-03-26');
    expect(distinct.json.map((m: { id: unknown }) => m.id)).toEqual([1, '1']);
    expect(await notes()).toBe(before + 2);
  });
});

describe('params a method does not take', () => {
  it('→ JSON-RPC "Invalid params" (-32602) saying what is wrong, not a server fault; in a batch, the other requests are answered', async () => {
    const member = await ws.member({ role: 'maker', scopes: ['notes:write', 'notes:read'] });
    const cases: Array<[unknown, string]> = [
      [{ name: 'get_entity', arguments: 'x' }, "Invalid params of tools/call: '/params/arguments' must be an object (got 'x')."],
      [{ name: 5 }, "Invalid params of tools/call: '/params/name' must be a string (got 5)."],
      [undefined, "Invalid params of tools/call: '/params' is required."],
      // A tool the server does not have is a protocol error (MCP 2025-06-18, server/tools, "Error Handling"), naming those it has.
      [
        { name: 'drop_tables', arguments: {} },
        "Invalid params of tools/call: '/params/name' must be one of 'get_customer_score', 'rank_by_customer_score', 'search_entities', 'get_entity', 'get_customer_demand', 'rank_plan_by_customer_score', 'list_releases_of_area', 'list_objectives', 'list_notes', 'get_note', 'create_note', 'rate_link' (got 'drop_tables').",
      ],
    ];
    for (const [params, message] of cases) {
      const res = await post(member.token, { jsonrpc: '2.0', id: 7, method: 'tools/call', ...(params === undefined ? {} : { params }) });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message } });
    }
    // tools/list gives every tool at once and no nextCursor, so any cursor is one it never issued (MCP pagination, "Error Handling").
    for (const cursor of ['zzz', '']) {
      const res = await post(member.token, { jsonrpc: '2.0', id: 8, method: 'tools/list', params: { cursor } });
      expect(res.json).toEqual({
        jsonrpc: '2.0',
        id: 8,
        error: {
          code: -32602,
          message:
            "Invalid params of tools/list: '/params/cursor' is no cursor of this server: tools/list answers every tool at once, with no nextCursor; send it without a cursor.",
        },
      });
    }
    const all = await post(member.token, { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} });
    expect(all.json.result.tools).toHaveLength(12);
    expect(all.json.result.nextCursor).toBeUndefined();
    const notes = (await call(app, 'GET', '/v2/notes', { token: member.token })).json.data.length as number;
    const mixed = await post(
      member.token,
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 5 } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_note', arguments: { name: 'kept' } } },
      ],
      '2025-03-26',
    );
    expect(mixed.status, mixed.text).toBe(200);
    const byId = new Map(mixed.json.map((m: { id: number }) => [m.id, m]));
    expect(byId.get(1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: "Invalid params of tools/list: '/params/cursor' must be a string (got 5)." },
    });
    expect((byId.get(2) as { result: { isError?: boolean } }).result.isError).toBeUndefined();
    expect((await call(app, 'GET', '/v2/notes', { token: member.token })).json.data).toHaveLength(notes + 1);
  });
});

describe('a `_meta` the transport does not take', () => {
  it('on a notification, a response or a method this server lacks → 400 request.invalid pointing at it (in a batch, at its message); on a request answered here, "Invalid params" like its other params', async () => {
    const member = await ws.member({ role: 'maker' });
    const cases: Array<[unknown, string, string]> = [
      [{ jsonrpc: '2.0', method: 'notifications/initialized', params: { _meta: 5 } }, "'/params/_meta' must be an object (got 5).", '/params/_meta'],
      [
        { jsonrpc: '2.0', id: 3, method: 'resources/list', params: { _meta: { progressToken: true } } },
        "'/params/_meta/progressToken' does not match any of the forms it may take (got true).",
        '/params/_meta/progressToken',
      ],
      [{ jsonrpc: '2.0', id: 4, result: { _meta: 'x' } }, "'/result/_meta' must be an object (got 'x').", '/result/_meta'],
    ];
    for (const [body, detail, at] of cases) expectError(await post(member.token, body), 'request.invalid', { detail, source: { pointer: at } });
    expectError(
      await post(member.token, [...pings(1), { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: [] } }], '2025-03-26'),
      'request.invalid',
      { detail: "'/1/params/_meta' must be an object (got an array).", source: { pointer: '/1/params/_meta' } },
    );
    const known = await post(member.token, { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: 'x' } });
    expect(known.json).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32602, message: "Invalid params of tools/list: '/params/_meta' must be an object (got 'x')." },
    });
    // A `_meta` the transport takes passes, with members of the client's own.
    const fine = await post(member.token, {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
      params: { _meta: { progressToken: 'p', 'example.com/x': 1 } },
    });
    expect(fine.status, fine.text).toBe(202);
  });
});
