// Productboard's notes operations, as its documents define them.
import { cursorOf, idsOf, reads, relationshipLine, relationshipLines, writes, type Check } from './check.ts';
import type { Probe } from './probe.ts';
import type { Seed, World } from './world.ts';
import { seedNotes } from '../pagination/seed.ts';

const seedNotesOf = (s: Seed) => [s.n.wantsApplePay, s.n.googlePayPlease];

const getNote = (world: World, id: string) => world.pb.notes.GET('/notes/{id}', { params: { path: { id } } });

/** Three notes of a fresh world: one processed, one archived, one neither (set through PATCH data.fields). */
async function flaggedNotes(world: World, probe: Probe) {
  const processed = await world.note(probe, 'Processed');
  const archived = await world.note(probe, 'Archived');
  const open = await world.note(probe, 'Open');
  await probe.setup(
    'updateNote',
    200,
    world.pb.notes.PATCH('/notes/{id}', { params: { path: { id: processed } }, body: { data: { fields: { processed: true } } } }),
  );
  await probe.setup(
    'updateNote',
    200,
    world.pb.notes.PATCH('/notes/{id}', { params: { path: { id: archived } }, body: { data: { fields: { archived: true } } } }),
  );
  return { processed, archived, open };
}

/** Parts of a conversation as Productboard's ConversationNotePart writes them. */
const chatParts = [
  { externalId: 'm1', authorType: 'customer' as const, authorName: 'Ada', content: 'Can I pay with my watch?', timestamp: '2030-01-01T10:00:00Z' },
  { externalId: 'm2', authorType: 'agent' as const, content: 'Not yet: Apple Pay is planned.', timestamp: '2030-01-01T10:05:00Z' },
];

/** A conversation note of a fresh world, with its parts. */
async function conversationNote(world: World, probe: Probe, name: string, content: typeof chatParts = chatParts) {
  const created = await probe.setup(
    'createNote',
    201,
    world.pb.notes.POST('/notes', { body: { data: { type: 'conversationNote', fields: { name, content } } } }),
  );
  world.names.set(created.data.id, name);
  return created.data.id;
}

/** A customer (user Ada of company Acme) and a feature to link, in a fresh world. */
async function customerAndFeature(world: World, probe: Probe) {
  const acme = await world.entity(probe, 'company', 'Acme');
  const ada = await world.entity(probe, 'user', 'Ada', { parent: acme, fields: { email: 'ada@acme.test' } });
  const product = await world.entity(probe, 'product', 'Product');
  const feature = await world.entity(probe, 'feature', 'Feature', { parent: product });
  return { acme, ada, feature };
}

const configurationChecks: Check[] = [
  reads(
    'listNoteConfigurations',
    'lists the configuration of each note type we serve (textNote, conversationNote; no opportunityNote: docs/compatibility.md)',
    async ({ seed, probe }) => {
      const list = await probe.reply('listNoteConfigurations', 200, seed.world.pb.notes.GET('/notes/configurations'));
      probe.equal('types', (list.data ?? []).map((c) => c.type).sort(), ['conversationNote', 'textNote']);
    },
  ),
  reads('listNoteConfigurations.type[]', 'type[] and its single form type keep that type', async ({ seed, probe }) => {
    const many = await probe.reply(
      'listNoteConfigurations',
      200,
      seed.world.pb.notes.GET('/notes/configurations', { params: { query: { 'type[]': ['textNote'] } } }),
    );
    probe.equal(
      'types by type[]',
      (many.data ?? []).map((c) => c.type),
      ['textNote'],
    );
    const one = await probe.reply('listNoteConfigurations', 200, seed.world.pb.notes.GET('/notes/configurations', { params: { query: { type: 'simple' } } }));
    probe.equal(
      'types by type=simple',
      (one.data ?? []).map((c) => c.type),
      ['textNote'],
    );
    const alias = await probe.reply(
      'listNoteConfigurations',
      200,
      seed.world.pb.notes.GET('/notes/configurations', { params: { query: { 'type[]': ['conversation'] } } }),
    );
    probe.equal(
      'types by type[]=conversation',
      (alias.data ?? []).map((c) => c.type),
      ['conversationNote'],
    );
  }),
  reads('getNoteConfiguration', "a note type's configuration: every field with path /fields/<id>", async ({ seed, probe }) => {
    const got = await probe.reply(
      'getNoteConfiguration',
      200,
      seed.world.pb.notes.GET('/notes/configurations/{type}', { params: { path: { type: 'textNote' } } }),
    );
    const fields = Object.values(got.data?.fields ?? {});
    probe.equal(
      'fields whose path is not /fields/<id>',
      fields.filter((f) => f.path !== `/fields/${f.id}`).map((f) => f.id),
      [],
    );
    probe.equal('standard fields', Object.keys(got.data?.fields ?? {}).sort(), ['archived', 'content', 'creator', 'name', 'owner', 'processed', 'tags']);
    probe.equal('relationships', Object.keys(got.data?.relationships ?? {}).sort(), ['customer', 'link']);
  }),
  reads('getNoteConfiguration.conversationNote', "conversationNote's configuration: the note fields, its content a list of parts", async ({ seed, probe }) => {
    const got = await probe.reply(
      'getNoteConfiguration',
      200,
      seed.world.pb.notes.GET('/notes/configurations/{type}', { params: { path: { type: 'conversationNote' } } }),
    );
    probe.equal('type', got.data?.type, 'conversationNote');
    probe.equal('standard fields', Object.keys(got.data?.fields ?? {}).sort(), ['archived', 'content', 'creator', 'name', 'owner', 'processed', 'tags']);
    const content = got.data?.fields?.content as { path?: string; schema?: { type?: string } } | undefined;
    probe.equal('content', { path: content?.path, type: content?.schema?.type }, { path: '/fields/content', type: 'array' });
  }),
  reads(
    'getNoteConfiguration.opportunityNote',
    'opportunityNote is not a note type here (docs/compatibility.md) → 404 resource.notFound',
    async ({ seed, probe }) => {
      await probe.refusal(
        'getNoteConfiguration',
        { status: 404, code: 'resource.notFound' },
        seed.world.pb.notes.GET('/notes/configurations/{type}', { params: { path: { type: 'opportunityNote' } } }),
      );
    },
  ),
];

