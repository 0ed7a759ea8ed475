// The spec's Fields table on list entities, search entities and list notes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFieldValue } from '#lib/store/field-values.ts';
import { fieldCommands } from '../../local/admin/fields.ts';
import { seedEntities, seedNotes } from '../pagination/seed.ts';
import { call, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

/** A select field's option as it reads: {id, name}. */
const option = (name: string) => ({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name });

const fieldAdd = fieldCommands.find((c) => c.name === 'field add')!;
const addField = async (ws: string, entityType: string, name: string, kind: string, options?: string) =>
  ((await fieldAdd.run({ workspace: ws, 'entity-type': entityType, name, kind, ...(options ? { options } : {}) })) as { id: string }).id;

let app: TestApp;
let ws: TestWorkspace;
let size: string; // select custom field on feature
let due: string; // date custom field on product
let noteScore: string; // number custom field on notes
let t: { id: string; name: string }; // a tag value

beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace();
  size = await addField(ws.workspaceId, 'feature', 'Size', 'select', 'S,M,L');
  due = await addField(ws.workspaceId, 'product', 'Due', 'date');
  noteScore = await addField(ws.workspaceId, 'textNote', 'Score', 'number');
  const tag = await createFieldValue(ws.workspaceId, { kind: 'tags' }, { name: 't' });
  t = { id: tag.id, name: tag.name };
  // A select option stored by its name (as before options had ids) reads as that option.
  await seedEntities(ws.workspaceId, 1, { type: 'feature', fields: () => ({ name: 'A', description: '', tags: [t], [size]: 'M' }) });
  await seedEntities(ws.workspaceId, 1, { type: 'feature', fields: () => ({ name: 'B', tags: [] }) });
  await seedEntities(ws.workspaceId, 1, { type: 'user', fields: () => ({ name: 'U', email: 'u@example.com' }) });
  await seedNotes(ws.workspaceId, 1, { fields: () => ({ name: 'N', content: '<p>hi</p>', [noteScore]: 0 }) });
  await seedNotes(ws.workspaceId, 1, { fields: () => ({ name: 'M', tags: [] }) });
});
afterAll(async () => {
  await app.close();
});

const fieldsOf = (res: { json: any }) => res.json.data.map((r: any) => r.fields);
const get = (path: string) => call(app, 'GET', path, { token: ws.token });
const search = (data: unknown, query = '') => call(app, 'POST', `/v2/entities/search${query}`, { token: ws.token, body: { data } });

describe('fields on GET /v2/entities', () => {
  it('parameter omitted → only fields with non-empty values', async () => {
    expect(fieldsOf(await get('/v2/entities?type=feature'))).toEqual([
      { name: 'A', tags: [t], archived: false, [size]: option('M') },
      { name: 'B', archived: false },
    ]);
  });

  it('fields[]=all → every configured field, nulls included', async () => {
    const res = await get('/v2/entities?type=feature&fields[]=all');
    expect(fieldsOf(res)).toEqual([
      { name: 'A', description: '', status: null, owner: null, tags: [t], teams: null, timeframe: null, archived: false, [size]: option('M') },
      // A list left empty is no value.
      { name: 'B', description: null, status: null, owner: null, tags: null, teams: null, timeframe: null, archived: false, [size]: null },
    ]);
  });

  it('a list → exactly those fields even when null; custom fields by uuid', async () => {
    const res = await get(`/v2/entities?type=feature&fields[]=${size}&fields[]=owner`);
    expect(fieldsOf(res)).toEqual([
      { [size]: option('M'), owner: null },
      { [size]: null, owner: null },
    ]);
  });

  it('a field configured on some listed types only: accepted, shown on records of those types only', async () => {
    const res = await get('/v2/entities?type[]=feature&type[]=user&fields[]=email&fields[]=name');
    expect(res.json.data.map((r: any) => [r.type, r.fields])).toEqual([
      ['feature', { name: 'A' }],
      ['feature', { name: 'B' }],
      ['user', { email: 'u@example.com', name: 'U' }],
    ]);
  });

  it('unknown field identifiers → 400 request.invalid, "Request schema invalid", detail naming each, source.parameter fields[]', async () => {
    const res = await get('/v2/entities?fields[]=name&fields[]=bogus');
    expectError(res, 'request.invalid', { detail: /Unknown field identifier 'bogus'/, source: { parameter: 'fields[]' } });
    expect(res.json.errors[0].title).toBe('Request schema invalid');
    expectError(await get('/v2/entities?type=feature&fields[]=aa&fields[]=name&fields[]=bb'), 'request.invalid', {
      detail: "Unknown field identifiers 'aa', 'bb': no field with these ids is configured for feature.",
      source: { parameter: 'fields[]' },
    });
  });

  it('a custom field of another type, or of another workspace, is unknown here', async () => {
    expectError(await get(`/v2/entities?type=feature&fields[]=${due}`), 'request.invalid', { detail: new RegExp(due), source: { parameter: 'fields[]' } });
    const other = await newWorkspace();
    const res = await call(app, 'GET', `/v2/entities?fields[]=${size}`, { token: other.token });
    expectError(res, 'request.invalid', { detail: new RegExp(size), source: { parameter: 'fields[]' } });
  });

  it('`all` combined with identifiers → 400 request.invalid with source.parameter', async () => {
    expectError(await get('/v2/entities?fields[]=all&fields[]=name'), 'request.invalid', { detail: /'all'.*'name'/, source: { parameter: 'fields[]' } });
  });

  it('an empty identifier → 400 on fields[]', async () => {
    expectError(await get('/v2/entities?fields[]='), 'request.invalid', { source: { parameter: 'fields[]' } });
  });
});

