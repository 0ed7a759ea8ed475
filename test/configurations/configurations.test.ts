// Configurations: every configured field of a type (standard identifiers and the workspace's
// custom fields by uuid) with a JSON Schema of its value; custom fields defined by `admin field add`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCustomFields } from '#lib/store/custom-fields.ts';
import { UsageError } from '../../local/admin/command.ts';
import { fieldCommands } from '../../local/admin/fields.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

const fieldAdd = fieldCommands.find((c) => c.name === 'field add')!;

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app.close();
});

describe('entity configurations', () => {
  it('GET /v2/entities/configurations/{type}: standard fields with JSON Schemas, then custom fields by uuid', async () => {
    const ws = await newWorkspace();
    const { id } = (await fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'feature', name: 'Size', kind: 'select', options: 'S, M,L' })) as {
      id: string;
    };
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const res = await call(app, 'GET', '/v2/entities/configurations/feature', { token: ws.token });
    expect(res.status, res.text).toBe(200);
    const data = res.json.data;
    expect(data.type).toBe('feature');
    expect(Object.keys(data.fields)).toEqual(['name', 'description', 'status', 'owner', 'tags', 'teams', 'timeframe', 'archived', id]);
    for (const [key, f] of Object.entries<any>(data.fields)) expect(f.id).toBe(key);
    expect(data.fields.name).toEqual({
      id: 'name',
      name: 'Name',
      path: '/fields/name',
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        pattern: '[^\\s\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]',
      },
    });
    expect(data.fields.archived.schema).toEqual({ type: 'boolean' });
    // An entity's tags are the workspace's tag values, by id and name.
    expect(data.fields.tags.schema).toMatchObject({ type: 'array', items: { type: 'object', required: ['id', 'name'] } });
    expect(data.fields.teams.schema).toMatchObject({ type: 'array', items: { type: 'object', required: ['id', 'name'] } });
    // A select field's option reads as Productboard's single-select value, {id, name}.
    expect(data.fields[id]).toEqual({
      id,
      name: 'Size',
      path: `/fields/${id}`,
      schema: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string', enum: ['S', 'M', 'L'] } },
        required: ['id', 'name'],
        additionalProperties: false,
      },
    });
    expect(data.relationships.parent).toEqual({ targetType: ['product', 'component'], cardinality: 'single', mandatory: true });
    expect(data.links).toEqual({ self: `${app.baseUrl}/entities/configurations/feature` });
  });

  it('user and company carry their own standard fields', async () => {
    const ws = await newWorkspace();
    const user = await call(app, 'GET', '/v2/entities/configurations/user', { token: ws.token });
    expect(Object.keys(user.json.data.fields)).toEqual(['name', 'description', 'owner', 'tags', 'archived', 'email']);
    const company = await call(app, 'GET', '/v2/entities/configurations/company', { token: ws.token });
    expect(Object.keys(company.json.data.fields)).toEqual(['name', 'description', 'owner', 'tags', 'archived', 'domain']);
  });

  it('GET /v2/entities/configurations lists every type; type[] filters', async () => {
    const ws = await newWorkspace();
    const all = await call(app, 'GET', '/v2/entities/configurations', { token: ws.token });
    expect(all.json.data.map((c: any) => c.type)).toEqual([
      'product',
      'component',
      'feature',
      'subfeature',
      'initiative',
      'objective',
      'keyResult',
      'release',
      'releaseGroup',
      'user',
      'company',
    ]);
    expect(all.json.links).toEqual({});
    const some = await call(app, 'GET', '/v2/entities/configurations?type[]=subfeature&type[]=product', { token: ws.token });
    expect(some.json.data.map((c: any) => c.type)).toEqual(['subfeature', 'product']);
    expectError(await call(app, 'GET', '/v2/entities/configurations?type[]=theme', { token: ws.token }), 'request.invalid', {
      detail: /'theme'/,
      source: { parameter: 'type[]' },
    });
  });

  it('an unknown type → 404 resource.notFound', async () => {
    const ws = await newWorkspace();
    expectError(await call(app, 'GET', '/v2/entities/configurations/theme', { token: ws.token }), 'resource.notFound', { detail: /'theme'/ });
  });

  it('custom fields are per workspace and per type, with a schema per kind', async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    const add = async (type: string, name: string, kind: string) =>
      ((await fieldAdd.run({ workspace: a.workspaceId, 'entity-type': type, name, kind })) as { id: string }).id;
    const text = await add('product', 'Notes', 'text');
    const num = await add('product', 'Effort', 'number');
    const date = await add('product', 'Due', 'date');
    const res = await call(app, 'GET', '/v2/entities/configurations/product', { token: a.token });
    expect([res.json.data.fields[text].schema, res.json.data.fields[num].schema, res.json.data.fields[date].schema]).toEqual([
      { type: 'string', maxLength: 10000 },
      { type: 'number', minimum: -9007199254740991, maximum: 9007199254740991 },
      { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    ]);
    const otherType = await call(app, 'GET', '/v2/entities/configurations/component', { token: a.token });
    expect(Object.keys(otherType.json.data.fields)).not.toContain(text);
    const otherWs = await call(app, 'GET', '/v2/entities/configurations/product', { token: b.token });
    expect(Object.keys(otherWs.json.data.fields)).toEqual(['name', 'description', 'status', 'owner', 'tags', 'teams', 'timeframe', 'archived']);
  });

  it('needs entities:read', async () => {
    const ws = await newWorkspace();
    const m = await ws.member({ role: 'admin', scopes: ['notes:read'] });
    expectError(await call(app, 'GET', '/v2/entities/configurations', { token: m.token }), 'auth.accessDenied');
  });
});