const createChecks: Check[] = [
  writes('createNote', 'creates a text note → 201 with a reference; the note holds its fields', async ({ world, probe }) => {
    const created = await probe.reply(
      'createNote',
      201,
      world.pb.notes.POST('/notes', { body: { data: { type: 'textNote', fields: { name: 'New note', content: '<p>Hello</p>' } } } }),
    );
    const got = await probe.reply('getNote', 200, getNote(world, created.data.id));
    const admin = world.workspace.admin;
    // processed and archived, never set, read as false: Productboard's notes show both as booleans.
    probe.equal('fields', got.data?.fields, {
      name: 'New note',
      content: '<p>Hello</p>',
      creator: { id: admin.id, email: admin.email },
      processed: false,
      archived: false,
    });
  }),
  writes('createNote.simple-alias', 'type simple (legacy alias) creates a textNote', async ({ world, probe }) => {
    const created = await probe.reply('createNote', 201, world.pb.notes.POST('/notes', { body: { data: { type: 'simple', fields: { name: 'Legacy' } } } }));
    probe.equal('type', created.data.type, 'textNote');
  }),
  writes('createNote.owner-and-creator', 'owner and creator given by e-mail are shown with id and e-mail', async ({ world, probe }) => {
    const maker = await world.member('maker');
    const admin = world.workspace.admin;
    const created = await probe.reply(
      'createNote',
      201,
      world.pb.notes.POST('/notes', {
        body: { data: { type: 'textNote', fields: { name: 'Assigned', owner: { email: maker.email }, creator: { email: admin.email } } } },
      }),
    );
    const got = await probe.reply('getNote', 200, getNote(world, created.data.id));
    probe.equal('owner', got.data?.fields.owner, { id: maker.id, email: maker.email });
    probe.equal('creator', got.data?.fields.creator, { id: admin.id, email: admin.email });
  }),
  writes('createNote.creator-default', 'without a creator, the note is created by the member whose token made it', async ({ world, probe }) => {
    const maker = await world.member('maker');
    const created = await probe.reply('createNote', 201, maker.pb.notes.POST('/notes', { body: { data: { type: 'textNote', fields: { name: 'Mine' } } } }));
    const got = await probe.reply('getNote', 200, getNote(world, created.data.id));
    probe.equal('creator', got.data?.fields.creator, { id: maker.id, email: maker.email });
  }),
  writes('createNote.metadata', 'metadata.source on create is stored and shown as metadata.source', async ({ world, probe }) => {
    const source = { system: 'support', recordId: 'ticket-12', url: 'https://support.example.com/ticket/12' };
    const created = await probe.reply(
      'createNote',
      201,
      world.pb.notes.POST('/notes', { body: { data: { type: 'textNote', fields: { name: 'Imported' }, metadata: { source } } } }),
    );
    const got = await probe.reply('getNote', 200, getNote(world, created.data.id));
    probe.equal('metadata', got.data?.metadata, { source });
  }),
  writes(
    'createNote.link',
    "a link given as Productboard writes it ({type: link, target: {id, type: link}}) → the note's relationships show it",
    async ({ world, probe }) => {
      const { feature } = await customerAndFeature(world, probe);
      const created = await probe.reply(
        'createNote',
        201,
        world.pb.notes.POST('/notes', {
          body: { data: { type: 'textNote', fields: { name: 'Linked' }, relationships: [{ type: 'link', target: { id: feature, type: 'link' } }] } },
        }),
      );
      const got = await probe.reply('getNote', 200, getNote(world, created.data.id));
      probe.equal('relationships', relationshipLines(probe, got.data?.relationships), ['link Feature']);
    },
  ),
  writes('createNote.customer-by-email', 'a customer given by e-mail is the user with that e-mail (case-insensitive)', async ({ world, probe }) => {
    await customerAndFeature(world, probe);
    const created = await probe.reply(
      'createNote',
      201,
      world.pb.notes.POST('/notes', {
        body: {
          data: { type: 'textNote', fields: { name: 'From Ada' }, relationships: [{ type: 'customer', target: { type: 'user', email: 'ADA@Acme.test' } }] },
        },
      }),
    );
    const got = await probe.reply('getNote', 200, getNote(world, created.data.id));
    probe.equal('relationships', relationshipLines(probe, got.data?.relationships), ['customer Ada']);
  }),
  writes('createNote.customer-unknown-email', 'a customer e-mail no user has → 400 request.invalid, and no note is created', async ({ world, probe }) => {
    await probe.refusal(
      'createNote',
      { status: 400, code: 'request.invalid' },
      world.pb.notes.POST('/notes', {
        body: {
          data: { type: 'textNote', fields: { name: 'Nobody' }, relationships: [{ type: 'customer', target: { type: 'user', email: 'nobody@acme.test' } }] },
        },
      }),
    );
    const list = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes'));
    probe.same('notes', idsOf(list), []);
  }),
  writes('createNote.conversationNote', 'creates a conversation note → 201 conversationNote; the note holds its parts', async ({ world, probe }) => {
    const created = await probe.reply(
      'createNote',
      201,
      world.pb.notes.POST('/notes', { body: { data: { type: 'conversationNote', fields: { name: 'Chat', content: chatParts } } } }),
    );
    probe.equal('type', created.data.type, 'conversationNote');
    const got = await probe.reply('getNote', 200, getNote(world, created.data.id));
    probe.equal('type and content', { type: got.data?.type, content: got.data?.fields.content }, { type: 'conversationNote', content: chatParts });
  }),
  writes('createNote.conversation-alias', 'type conversation (legacy alias) creates a conversationNote', async ({ world, probe }) => {
    const created = await probe.reply(
      'createNote',
      201,
      world.pb.notes.POST('/notes', { body: { data: { type: 'conversation', fields: { name: 'Legacy chat', content: chatParts } } } }),
    );
    probe.equal('type', created.data.type, 'conversationNote');
  }),
  writes(
    'createNote.opportunityNote',
    'an opportunityNote is refused, as Productboard refuses it through the API → 400 request.invalid at /data/type, and no note is created',
    async ({ world, probe }) => {
      await probe.refusal(
        'createNote',
        { status: 400, code: 'request.invalid', pointer: '/data/type' },
        world.pb.notes.POST('/notes', { body: { data: { type: 'opportunityNote', fields: { name: 'Deal' } } } }),
      );
      const list = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes'));
      probe.same('notes', idsOf(list), []);
    },
  ),
];

