// Conversation notes (Productboard's conversationNote, alias `conversation`): their content is a
// list of parts kept by externalId; everything else is a note's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldCommands } from '../../local/admin/fields.ts';
import { client } from '../score/helpers.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const part = (externalId: string, content = `message ${externalId}`, more: Record<string, unknown> = {}) => ({
  externalId,
  authorType: 'customer',
  content,
  timestamp: '2030-01-01T10:00:00Z',
  ...more,
});

type Client = ReturnType<typeof client>;
const conversation = async (c: Client, name: string, content: unknown[], more: Record<string, unknown> = {}) => {
  const res = await c.req('POST', '/notes', { data: { type: 'conversation', fields: { name, content }, ...more } });
  expect(res.status, res.text).toBe(201);
  return res.json.data.id as string;
};

describe('conversation notes', () => {
  it('create (alias accepted) → 201 conversationNote; GET shows the parts as written; list and search filter by type (aliases too); DELETE → 204 then 404', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const parts = [part('m1', 'Hello', { authorType: 'agent' }), part('m2', 'Apple Pay fails', { authorName: 'Ada', timestamp: '2030-01-01T11:00:00+02:00' })];
    const res = await c.req('POST', '/notes', {
      data: { type: 'conversation', fields: { name: 'Support chat', content: parts, tags: [{ name: 'support' }] } },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.json.data.id;
    expect(res.json).toEqual({ data: { id, type: 'conversationNote', links: { self: `${app.baseUrl}/notes/${id}`, html: `${app.webUrl}/notes/${id}` } } });
    const text = await c.note();
    const got = (await c.ok('GET', `/notes/${id}`)).json.data;
    expect(got.type).toBe('conversationNote');
    expect(got.fields).toEqual({
      name: 'Support chat',
      content: parts,
      tags: [{ name: 'support' }],
      creator: { id: ws.admin.id, email: ws.admin.email },
      processed: false,
      archived: false,
    });
    // The field selection works as on a text note: named fields only, or all of them with nulls.
    expect((await c.ok('GET', `/notes/${id}?fields=content`)).json.data.fields).toEqual({ content: parts });
    expect((await c.ok('GET', `/notes/${id}?fields[]=all`)).json.data.fields).toEqual({
      name: 'Support chat',
      content: parts,
      tags: [{ name: 'support' }],
      owner: null,
      creator: { id: ws.admin.id, email: ws.admin.email },
      processed: false,
      archived: false,
    });
    const ids = async (query: string) => ((await c.ok('GET', `/notes${query}`)).json.data as Array<{ id: string }>).map((n) => n.id);
    // Newest first: the text note was created after the conversation.
    expect(await ids('')).toEqual([text, id]);
    expect(await ids('?type[]=conversation')).toEqual([id]);
    expect(await ids('?type=conversationNote')).toEqual([id]);
    expect(await ids('?type=simple')).toEqual([text]);
    expect(await ids('?type[]=textNote&type[]=conversationNote')).toEqual([text, id]);
    const search = async (data: unknown) => ((await c.ok('POST', '/notes/search', { data })).json.data as Array<{ id: string }>).map((n) => n.id);
    expect(await search({ filter: { type: 'conversation' } })).toEqual([id]);
    expect(await search({ filter: { type: ['textNote'] } })).toEqual([text]);
    // The search text reaches into the parts.
    expect(await search({ search: { query: 'apple pay' } })).toEqual([id]);
    expect(await search({ filter: { type: 'textNote' }, search: { query: 'apple pay' } })).toEqual([]);
    expectError(await c.req('GET', '/notes?type=opportunityNote'), 'request.invalid', {
      source: { parameter: 'type' },
      detail: /opportunity notes cannot be created through the API/,
    });
    expect((await c.req('DELETE', `/notes/${id}`)).status).toBe(204);
    expectError(await c.req('GET', `/notes/${id}`), 'resource.notFound');
    expect(await ids('?type=conversation')).toEqual([]);
  });

  it('an owner named by e-mail (any case) on create or PATCH resolves to the member, as on a text note', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const res = await c.req('POST', '/notes', {
      data: { type: 'conversationNote', fields: { name: 'Chat', content: [part('o1')], owner: { email: ws.admin.email.toUpperCase() } } },
    });
    expect(res.status, res.text).toBe(201);
    const patched = await conversation(c, 'Chat 2', [part('o2')]);
    await c.ok('PATCH', `/notes/${patched}`, { data: { fields: { owner: { email: ws.admin.email } } } });
    for (const id of [res.json.data.id as string, patched]) {
      expect((await c.ok('GET', `/notes/${id}?fields=owner`)).json.data.fields).toEqual({ owner: { id: ws.admin.id, email: ws.admin.email } });
    }
  });

  it('PATCH content: data.fields sets the parts; data.patch set, addItems (the same part again changes nothing), removeItems by {externalId} or the bare id, clear', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const id = await conversation(c, 'Chat', [part('m1')]);
    const content = async () => (await c.ok('GET', `/notes/${id}`)).json.data.fields.content;
    const patch = (ops: unknown[]) => c.ok('PATCH', `/notes/${id}`, { data: { patch: ops } });
    const answer = await c.ok('PATCH', `/notes/${id}`, { data: { type: 'conversation', fields: { content: [part('a'), part('b')] } } });
    expect(answer.json.data.type).toBe('conversationNote');
    expect(await content()).toEqual([part('a'), part('b')]);
    await patch([{ op: 'addItems', path: 'content', value: [part('b'), part('c', 'Hi', { authorType: 'agent', authorName: 'Bob' })] }]);
    expect(await content()).toEqual([part('a'), part('b'), part('c', 'Hi', { authorType: 'agent', authorName: 'Bob' })]);
    // Replacing a part: remove it, then add it, in one patch.
    await patch([
      { op: 'removeItems', path: 'content', value: [{ externalId: 'a' }, 'c', 'not-there'] },
      { op: 'removeItems', path: 'content', value: ['b'] },
      { op: 'addItems', path: 'content', value: [part('b', 'edited')] },
    ]);
    expect(await content()).toEqual([part('b', 'edited')]);
    await patch([
      { op: 'set', path: 'content', value: [part('z')] },
      { op: 'set', path: 'name', value: 'Renamed' },
    ]);
    expect((await c.ok('GET', `/notes/${id}`)).json.data.fields).toMatchObject({ name: 'Renamed', content: [part('z')] });
    await patch([{ op: 'removeItems', path: 'content', value: ['z'] }]);
    expect((await c.ok('GET', `/notes/${id}?fields=content`)).json.data.fields).toEqual({ content: null });
    await patch([{ op: 'addItems', path: 'content', value: [part('y')] }]);
    await patch([{ op: 'clear', path: 'content' }]);
    expect((await c.ok('GET', `/notes/${id}?fields=content`)).json.data.fields).toEqual({ content: null });
  });

  it('content of the wrong shape for the type, a type change, a part added over another, parts out of bounds → 400 at the culprit, and nothing changed', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const bad = async (method: string, path: string, body: unknown, pointer: string, detail: RegExp) =>
      expectError(await c.req(method, path, body), 'request.invalid', { source: { pointer }, detail });
    const create = (type: string, content: unknown) => ({ data: { type, fields: { name: 'x', content } } });
    await bad(
      'POST',
      '/notes',
      create('conversationNote', '<p>hi</p>'),
      '/data/fields/content',
      /A conversationNote's content is a list of conversation parts .*; got text\./,
    );
    await bad(
      'POST',
      '/notes',
      create('textNote', [part('a')]),
      '/data/fields/content',
      /A textNote's content is HTML text; got a list of conversation parts\./,
    );
    await bad(
      'POST',
      '/notes',
      create('conversationNote', [part('a'), part('a', 'again')]),
      '/data/fields/content/1/externalId',
      /externalId 'a' a second time/,
    );
    await bad('POST', '/notes', create('conversationNote', [{ ...part('a'), authorType: 'bot' }]), '/data/fields/content/0/authorType', /'customer', 'agent'/);
    await bad(
      'POST',
      '/notes',
      create('conversationNote', [{ externalId: 'a', authorType: 'agent', content: 'x' }]),
      '/data/fields/content/0/timestamp',
      /is required/,
    );
    await bad('POST', '/notes', create('conversationNote', [{ ...part('a'), timestamp: 'yesterday' }]), '/data/fields/content/0/timestamp', /date and time/);
    await bad(
      'POST',
      '/notes',
      create('conversationNote', [{ ...part('a'), channel: 'chat' }]),
      '/data/fields/content/0/channel',
      /Unknown property 'channel'/,
    );
    await bad('POST', '/notes', create('conversationNote', 7), '/data/fields/content', /HTML text .* or a list of at most 50 conversation parts/);
    // Hostile sizes: every bound is checked before anything is stored.
    await bad('POST', '/notes', create('conversationNote', [part('a', 'x'.repeat(1001))]), '/data/fields/content/0/content', /at most 1000 characters/);
    await bad('POST', '/notes', create('conversationNote', [part('x'.repeat(101))]), '/data/fields/content/0/externalId', /at most 100 characters/);
    await bad(
      'POST',
      '/notes',
      create(
        'conversationNote',
        Array.from({ length: 51 }, (_, i) => part(`p${i}`, 'x'.repeat(1000))),
      ),
      '/data/fields/content',
      /at most 50 conversation parts/,
    );
    expect((await c.ok('GET', '/notes')).json.data).toEqual([]);

    const text = await c.note();
    const chat = await conversation(c, 'Chat', [part('a'), part('b')]);
    const before = [(await c.ok('GET', `/notes/${text}`)).json.data, (await c.ok('GET', `/notes/${chat}`)).json.data];
    await bad(
      'PATCH',
      `/notes/${chat}`,
      { data: { fields: { content: 'plain text' } } },
      '/data/fields/content',
      /A conversationNote's content is a list of conversation parts/,
    );
    await bad('PATCH', `/notes/${text}`, { data: { fields: { content: [part('a')] } } }, '/data/fields/content', /A textNote's content is HTML text/);
    await bad(
      'PATCH',
      `/notes/${chat}`,
      { data: { patch: [{ op: 'set', path: 'content', value: '<p>x</p>' }] } },
      '/data/patch/0/value',
      /list of conversation parts/,
    );
    await bad(
      'PATCH',
      `/notes/${text}`,
      { data: { patch: [{ op: 'addItems', path: 'content', value: [part('a')] }] } },
      '/data/patch/0/op',
      /'addItems' on content applies to a conversationNote's parts; this note is a textNote/,
    );
    await bad(
      'PATCH',
      `/notes/${text}`,
      { data: { type: 'conversationNote', fields: { name: 'y' } } },
      '/data/type',
      new RegExp(`Note ${text} is a textNote; a note's type cannot be changed \\(to conversationNote\\)`),
    );
    await bad(
      'PATCH',
      `/notes/${chat}`,
      { data: { type: 'simple', fields: { name: 'y' } } },
      '/data/type',
      /is a conversationNote; a note's type cannot be changed \(to textNote\)/,
    );
    await bad(
      'PATCH',
      `/notes/${chat}`,
      { data: { type: 'opportunityNote', fields: { name: 'y' } } },
      '/data/type',
      /opportunity notes cannot be created through the API/,
    );
    await bad(
      'PATCH',
      `/notes/${chat}`,
      { data: { patch: [{ op: 'addItems', path: 'content', value: [part('c'), part('b', 'other words')] }] } },
      '/data/patch/0/value/1',
      /already has an item 'b' with other values; remove it first/,
    );
    await bad(
      'PATCH',
      `/notes/${chat}`,
      { data: { patch: [{ op: 'addItems', path: 'content', value: [part('c'), part('c')] }] } },
      '/data/patch/0/value/1/externalId',
      /a second time/,
    );
    await bad(
      'PATCH',
      `/notes/${chat}`,
      { data: { patch: [{ op: 'removeItems', path: 'content', value: [{ id: 'a' }] }] } },
      '/data/patch/0/value/0',
      /does not match any of the forms/,
    );
    await bad(
      'PATCH',
      `/notes/${chat}`,
      {
        data: {
          patch: [
            { op: 'set', path: 'content', value: [part('c')] },
            { op: 'addItems', path: 'content', value: [part('d')] },
          ],
        },
      },
      '/data/patch/1',
      /'set' and 'addItems'/,
    );
    const fortyNine = Array.from({ length: 49 }, (_, i) => part(`n${i}`));
    await bad(
      'PATCH',
      `/notes/${chat}`,
      { data: { patch: [{ op: 'addItems', path: 'content', value: fortyNine }] } },
      '/data/patch/0/value',
      /would hold 51 items after this operation; it holds at most 50/,
    );
    expect([(await c.ok('GET', `/notes/${text}`)).json.data, (await c.ok('GET', `/notes/${chat}`)).json.data]).toEqual(before);
  });

  it("custom fields are the note type's own: a conversation note's are written and read on it, a text note's field is unknown to it", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const fieldAdd = fieldCommands.find((cmd) => cmd.name === 'field add')!;
    const add = async (type: string, name: string) =>
      ((await fieldAdd.run({ workspace: ws.workspaceId, 'entity-type': type, name, kind: 'text' })) as { id: string }).id;
    const channel = await add('conversationNote', 'Channel');
    const mood = await add('textNote', 'Mood');
    const id = await conversation(c, 'Chat', [part('a')], {});
    await c.ok('PATCH', `/notes/${id}`, { data: { fields: { [channel]: 'chat' } } });
    expect((await c.ok('GET', `/notes/${id}?fields=${channel}`)).json.data.fields).toEqual({ [channel]: 'chat' });
    expect(Object.keys((await c.ok('GET', `/notes/${id}?fields=all`)).json.data.fields)).toEqual([
      'name',
      'content',
      'tags',
      'owner',
      'creator',
      'processed',
      'archived',
      channel,
    ]);
    expectError(await c.req('GET', `/notes/${id}?fields=${mood}`), 'request.invalid', { source: { parameter: 'fields' }, detail: new RegExp(mood) });
    expectError(await c.req('PATCH', `/notes/${id}`, { data: { fields: { [mood]: 'happy' } } }), 'request.invalid', {
      source: { pointer: `/data/fields/${mood}` },
      detail: /no custom field with this id is configured for conversationNote/,
    });
    // A list over both types shows each note its own type's fields.
    const text = (await c.ok('POST', '/notes', { data: { type: 'textNote', fields: { name: 'Call', [mood]: 'happy' } } })).json.data.id;
    const listed = (await c.ok('GET', `/notes?fields[]=${channel}&fields[]=${mood}`)).json.data as Array<{ id: string; fields: unknown }>;
    expect(listed.map((n) => [n.id, n.fields])).toEqual([
      [text, { [mood]: 'happy' }],
      [id, { [channel]: 'chat' }],
    ]);
  });

  it("the score counts a conversation note's links exactly like a text note's: its customer's latest rating, anonymous links one each", async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const product = await c.entity('product');
    const [byText, byChat] = [await c.entity('feature', product), await c.entity('feature', product)];
    const ada = await c.entity('user');
    const links = (feature: string, importance: string) => [
      { type: 'customer', target: { id: ada } },
      { type: 'link', target: { id: feature }, importance },
    ];
    await c.note({ customer: ada, links: [[byText, 'important']] });
    await c.note({ links: [[byText]] });
    await conversation(c, 'Chat', [part('a')], { relationships: links(byChat, 'important') });
    const anonymous = await conversation(c, 'Chat', [part('a')], { relationships: [{ type: 'link', target: { id: byChat } }] });
    // important (2) from Ada + 1 for the anonymous link, on each feature; the product sums both.
    expect([await c.score(byText), await c.score(byChat), await c.score(product)]).toEqual([3, 3, 6]);
    // Ada's latest rating on byText comes from a conversation note, and replaces her text note's.
    await conversation(c, 'Later chat', [part('b')], { relationships: links(byText, 'critical') });
    expect(await c.score(byText)).toBe(4);
    await c.ok('DELETE', `/notes/${anonymous}`);
    expect([await c.score(byChat), await c.score(product)]).toEqual([2, 6]);
  });
});
