// A customer who is a person (a user entity): its name and e-mail are personal data, shown only to a
// reader with users:pii:read, and otherwise `[redacted]` as Productboard's entities API answers them —
// on every read (get, list, search, the MCP tools), and never revealed through a name filter or by
// naming a note's customer by e-mail.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, expectToolError, mcpClient } from '../mcp/support.ts';
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

describe("a note's customer named by e-mail", () => {
  // One user has the first, two the second, none the third: without users:pii:read all three must
  // read alike, or the answer tells whether (and how many) users have an e-mail.
  const EMAILS = ['JANE@acme.example', 'twin@acme.example', 'nobody@acme.example'];
  beforeAll(async () => {
    for (const email of ['twin@acme.example', 'Twin@Acme.example']) {
      const res = await call(app, 'POST', '/v2/entities', { token: ws.token, body: { data: { type: 'user', fields: { name: 'Twin', email } } } });
      expect(res.status, res.text).toBe(201);
    }
  });
  const REFUSAL =
    'Naming a customer by e-mail tells whether a user has that e-mail, which takes the users:pii:read scope; this token lacks it. Name the customer by id, or use a token with users:pii:read.';
  const refusal = (pointer: string) => ({ errors: [{ code: 'request.invalid', title: 'Request schema invalid', detail: REFUSAL, source: { pointer } }] });
  const noteIds = async () => {
    const res = await call(app, 'GET', '/v2/notes', { token: ws.token });
    expect(res.status, res.text).toBe(200);
    return res.json.data.map((n: { id: string }) => n.id).sort();
  };
  const customerNote = (target: unknown) => ({
    data: { type: 'textNote', fields: { name: 'By e-mail' }, relationships: [{ type: 'customer', target }] },
  });
  /** The answer without its request id, which alone differs between two requests. */
  const withoutId = (res: { status: number; json: { id?: string } }) => {
    const { id, ...body } = res.json;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    return { status: res.status, body };
  };

  it('without users:pii:read is refused alike whether one user, several or none has the e-mail (POST /v2/notes), and no note is made', async () => {
    const { token } = await ws.member({ role: 'maker', scopes: ['notes:read', 'notes:write', 'entities:read'] });
    const before = await noteIds();
    const answers = [];
    for (const email of EMAILS) answers.push(withoutId(await call(app, 'POST', '/v2/notes', { token, body: customerNote({ email }) })));
    for (const answer of answers) expect(answer).toEqual({ status: 400, body: refusal('/data/relationships/0/target/email') });
    expect(await noteIds()).toEqual(before);
    // By id, the same token gives the note its customer.
    const byId = await call(app, 'POST', '/v2/notes', { token, body: customerNote({ id: user }) });
    expect(byId.status, byId.text).toBe(201);
  });

  it("without users:pii:read is refused alike on a note's customer relationship (POST and PUT), which stays unset", async () => {
    const { token } = await ws.member({ role: 'maker', scopes: ['notes:read', 'notes:write', 'entities:read'] });
    const made = await call(app, 'POST', '/v2/notes', { token, body: { data: { type: 'textNote', fields: { name: 'No customer yet' } } } });
    expect(made.status, made.text).toBe(201);
    const note = made.json.data.id as string;
    for (const email of EMAILS) {
      const posted = await call(app, 'POST', `/v2/notes/${note}/relationships`, { token, body: { data: { type: 'customer', target: { email } } } });
      expect(withoutId(posted)).toEqual({ status: 400, body: refusal('/data/target/email') });
      const put = await call(app, 'PUT', `/v2/notes/${note}/relationships/customer`, { token, body: { data: { target: { type: 'user', email } } } });
      expect(withoutId(put)).toEqual({ status: 400, body: refusal('/data/target/email') });
    }
    const read = await call(app, 'GET', `/v2/notes/${note}`, { token });
    expect(read.json.data.relationships.data).toEqual([]);
  });

  it('with users:pii:read names the user as before: 201 for a known e-mail, 400 for one no user has or several share', async () => {
    const { token } = await ws.member({ role: 'maker', scopes: ['notes:read', 'notes:write', 'entities:read', 'users:pii:read'] });
    const known = await call(app, 'POST', '/v2/notes', { token, body: customerNote({ email: EMAILS[0] }) });
    expect(known.status, known.text).toBe(201);
    const read = await call(app, 'GET', `/v2/notes/${known.json.data.id}`, { token });
    expect(read.json.data.relationships.data.map((r: { type: string; target: { id: string } }) => [r.type, r.target.id])).toEqual([['customer', user]]);
    const before = await noteIds();
    const shared = await call(app, 'POST', '/v2/notes', { token, body: customerNote({ email: EMAILS[1] }) });
    expect(shared.json.errors).toEqual([
      {
        code: 'request.invalid',
        title: 'Request schema invalid',
        detail: "2 users have the e-mail 'twin@acme.example'; give the customer's id instead.",
        source: { pointer: '/data/relationships/0/target/email' },
      },
    ]);
    const unknown = await call(app, 'POST', '/v2/notes', { token, body: customerNote({ email: EMAILS[2] }) });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors).toEqual([
      {
        code: 'request.invalid',
        title: 'Request schema invalid',
        detail: "No user with e-mail 'nobody@acme.example' in this workspace.",
        source: { pointer: '/data/relationships/0/target/email' },
      },
    ]);
    expect(await noteIds()).toEqual(before);
  });

  it('through the MCP create_note tool, as through REST: refused alike without users:pii:read, unchanged with it', async () => {
    const narrow = await mcpClient(app, { token: (await ws.member({ role: 'maker', scopes: ['notes:read', 'notes:write', 'entities:read'] })).token });
    const wide = await mcpClient(app, {
      token: (await ws.member({ role: 'maker', scopes: ['notes:read', 'notes:write', 'entities:read', 'users:pii:read'] })).token,
    });
    try {
      const before = await noteIds();
      for (const email of EMAILS) {
        const result = await callTool(narrow, 'create_note', { name: 'By e-mail', customer: { email } });
        expect(result).toEqual({
          isError: true,
          content: [{ type: 'text', text: `request.invalid: ${REFUSAL}` }],
          structuredContent: refusal('/customer/email'),
        });
      }
      expect(await noteIds()).toEqual(before);
      const byId = await callTool(narrow, 'create_note', { name: 'By id', customer: { id: user } });
      expect(byId.isError, JSON.stringify(byId)).toBeFalsy();

      const known = await callTool(wide, 'create_note', { name: 'By e-mail', customer: { email: EMAILS[0] } });
      expect(known.isError, JSON.stringify(known)).toBeFalsy();
      expect(known.content[0]!.text).toMatch(new RegExp(`for customer ${user}\\.$`));
      const after = await noteIds();
      expectToolError(await callTool(wide, 'create_note', { name: 'Nobody', customer: { email: EMAILS[2] } }), 'resource.notFound', /nobody@acme.example/);
      expectToolError(await callTool(wide, 'create_note', { name: 'Twins', customer: { email: EMAILS[1] } }), 'request.invalid', /^2 users have the e-mail/);
      expect(await noteIds()).toEqual(after);
    } finally {
      await narrow.close();
      await wide.close();
    }
  });
});