const readChecks: Check[] = [
  reads('getNote', 'retrieves a note: fields, customer and links', async ({ seed, probe }) => {
    const got = await probe.reply('getNote', 200, getNote(seed.world, seed.n.wantsApplePay));
    const admin = seed.world.workspace.admin;
    probe.equal(
      'name and owner',
      { name: got.data?.fields.name, owner: got.data?.fields.owner },
      { name: 'Wants Apple Pay', owner: { id: admin.id, email: admin.email } },
    );
    probe.equal('relationships', relationshipLines(probe, got.data?.relationships), ['customer Ada', 'link Apple Pay']);
  }),
  reads('getNote.fields', 'fields=name returns only the name', async ({ seed, probe }) => {
    const got = await probe.reply(
      'getNote',
      200,
      seed.world.pb.notes.GET('/notes/{id}', { params: { path: { id: seed.n.wantsApplePay }, query: { fields: ['name'] } } }),
    );
    probe.equal('fields', got.data?.fields, { name: 'Wants Apple Pay' });
  }),
  reads('getNote.unknown', 'no such note → 404 resource.notFound', async ({ seed, probe }) => {
    await probe.refusal('getNote', { status: 404, code: 'resource.notFound' }, getNote(seed.world, '00000000-0000-4000-8000-000000000000'));
  }),
  reads('listNotes', 'lists the notes of the workspace', async ({ seed, probe }) => {
    const list = await probe.reply('listNotes', 200, seed.world.pb.notes.GET('/notes'));
    probe.same('notes', idsOf(list), seedNotesOf(seed));
  }),
  reads('listNotes.type[]', 'type[]=textNote lists the text notes', async ({ seed, probe }) => {
    const list = await probe.reply('listNotes', 200, seed.world.pb.notes.GET('/notes', { params: { query: { 'type[]': ['textNote'] } } }));
    probe.same('notes', idsOf(list), seedNotesOf(seed));
  }),
  writes(
    'listNotes.type[].conversationNote',
    'type[]=conversationNote (or its alias conversation) lists the conversation notes; type[]=textNote the others',
    async ({ world, probe }) => {
      const text = await world.note(probe, 'Text');
      const chat = await conversationNote(world, probe, 'Chat');
      const conversations = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: { 'type[]': ['conversationNote'] } } }));
      probe.same('conversation notes', idsOf(conversations), [chat]);
      const alias = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: { 'type[]': ['conversation'] } } }));
      probe.same('conversation notes (alias)', idsOf(alias), [chat]);
      const texts = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: { 'type[]': ['textNote'] } } }));
      probe.same('text notes', idsOf(texts), [text]);
    },
  ),
  writes('listNotes.archived', 'archived=true lists the archived notes; archived=false the others', async ({ world, probe }) => {
    const n = await flaggedNotes(world, probe);
    const yes = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: { archived: true } } }));
    probe.same('archived', idsOf(yes), [n.archived]);
    const no = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: { archived: false } } }));
    probe.same('not archived', idsOf(no), [n.processed, n.open]);
  }),
  writes('listNotes.processed', 'processed=true lists the processed notes; processed=false the others', async ({ world, probe }) => {
    const n = await flaggedNotes(world, probe);
    const yes = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: { processed: true } } }));
    probe.same('processed', idsOf(yes), [n.processed]);
    const no = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: { processed: false } } }));
    probe.same('not processed', idsOf(no), [n.archived, n.open]);
  }),
  reads('listNotes.owner[id]', "owner[id] lists that member's notes", async ({ seed, probe }) => {
    const list = await probe.reply('listNotes', 200, seed.world.pb.notes.GET('/notes', { params: { query: { 'owner[id]': seed.world.workspace.admin.id } } }));
    probe.same("admin's notes", idsOf(list), [seed.n.wantsApplePay]);
  }),
  reads('listNotes.owner[email]', "owner[email] lists that member's notes (case-insensitive)", async ({ seed, probe }) => {
    const list = await probe.reply(
      'listNotes',
      200,
      seed.world.pb.notes.GET('/notes', { params: { query: { 'owner[email]': seed.maker.email.toUpperCase() } } }),
    );
    probe.same("maker's notes", idsOf(list), [seed.n.googlePayPlease]);
  }),
  writes('listNotes.creator', 'creator[id] and creator[email] list the notes that member created', async ({ world, probe }) => {
    const maker = await world.member('maker');
    await world.note(probe, 'By admin');
    const created = await probe.setup('createNote', 201, maker.pb.notes.POST('/notes', { body: { data: { type: 'textNote', fields: { name: 'By maker' } } } }));
    world.names.set(created.data.id, 'By maker');
    const byId = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: { 'creator[id]': maker.id } } }));
    probe.same('created by maker (id)', idsOf(byId), [created.data.id]);
    const byEmail = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: { 'creator[email]': maker.email } } }));
    probe.same('created by maker (e-mail)', idsOf(byEmail), [created.data.id]);
  }),
  writes('listNotes.metadata[source]', 'metadata[source][system] and metadata[source][recordId] match what create stored', async ({ world, probe }) => {
    const created = await probe.setup(
      'createNote',
      201,
      world.pb.notes.POST('/notes', {
        body: { data: { type: 'textNote', fields: { name: 'Ticket' }, metadata: { source: { system: 'zendesk', recordId: 'ticket-9' } } } },
      }),
    );
    world.names.set(created.data.id, 'Ticket');
    await world.note(probe, 'Other');
    const bySystem = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: { 'metadata[source][system]': 'zendesk' } } }));
    probe.same('from zendesk', idsOf(bySystem), [created.data.id]);
    const byRecord = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: { 'metadata[source][recordId]': 'ticket-9' } } }));
    probe.same('from ticket-9', idsOf(byRecord), [created.data.id]);
  }),
  reads('listNotes.created', 'createdFrom and createdTo bound the creation time (inclusive)', async ({ seed, probe }) => {
    const second = seed.createdAt.get(seed.n.googlePayPlease)!;
    const first = seed.createdAt.get(seed.n.wantsApplePay)!;
    const from = await probe.reply('listNotes', 200, seed.world.pb.notes.GET('/notes', { params: { query: { createdFrom: second } } }));
    probe.same('created from the second note on', idsOf(from), [seed.n.googlePayPlease]);
    const to = await probe.reply('listNotes', 200, seed.world.pb.notes.GET('/notes', { params: { query: { createdTo: first } } }));
    probe.same('created up to the first note', idsOf(to), [seed.n.wantsApplePay]);
  }),
  reads('listNotes.updated', 'updatedFrom and updatedTo bound the update time', async ({ seed, probe }) => {
    const from = await probe.reply('listNotes', 200, seed.world.pb.notes.GET('/notes', { params: { query: { updatedFrom: '2000-01-01T00:00:00Z' } } }));
    probe.same('updated since 2000', idsOf(from), seedNotesOf(seed));
    const to = await probe.reply('listNotes', 200, seed.world.pb.notes.GET('/notes', { params: { query: { updatedTo: '2000-01-01T00:00:00Z' } } }));
    probe.same('updated before 2000', idsOf(to), []);
  }),
  reads('listNotes.fields', 'fields=name returns only the name of each note', async ({ seed, probe }) => {
    const list = await probe.reply('listNotes', 200, seed.world.pb.notes.GET('/notes', { params: { query: { fields: ['name'] } } }));
    probe.equal('field names per note', [...new Set((list.data ?? []).map((n) => Object.keys(n.fields).join(',')))], ['name']);
  }),
  reads(
    'listNotes.unknown-parameter',
    'a query parameter the operation does not define → 400 request.invalid with source.parameter',
    async ({ seed, probe }) => {
      const query = { 'owner[name]': 'Ada' } as never;
      await probe.refusal(
        'listNotes',
        { status: 400, code: 'request.invalid', parameter: 'owner[name]' },
        seed.world.pb.notes.GET('/notes', { params: { query } }),
      );
    },
  ),
  writes('listNotes.pagination', 'links.next carries a pageCursor; repeating the request with it walks every note once', async ({ world, probe }) => {
    const seeded = await seedNotes(world.workspace.workspaceId, 105);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await probe.reply('listNotes', 200, world.pb.notes.GET('/notes', { params: { query: cursor ? { pageCursor: cursor } : {} } }));
      pages++;
      seen.push(...idsOf(page));
      cursor = cursorOf(page.links?.next);
    } while (cursor && pages < 5);
    probe.equal('pages', pages, 2);
    probe.equal('distinct notes walked', new Set(seen).size, seeded.length);
  }),
];