describe('note configurations', () => {
  it('GET /v2/notes/configurations and /{type}: note fields and note custom fields', async () => {
    const ws = await newWorkspace();
    const { id } = (await fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'textNote', name: 'Revenue', kind: 'number' })) as { id: string };
    const list = await call(app, 'GET', '/v2/notes/configurations', { token: ws.token });
    expect(list.status, list.text).toBe(200);
    expect(list.json.data.map((c: any) => c.type)).toEqual(['textNote', 'conversationNote']);
    const one = await call(app, 'GET', '/v2/notes/configurations/textNote', { token: ws.token });
    expect(Object.keys(one.json.data.fields)).toEqual(['name', 'content', 'tags', 'owner', 'creator', 'processed', 'archived', id]);
    expect(one.json.data.fields.processed).toEqual({ id: 'processed', name: 'Processed', path: '/fields/processed', schema: { type: 'boolean' } });
    expect(one.json.data.relationships.customer).toEqual({ targetType: ['user', 'company'], cardinality: 'single', mandatory: false });
    expect(one.json.data.links).toEqual({ self: `${app.baseUrl}/notes/configurations/textNote` });
    expectError(await call(app, 'GET', '/v2/notes/configurations/feature', { token: ws.token }), 'resource.notFound');
    expectError(await call(app, 'GET', '/v2/notes/configurations?type[]=feature', { token: ws.token }), 'request.invalid', { source: { parameter: 'type[]' } });
  });

  it('conversationNote: its content is a list of parts (bounded), its custom fields its own; aliases and type filters name it; opportunityNote is none', async () => {
    const ws = await newWorkspace();
    const { id } = (await fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'conversationNote', name: 'Channel', kind: 'text' })) as { id: string };
    const get = (path: string) => call(app, 'GET', `/v2/notes/configurations${path}`, { token: ws.token });
    const one = await get('/conversation');
    expect(one.status, one.text).toBe(200);
    expect(one.json.data.type).toBe('conversationNote');
    expect(one.json.data.links).toEqual({ self: `${app.baseUrl}/notes/configurations/conversationNote` });
    expect(Object.keys(one.json.data.fields)).toEqual(['name', 'content', 'tags', 'owner', 'creator', 'processed', 'archived', id]);
    expect(one.json.data.fields.content).toEqual({
      id: 'content',
      name: 'Content',
      path: '/fields/content',
      schema: {
        type: 'array',
        maxItems: 50,
        description: 'The parts of the conversation, in the order given',
        items: {
          type: 'object',
          properties: {
            externalId: { type: 'string', minLength: 1, maxLength: 100, description: "The part's id in the external system; a part is told apart by it" },
            authorType: { type: 'string', enum: ['customer', 'agent'] },
            authorName: { type: 'string', maxLength: 100 },
            content: { type: 'string', maxLength: 1000 },
            timestamp: { type: 'string', format: 'date-time', pattern: expect.any(String) },
          },
          required: ['externalId', 'authorType', 'content', 'timestamp'],
          additionalProperties: false,
        },
      },
    });
    expect(one.json.data.relationships).toEqual((await get('/textNote')).json.data.relationships);
    // The text note's content stays HTML, and a conversation's custom field is not the text note's.
    const text = (await get('/simple')).json.data;
    expect(text.fields.content.schema).toEqual({ type: 'string', maxLength: 100_000, description: 'HTML' });
    expect(Object.keys(text.fields)).not.toContain(id);
    const types = async (query: string) => ((await get(query)).json.data as Array<{ type: string }>).map((c) => c.type);
    expect(await types('?type[]=conversation')).toEqual(['conversationNote']);
    expect(await types('?type=conversationNote')).toEqual(['conversationNote']);
    expect(await types('?type[]=simple&type[]=conversation')).toEqual(['textNote', 'conversationNote']);
    expectError(await get('/opportunityNote'), 'resource.notFound', { detail: /opportunity notes cannot be created through the API/ });
    expectError(await get('?type[]=opportunity'), 'request.invalid', {
      source: { parameter: 'type[]' },
      detail: /opportunity notes cannot be created through the API/,
    });
  });
});

