// A customer who is a person (a user entity): its name and e-mail are personal data, shown only to a
// reader with users:pii:read, and otherwise `[redacted]` as Productboard's entities API answers them —
// on every read (get, list, search, the MCP tools), and never revealed through a name filter.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, mcpClient } from '../mcp/support.ts';
import { call, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
let ws: TestWorkspace;
let user: string;
let company: string;
let unnamed: string;
beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace();
  const create = async (data: unknown) => {
    const res = await call(app, 'POST', '/v2/entities', { token: ws.token, body: { data } });
    expect(res.status, res.text).toBe(201);
    return res.json.data.id as string;
  };
  company = await create({ type: 'company', fields: { name: 'Acme Corp', domain: 'acme.example' } });
  user = await create({
    type: 'user',
    fields: { name: 'Jane Customer', email: 'jane@acme.example' },
    relationships: [{ type: 'parent', target: { id: company } }],
  });
  unnamed = await create({ type: 'user', fields: { name: 'No e-mail' } });
});
afterAll(() => app.close());

const REDACTED = '[redacted]';

describe("a user's name and e-mail", () => {
  it('read [redacted] without users:pii:read on get, list and search; a company and an unset e-mail are unchanged', async () => {
    const { token } = await ws.member({ role: 'viewer', scopes: ['entities:read'] });
    const got = await call(app, 'GET', `/v2/entities/${user}`, { token });
    expect(got.status, got.text).toBe(200);
    expect(got.json.data.fields).toEqual({ name: REDACTED, email: REDACTED, archived: false });
    const all = await call(app, 'GET', `/v2/entities/${unnamed}?fields[]=all`, { token });
    expect(all.json.data.fields).toEqual({ name: REDACTED, email: null, description: null, owner: null, tags: null, archived: false });
    const listed = await call(app, 'GET', '/v2/entities?type[]=user&type[]=company', { token });
    expect(Object.fromEntries(listed.json.data.map((e: { id: string; fields: { name: string } }) => [e.id, e.fields.name]))).toEqual({
      [company]: 'Acme Corp',
      [user]: REDACTED,
      [unnamed]: REDACTED,
    });
    const searched = await call(app, 'POST', '/v2/entities/search', { token, body: { data: { filter: { type: ['user'], id: [user] } } } });
    expect(searched.json.data.map((e: { fields: unknown }) => e.fields)).toEqual([{ name: REDACTED, email: REDACTED, archived: false }]);
  });

  it('read in clear with users:pii:read (which every role holds by default)', async () => {
    const { token } = await ws.member({ role: 'viewer', scopes: ['entities:read', 'users:pii:read'] });
    const got = await call(app, 'GET', `/v2/entities/${user}`, { token });
    expect(got.json.data.fields).toEqual({ name: 'Jane Customer', email: 'jane@acme.example', archived: false });
    const byDefault = await ws.member({ role: 'viewer' });
    expect((await call(app, 'GET', `/v2/entities/${user}`, { token: byDefault.token })).json.data.fields.name).toBe('Jane Customer');
  });

  it('a name filter matches what the reader sees: without the scope, no user is found by its hidden name', async () => {
    const names = async (token: string, query: string, body?: unknown) => {
      const res = body ? await call(app, 'POST', '/v2/entities/search', { token, body }) : await call(app, 'GET', `/v2/entities?${query}`, { token });
      expect(res.status, res.text).toBe(200);
      return res.json.data.map((e: { id: string }) => e.id);
    };
    const narrow = (await ws.member({ role: 'viewer', scopes: ['entities:read'] })).token;
    const wide = (await ws.member({ role: 'viewer', scopes: ['entities:read', 'users:pii:read'] })).token;
    expect(await names(wide, 'name=jane')).toEqual([user]);
    expect(await names(narrow, 'name=jane')).toEqual([]);
    expect(await names(narrow, 'name=acme')).toEqual([company]);
    const search = { data: { filter: { type: ['user'], fields: { name: 'jane' } } } };
    expect(await names(wide, '', search)).toEqual([user]);
    expect(await names(narrow, '', search)).toEqual([]);
  });

  it('through the MCP tools, as through REST: get_entity and search_entities', async () => {
    const { token } = await ws.member({ role: 'viewer', scopes: ['entities:read'] });
    const client: Client = await mcpClient(app, { token });
    try {
      const got = await callTool(client, 'get_entity', { entityId: user });
      expect(got.structuredContent.entity.fields).toEqual({ name: REDACTED, email: REDACTED, archived: false });
      expect(got.content[0]!.text).toBe(`user "${REDACTED}" (${user}).`);
      expect((await callTool(client, 'search_entities', { types: ['user'], name: 'jane' })).structuredContent.entities).toEqual([]);
      const found = await callTool(client, 'search_entities', { types: ['user'] });
      expect(found.structuredContent.entities.map((e: { fields: { name: string } }) => e.fields.name)).toEqual([REDACTED, REDACTED]);
    } finally {
      await client.close();
    }
  });
});