const searchChecks: Check[] = [
  writes('performNotesSearch.type', 'filter.type conversationNote lists the conversation notes; search.query reaches their parts', async ({ world, probe }) => {
    await world.note(probe, 'Text');
    const chat = await conversationNote(world, probe, 'Chat');
    const byType = await probe.reply(
      'performNotesSearch',
      200,
      world.pb.notes.POST('/notes/search', { body: { data: { filter: { type: 'conversationNote' } } } }),
    );
    probe.same('conversation notes', idsOf(byType), [chat]);
    const byText = await probe.reply('performNotesSearch', 200, world.pb.notes.POST('/notes/search', { body: { data: { search: { query: 'my watch' } } } }));
    probe.same('notes saying "my watch"', idsOf(byText), [chat]);
  }),
  reads('performNotesSearch', 'an empty filter lists every note', async ({ seed, probe }) => {
    const list = await probe.reply('performNotesSearch', 200, seed.world.pb.notes.POST('/notes/search', { body: { data: {} } }));
    probe.same('notes', idsOf(list), seedNotesOf(seed));
  }),
  reads('performNotesSearch.link', 'filter.relationships.link lists the notes linked to that entity', async ({ seed, probe }) => {
    const list = await probe.reply(
      'performNotesSearch',
      200,
      seed.world.pb.notes.POST('/notes/search', { body: { data: { filter: { relationships: { link: [{ id: seed.e.applePay }] } } } } }),
    );
    probe.same('notes on Apple Pay', idsOf(list), [seed.n.wantsApplePay]);
  }),
  reads('performNotesSearch.customer', "filter.relationships.customer lists that customer's notes", async ({ seed, probe }) => {
    const list = await probe.reply(
      'performNotesSearch',
      200,
      seed.world.pb.notes.POST('/notes/search', { body: { data: { filter: { relationships: { customer: { id: seed.e.ada } } } } } }),
    );
    probe.same("Ada's notes", idsOf(list), [seed.n.wantsApplePay]);
  }),
  reads('performNotesSearch.owner', "filter.fields.owner lists that member's notes", async ({ seed, probe }) => {
    const list = await probe.reply(
      'performNotesSearch',
      200,
      seed.world.pb.notes.POST('/notes/search', { body: { data: { filter: { fields: { owner: [{ email: seed.maker.email }] } } } } }),
    );
    probe.same("maker's notes", idsOf(list), [seed.n.googlePayPlease]);
  }),
];