describe('admin field add', () => {
  it.each<[string, Record<string, string>, RegExp | string]>([
    ['unknown type', { 'entity-type': 'theme', name: 'X', kind: 'text' }, /--entity-type/],
    ['unknown kind', { 'entity-type': 'feature', name: 'X', kind: 'boolean' }, /--kind/],
    ['select without options', { 'entity-type': 'feature', name: 'X', kind: 'select' }, /--options/],
    ['options on a text field', { 'entity-type': 'feature', name: 'X', kind: 'text', options: 'a,b' }, /--options/],
    ['missing name', { 'entity-type': 'feature', kind: 'text' }, /--name/],
    [
      'a name without a visible character',
      { 'entity-type': 'feature', name: '\u200b', kind: 'text' },
      "--name must have a visible character, not only white space (got '\u200b').",
    ],
  ])('%s → usage error, nothing stored', async (_n, options, message) => {
    const ws = await newWorkspace();
    await expect(fieldAdd.run({ workspace: ws.workspaceId, ...options })).rejects.toThrow(message);
    expect(await listCustomFields(ws.workspaceId)).toEqual([]);
  });

  it('select options held to the limits of the field-values API (a name of 1 to 255 characters, a visible one among them; at most 200 options) → usage error naming the option, nothing stored', async () => {
    const ws = await newWorkspace();
    const add = (options: string) => fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'feature', name: 'Size', kind: 'select', options });
    await expect(add(`S,${'x'.repeat(256)},M`)).rejects.toThrow(
      new UsageError(
        `--options: option 2 ('${'x'.repeat(59)}…') is not a name the field-values API takes: '/name' must be at most 255 characters long (got 256).`,
      ),
    );
    await expect(add('S,\u00ad\u200b')).rejects.toThrow(
      new UsageError(
        "--options: option 2 ('\u00ad\u200b') is not a name the field-values API takes: '/name' must have a visible character, not only white space (got '\u00ad\u200b').",
      ),
    );
    await expect(add('S,M,s')).rejects.toThrow(
      new UsageError("--options: option 3 ('s') differs from 'S' only in case; option names are unique regardless of case"),
    );
    // An empty option (two commas in a row, or one at an end) is a slip, named rather than dropped.
    await expect(add('a,,b')).rejects.toThrow(new UsageError('--options: option 2 of 3 is empty (two commas in a row, or a comma at an end)'));
    await expect(add('a,b, ')).rejects.toThrow(new UsageError('--options: option 3 of 3 is empty (two commas in a row, or a comma at an end)'));
    const many = Array.from({ length: 201 }, (_, i) => `option ${i}`);
    await expect(add(many.join(','))).rejects.toThrow(new UsageError('--options gives 201 options; a select field holds at most 200'));
    expect(await listCustomFields(ws.workspaceId)).toEqual([]);
    // At the limits: 200 options of 255 characters each.
    const widest = many.slice(0, 200).map((o) => o.padEnd(255, '.'));
    await add(widest.join(','));
    expect((await listCustomFields(ws.workspaceId)).map((d) => d.options)).toEqual([widest]);
  });

  it('a duplicate name on one type, or an unknown workspace → usage error', async () => {
    const ws = await newWorkspace();
    await fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'feature', name: 'Size', kind: 'text' });
    await expect(fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'feature', name: 'size', kind: 'number' })).rejects.toBeInstanceOf(UsageError);
    // The same name on another type is another field.
    await fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'product', name: 'Size', kind: 'text' });
    await expect(fieldAdd.run({ workspace: '00000000-0000-4000-8000-000000000000', 'entity-type': 'feature', name: 'X', kind: 'text' })).rejects.toThrow(
      /No workspace/,
    );
    expect((await listCustomFields(ws.workspaceId)).map((d) => [d.entityType, d.name])).toEqual([
      ['feature', 'Size'],
      ['product', 'Size'],
    ]);
  });

  it('adds of one name at the same time, in any case → one field, the others a usage error naming it', async () => {
    const ws = await newWorkspace();
    const names = ['Effort', 'effort', 'EFFORT', 'Effort', 'eFFort', 'Effort'];
    const results = await Promise.allSettled(names.map((name) => fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': 'feature', name, kind: 'number' })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(r.reason).toBeInstanceOf(UsageError);
      expect(r.reason.message).toMatch(/^A custom field named '(Effort|effort|EFFORT|eFFort)' already exists on feature\.$/);
    }
    expect((await listCustomFields(ws.workspaceId)).map((d) => [d.entityType, d.name.toLowerCase()])).toEqual([['feature', 'effort']]);
  });
});
