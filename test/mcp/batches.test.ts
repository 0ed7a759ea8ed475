// JSON-RPC batches on /mcp: refused under the protocol versions that removed them, and under older
// ones charged to the request budget one message at a time, so a batch is no way around the limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newWorkspace, rateLimitEachTest, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
let ws: TestWorkspace;
beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace();
});
afterAll(() => app.close());

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
    });
    expect((await call(app, 'GET', '/v2/notes', { token: member.token })).json.data).toHaveLength(notes);
    // One message under the same version is answered.
    const one = await post(member.token, pings(1)[0], version);
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('under 2025-03-26 (or no version header, which means it), each message spends the budget as one request', async () => {
    const member = await ws.member({ role: 'maker' });
    const three = await post(member.token, pings(3), '2025-03-26');
    expect(three.status, three.text).toBe(200);
    expect(three.json).toEqual([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, result: {} })));
    // Three spent of LIMIT (refills within the second can add at most what the time allows).
    expect(Number(three.headers.get('x-ratelimit-remaining'))).toBeLessThanOrEqual(LIMIT - 3 + 1);
    // A batch larger than the whole budget cannot pass, header or not.
    const other = await ws.member({ role: 'maker' });
    const tooMany = await post(other.token, pings(3 * LIMIT));
    expectError(tooMany, 'rate.limitExceeded', { detail: /^More than 10 requests per second for this member's API tokens; retry after \d+ seconds?\.$/ });
    expect(tooMany.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});