const updateChecks: Check[] = [
  writes('updateNote', 'PATCH data.fields → 200 with a reference; the note holds the new value', async ({ world, probe }) => {
    const id = await world.note(probe, 'Note');
    const updated = await probe.reply(
      'updateNote',
      200,
      world.pb.notes.PATCH('/notes/{id}', { params: { path: { id } }, body: { data: { fields: { name: 'Renamed' } } } }),
    );
    probe.equal('reference id', updated.data.id, id);
    const got = await probe.reply('getNote', 200, getNote(world, id));
    probe.equal('name', got.data?.fields.name, 'Renamed');
  }),
  writes(
    'updateNote.tags-as-names',
    'PATCH data.fields.tags as plain names (Productboard\'s "Update note fields" example, which its schema does not take) → 200; they read as {name}',
    async ({ world, probe }) => {
      const id = await world.note(probe, 'Note');
      // Productboard's example sends names where its schema has {name}: cast on purpose.
      const tags = ['sales', 'onboarding'] as unknown as { name: string }[];
      await probe.reply(
        'updateNote',
        200,
        world.pb.notes.PATCH('/notes/{id}', {
          params: { path: { id } },
          body: { data: { fields: { name: 'New name', tags, content: '<p>Updated content of the note</p>' } } },
        }),
      );
      const got = await probe.reply('getNote', 200, getNote(world, id));
      probe.equal('tags', got.data?.fields.tags, [{ name: 'sales' }, { name: 'onboarding' }]);
    },
  ),
  writes('updateNote.processed-archived', 'processed and archived are set by PATCH; such a note still counts in the score', async ({ world, probe }) => {
    const { ada, feature } = await customerAndFeature(world, probe);
    const id = await world.note(probe, 'Note', { customer: { id: ada, type: 'user' }, links: [feature] });
    await probe.reply(
      'updateNote',
      200,
      world.pb.notes.PATCH('/notes/{id}', { params: { path: { id } }, body: { data: { fields: { processed: true, archived: true } } } }),
    );
    const got = await probe.reply('getNote', 200, getNote(world, id));
    probe.equal('processed and archived', [got.data?.fields.processed, got.data?.fields.archived], [true, true]);
    const score = await probe.reply('getCustomerScore', 200, world.pb.scores.GET('/entities/{id}/score', { params: { path: { id: feature } } }));
    probe.equal('score of the linked feature', score.data.fields.score, 1);
  }),
  writes('updateNote.patch-items', 'PATCH data.patch addItems and removeItems change the tags item by item', async ({ world, probe }) => {
    const created = await probe.setup(
      'createNote',
      201,
      world.pb.notes.POST('/notes', { body: { data: { type: 'textNote', fields: { name: 'Tagged', tags: [{ name: 'a' }, { name: 'b' }] } } } }),
    );
    const id = created.data.id;
    await probe.reply(
      'updateNote',
      200,
      world.pb.notes.PATCH('/notes/{id}', {
        params: { path: { id } },
        body: {
          data: {
            patch: [
              { op: 'addItems', path: 'tags', value: [{ name: 'c' }] },
              { op: 'removeItems', path: 'tags', value: [{ name: 'a' }] },
            ],
          },
        },
      }),
    );
    const got = await probe.reply('getNote', 200, getNote(world, id));
    probe.equal('tags', got.data?.fields.tags, [{ name: 'b' }, { name: 'c' }]);
  }),
  writes('updateNote.patch-set-clear', 'PATCH data.patch set and clear', async ({ world, probe }) => {
    const id = await world.note(probe, 'Note', { owner: world.workspace.admin.email });
    await probe.reply(
      'updateNote',
      200,
      world.pb.notes.PATCH('/notes/{id}', {
        params: { path: { id } },
        body: {
          data: {
            patch: [
              { op: 'set', path: 'name', value: 'Renamed' },
              { op: 'clear', path: 'owner' },
            ],
          },
        },
      }),
    );
    const got = await probe.reply('getNote', 200, getNote(world, id));
    const admin = world.workspace.admin;
    probe.equal('fields', got.data?.fields, { name: 'Renamed', creator: { id: admin.id, email: admin.email }, processed: false, archived: false });
  }),
  writes(
    'updateNote.conversation-parts',
    'PATCH data.patch addItems and removeItems (by externalId) change the parts of a conversation note; data.fields sets them',
    async ({ world, probe }) => {
      const id = await conversationNote(world, probe, 'Chat');
      const reply = { externalId: 'm3', authorType: 'customer' as const, content: 'Thanks!', timestamp: '2030-01-01T10:07:00Z' };
      await probe.reply(
        'updateNote',
        200,
        world.pb.notes.PATCH('/notes/{id}', {
          params: { path: { id } },
          body: {
            data: {
              patch: [
                { op: 'addItems', path: 'content', value: [reply] },
                { op: 'removeItems', path: 'content', value: [{ externalId: 'm1' }] },
              ],
            },
          },
        }),
      );
      const patched = await probe.reply('getNote', 200, getNote(world, id));
      probe.equal('parts after the patch', patched.data?.fields.content, [chatParts[1], reply]);
      await probe.reply('updateNote', 200, world.pb.notes.PATCH('/notes/{id}', { params: { path: { id } }, body: { data: { fields: { content: [reply] } } } }));
      const set = await probe.reply('getNote', 200, getNote(world, id));
      probe.equal('parts after data.fields', set.data?.fields.content, [reply]);
    },
  ),
  writes(
    'updateNote.conversation-content-shape',
    "HTML for a conversation note's content → 400 request.invalid at /data/fields/content; the parts are unchanged",
    async ({ world, probe }) => {
      const id = await conversationNote(world, probe, 'Chat');
      await probe.refusal(
        'updateNote',
        { status: 400, code: 'request.invalid', pointer: '/data/fields/content' },
        world.pb.notes.PATCH('/notes/{id}', { params: { path: { id } }, body: { data: { fields: { content: '<p>Plain</p>' } } } }),
      );
      const got = await probe.reply('getNote', 200, getNote(world, id));
      probe.equal('parts', got.data?.fields.content, chatParts);
    },
  ),
  writes('deleteNote', 'DELETE → 204; the note is gone (404)', async ({ world, probe }) => {
    const id = await world.note(probe, 'Note');
    await probe.reply('deleteNote', 204, world.pb.notes.DELETE('/notes/{id}', { params: { path: { id } } }));
    await probe.refusal('getNote', { status: 404, code: 'resource.notFound' }, getNote(world, id));
  }),
];