describe('fields in POST /v2/entities/search (data.fields)', () => {
  it('omitted → only non-empty fields', async () => {
    expect(fieldsOf(await search({ types: ['feature'] }))).toEqual([
      { name: 'A', tags: [t], archived: false, [size]: option('M') },
      { name: 'B', archived: false },
    ]);
  });

  it("'all' → every configured field with nulls", async () => {
    const res = await search({ types: ['user'], fields: 'all' });
    expect(fieldsOf(res)).toEqual([{ name: 'U', description: null, owner: null, tags: null, archived: false, email: 'u@example.com' }]);
  });

  it('a list → exactly those fields', async () => {
    expect(fieldsOf(await search({ types: ['feature'], fields: ['description', size] }))).toEqual([
      { description: '', [size]: option('M') },
      { description: null, [size]: null },
    ]);
  });

  it('unknown identifier → 400 with source.pointer /data/fields/<index>', async () => {
    expectError(await search({ types: ['feature'], fields: ['name', 'email'] }), 'request.invalid', {
      detail: /Unknown field identifier 'email'/,
      source: { pointer: '/data/fields/1' },
    });
  });

  it("'all' with identifiers → 400 with source.pointer /data/fields", async () => {
    expectError(await search({ types: ['feature'], fields: ['all', 'name'] }), 'request.invalid', { source: { pointer: '/data/fields' } });
  });
});

// Notes are listed newest first: M, then N.
describe('fields on GET /v2/notes (`fields` and `fields[]`)', () => {
  it('omitted → only non-empty fields (0 is a value)', async () => {
    expect(fieldsOf(await get('/v2/notes'))).toEqual([
      { name: 'M', processed: false, archived: false },
      { name: 'N', content: '<p>hi</p>', processed: false, archived: false, [noteScore]: 0 },
    ]);
  });

  it('fields=all and fields[]=all → every configured note field', async () => {
    const expected = [
      // Seeded straight into the store: no creator, neither processed nor archived (read as false).
      { name: 'M', content: null, tags: [], owner: null, creator: null, processed: false, archived: false, [noteScore]: null },
      { name: 'N', content: '<p>hi</p>', tags: null, owner: null, creator: null, processed: false, archived: false, [noteScore]: 0 },
    ];
    expect(fieldsOf(await get('/v2/notes?fields=all'))).toEqual(expected);
    expect(fieldsOf(await get('/v2/notes?fields[]=all'))).toEqual(expected);
  });

  it('both spellings together name one list', async () => {
    expect(fieldsOf(await get(`/v2/notes?fields=content&fields[]=${noteScore}`))).toEqual([
      { content: null, [noteScore]: null },
      { content: '<p>hi</p>', [noteScore]: 0 },
    ]);
  });

  it('unknown identifier → 400 naming the parameter it came in', async () => {
    expectError(await get('/v2/notes?fields=bogus'), 'request.invalid', { detail: /'bogus'/, source: { parameter: 'fields' } });
    expectError(await get('/v2/notes?fields[]=status'), 'request.invalid', { detail: /'status'/, source: { parameter: 'fields[]' } });
  });

  it('`all` with identifiers → 400 with source.parameter', async () => {
    expectError(await get('/v2/notes?fields=all&fields=name'), 'request.invalid', { source: { parameter: 'fields' } });
  });
});

describe('fields survive pagination', () => {
  it('every page of a fields[] list applies the same selection', async () => {
    const other = await newWorkspace();
    await seedEntities(other.workspaceId, 5, { type: 'product' });
    const first = await call(app, 'GET', '/v2/entities?fields[]=description&limit=2', { token: other.token });
    const second = await call(app, 'GET', first.json.links.next.slice(app.url.length), { token: other.token });
    expect(second.json.data.map((r: any) => r.fields)).toEqual([{ description: null }, { description: null }]);
  });
});