const relationshipChecks: Check[] = [
  reads('listNoteRelationships', "lists a note's customer and links", async ({ seed, probe }) => {
    const list = await probe.reply(
      'listNoteRelationships',
      200,
      seed.world.pb.notes.GET('/notes/{id}/relationships', { params: { path: { id: seed.n.wantsApplePay } } }),
    );
    probe.equal('relationships', relationshipLines(probe, list), ['customer Ada', 'link Apple Pay']);
  }),
  reads('listNoteRelationships.type', 'type=link keeps the links', async ({ seed, probe }) => {
    const list = await probe.reply(
      'listNoteRelationships',
      200,
      seed.world.pb.notes.GET('/notes/{id}/relationships', { params: { path: { id: seed.n.wantsApplePay }, query: { type: 'link' } } }),
    );
    probe.equal('relationships', relationshipLines(probe, list), ['link Apple Pay']);
  }),
  reads('listNoteRelationships.target[type]', 'target[type]=user keeps the relationship to the user', async ({ seed, probe }) => {
    const list = await probe.reply(
      'listNoteRelationships',
      200,
      seed.world.pb.notes.GET('/notes/{id}/relationships', { params: { path: { id: seed.n.wantsApplePay }, query: { 'target[type]': 'user' } } }),
    );
    probe.equal('relationships', relationshipLines(probe, list), ['customer Ada']);
  }),
  reads('listNoteRelationships.limit', 'limit=1 pages one relationship at a time through links.next', async ({ seed, probe }) => {
    const first = await probe.reply(
      'listNoteRelationships',
      200,
      seed.world.pb.notes.GET('/notes/{id}/relationships', { params: { path: { id: seed.n.wantsApplePay }, query: { limit: 1 } } }),
    );
    const cursor = cursorOf(first.links?.next);
    if (!cursor) probe.stop('listNoteRelationships: no links.next after the first of two relationships');
    const second = await probe.reply(
      'listNoteRelationships',
      200,
      seed.world.pb.notes.GET('/notes/{id}/relationships', { params: { path: { id: seed.n.wantsApplePay }, query: { limit: 1, pageCursor: cursor } } }),
    );
    probe.equal('relationships', [...relationshipLines(probe, first), ...relationshipLines(probe, second)].sort(), ['customer Ada', 'link Apple Pay']);
    probe.equal('links.next on the last page', second.links?.next ?? null, null);
  }),
  writes('createNoteRelationship.link', "POST a link as Productboard writes it → 201; the note's relationships show it", async ({ world, probe }) => {
    const { feature } = await customerAndFeature(world, probe);
    const id = await world.note(probe, 'Note');
    const created = await probe.reply(
      'createNoteRelationship',
      201,
      world.pb.notes.POST('/notes/{id}/relationships', { params: { path: { id } }, body: { data: { type: 'link', target: { id: feature, type: 'link' } } } }),
    );
    probe.equal('created', relationshipLine(probe, created.data), 'link Feature');
  }),
  writes(
    'createNoteRelationship.duplicate',
    'a link the note already has → 409 conflict.uniqueViolation (the API contract; a status Productboard does not define here)',
    async ({ world, probe }) => {
      const { feature } = await customerAndFeature(world, probe);
      const id = await world.note(probe, 'Note', { links: [feature] });
      await probe.refusal(
        'createNoteRelationship',
        { status: 409, code: 'conflict.uniqueViolation' },
        world.pb.notes.POST('/notes/{id}/relationships', { params: { path: { id } }, body: { data: { type: 'link', target: { id: feature, type: 'link' } } } }),
      );
    },
  ),
  writes('createNoteRelationship.customer', 'POST a customer by id → 201', async ({ world, probe }) => {
    const { acme } = await customerAndFeature(world, probe);
    const id = await world.note(probe, 'Note');
    await probe.reply(
      'createNoteRelationship',
      201,
      world.pb.notes.POST('/notes/{id}/relationships', {
        params: { path: { id } },
        body: { data: { type: 'customer', target: { type: 'company', id: acme } } },
      }),
    );
    const list = await probe.reply('listNoteRelationships', 200, world.pb.notes.GET('/notes/{id}/relationships', { params: { path: { id } } }));
    probe.equal('relationships', relationshipLines(probe, list), ['customer Acme']);
  }),
  writes('createNoteRelationship.customer-by-email', 'POST a customer by e-mail → 201; the customer is that user', async ({ world, probe }) => {
    await customerAndFeature(world, probe);
    const id = await world.note(probe, 'Note');
    await probe.reply(
      'createNoteRelationship',
      201,
      world.pb.notes.POST('/notes/{id}/relationships', {
        params: { path: { id } },
        body: { data: { type: 'customer', target: { type: 'user', email: 'ada@acme.test' } } },
      }),
    );
    const list = await probe.reply('listNoteRelationships', 200, world.pb.notes.GET('/notes/{id}/relationships', { params: { path: { id } } }));
    probe.equal('relationships', relationshipLines(probe, list), ['customer Ada']);
  }),
  writes('replaceNoteCustomerRelationship', 'PUT customer replaces it, by id or by e-mail', async ({ world, probe }) => {
    const { acme, ada } = await customerAndFeature(world, probe);
    const id = await world.note(probe, 'Note', { customer: { id: acme, type: 'company' } });
    await probe.reply(
      'replaceNoteCustomerRelationship',
      200,
      world.pb.notes.PUT('/notes/{id}/relationships/customer', { params: { path: { id } }, body: { data: { target: { type: 'user', id: ada } } } }),
    );
    const byId = await probe.reply('listNoteRelationships', 200, world.pb.notes.GET('/notes/{id}/relationships', { params: { path: { id } } }));
    probe.equal('after PUT by id', relationshipLines(probe, byId), ['customer Ada']);
    await probe.reply(
      'replaceNoteCustomerRelationship',
      200,
      world.pb.notes.PUT('/notes/{id}/relationships/customer', {
        params: { path: { id } },
        body: { data: { target: { type: 'user', email: 'ada@acme.test' } } },
      }),
    );
  }),
  writes('deleteNoteRelationship.link', 'DELETE …/relationships/link/{targetId} → 204; the link is gone', async ({ world, probe }) => {
    const { feature } = await customerAndFeature(world, probe);
    const id = await world.note(probe, 'Note', { links: [feature] });
    await probe.reply(
      'deleteNoteRelationship',
      204,
      world.pb.notes.DELETE('/notes/{id}/relationships/{targetType}/{targetId}', { params: { path: { id, targetType: 'link', targetId: feature } } }),
    );
    const list = await probe.reply('listNoteRelationships', 200, world.pb.notes.GET('/notes/{id}/relationships', { params: { path: { id } } }));
    probe.equal('relationships', relationshipLines(probe, list), []);
  }),
  writes(
    'deleteNoteRelationship.malformed',
    'a note id that is not a uuid, or a relationship type other than link and customer → 400 request.invalid at it (a status Productboard does not define here)',
    async ({ world, probe }) => {
      const { feature } = await customerAndFeature(world, probe);
      const id = await world.note(probe, 'Note', { links: [feature] });
      const remove = (path: { id: string; targetType: string; targetId: string }) =>
        world.pb.notes.DELETE('/notes/{id}/relationships/{targetType}/{targetId}', { params: { path: path as never } });
      await probe.refusal(
        'deleteNoteRelationship',
        { status: 400, code: 'request.invalid', parameter: 'id' },
        remove({ id: 'not-a-uuid', targetType: 'link', targetId: feature }),
      );
      await probe.refusal(
        'deleteNoteRelationship',
        { status: 400, code: 'request.invalid', parameter: 'targetType' },
        remove({ id, targetType: 'bogus', targetId: feature }),
      );
    },
  ),
  writes('deleteNoteRelationship.customer', 'DELETE …/relationships/customer/{customerId} → 204; the note has no customer', async ({ world, probe }) => {
    const { acme } = await customerAndFeature(world, probe);
    const id = await world.note(probe, 'Note', { customer: { id: acme, type: 'company' } });
    await probe.reply(
      'deleteNoteRelationship',
      204,
      world.pb.notes.DELETE('/notes/{id}/relationships/{targetType}/{targetId}', { params: { path: { id, targetType: 'customer', targetId: acme } } }),
    );
    const list = await probe.reply('listNoteRelationships', 200, world.pb.notes.GET('/notes/{id}/relationships', { params: { path: { id } } }));
    probe.equal('relationships', relationshipLines(probe, list), []);
  }),
  writes(
    'deleteNoteRelationship.customer-any-id',
    "for a customer, Productboard ignores targetId: any uuid removes the note's customer",
    async ({ world, probe }) => {
      const { acme } = await customerAndFeature(world, probe);
      const id = await world.note(probe, 'Note', { customer: { id: acme, type: 'company' } });
      await probe.reply(
        'deleteNoteRelationship',
        204,
        world.pb.notes.DELETE('/notes/{id}/relationships/{targetType}/{targetId}', {
          params: { path: { id, targetType: 'customer', targetId: '00000000-0000-4000-8000-000000000000' } },
        }),
      );
    },
  ),
];

const commentChecks: Check[] = [
  writes(
    'createNoteComment',
    '→ 201 with the id; the comments read back (listNoteComments, our extension) with content and author, oldest first; the note is unchanged',
    async ({ world, probe }) => {
      const id = await world.note(probe, 'Commented');
      const before = await probe.reply('getNote', 200, getNote(world, id));
      const maker = await world.member('maker');
      const comment = (pb: World['pb'], content: string) => pb.notes.POST('/notes/{id}/comments', { params: { path: { id } }, body: { data: { content } } });
      const first = await probe.reply('createNoteComment', 201, comment(world.pb, 'Flagging this for the security epic.'));
      const second = await probe.reply('createNoteComment', 201, comment(maker.pb, 'Agreed'));
      const list = await probe.extension('listNoteComments', 200, world.ours('GET', `/notes/${id}/comments`));
      const admin = world.workspace.admin;
      probe.equal(
        'comments',
        (list.data as Array<{ id: string; fields: unknown }>).map((c) => [c.id, c.fields]),
        [
          [first.data?.id, { content: 'Flagging this for the security epic.', author: { id: admin.id, email: admin.email } }],
          [second.data?.id, { content: 'Agreed', author: { id: maker.id, email: maker.email } }],
        ],
      );
      const after = await probe.reply('getNote', 200, getNote(world, id));
      probe.equal('the note', after, before);
    },
  ),
  writes('createNoteComment.empty', 'empty content → 400 request.invalid at /data/content; no comment made', async ({ world, probe }) => {
    const id = await world.note(probe, 'Commented');
    await probe.refusal(
      'createNoteComment',
      { status: 400, code: 'request.invalid', pointer: '/data/content' },
      world.pb.notes.POST('/notes/{id}/comments', { params: { path: { id } }, body: { data: { content: '' } } }),
    );
    const list = await probe.extension('listNoteComments', 200, world.ours('GET', `/notes/${id}/comments`));
    probe.equal('comments', list.data, []);
  }),
  reads('createNoteComment.unknown-note', 'a note that is not there → 404 resource.notFound', async ({ seed, probe }) => {
    await probe.refusal(
      'createNoteComment',
      { status: 404, code: 'resource.notFound' },
      seed.world.pb.notes.POST('/notes/{id}/comments', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } }, body: { data: { content: 'x' } } }),
    );
  }),
];

export const NOTE_CHECKS: Check[] = [
  ...configurationChecks,
  ...createChecks,
  ...readChecks,
  ...searchChecks,
  ...updateChecks,
  ...relationshipChecks,
  ...commentChecks,
];
