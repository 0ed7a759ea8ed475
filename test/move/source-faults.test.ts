// admin import productboard from a source that misbehaves, a real local server. The client: a
// Retry-After past the cap, or 429s whose waits together pass it, stops the import naming the
// request and the wait asked for; a body that is not JSON, one over the size bound or a page without its
// list is refused naming the request; a request unanswered within the timeout is tried again. The
// import: a record listed twice is left out the second time and counted, so counts are what was
// written; list items that are no records (null, a number), relationships that are none, records
// without a usable id, dates that are no ISO 8601 date-times and a link over the API's limit are
// left out (or imported without) and counted; a run stopped in the notes whose saved cursor the
// source then refuses, or killed while a page was being written, ends with what one uninterrupted
// run gives, counts and skipped included.
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uuidV5 } from '#lib/domain/uuid-v5.ts';
import { getItem } from '#lib/store/calls.ts';
import { getEntity } from '#lib/store/entities.ts';
import * as keys from '#lib/store/keys.ts';
import { getMember } from '#lib/store/members.ts';
import { presentIds } from '#lib/store/move/present.ts';
import { readRun, runKeyOf } from '#lib/store/move/runs.ts';
import { getNote } from '#lib/store/notes.ts';
import { queryAll } from '#lib/store/query.ts';
import { tableName } from '#lib/store/table.ts';
import { getTeam } from '#lib/store/teams.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { runCli } from './kill.ts';
import { closeServer, listen } from '../../bench/local-stack.ts';
import { exportWorkspace } from '../../local/move/export.ts';
import { abandonImport, importProductboard, type ImportResult } from '../../local/move/import-productboard.ts';
import { SOURCE_LIMITS, SourceClient } from '../../local/move/source-client.ts';
import { crashAt, heal } from '../score/crash.ts';

const TOKEN = 'pb-faulty-token';
const tokenFile = join(tmpdir(), `move-source-faults-token-${process.pid}`);
const exportFile = join(tmpdir(), `move-source-faults-${process.pid}.jsonl.gz`);
let server: Server;
let base = '';
/** What each path under /v2 answers beyond an empty last page. */
let routes: Record<string, (res: ServerResponse, url: URL) => void> = {};
/** Requests received, by path under /v2 with its query. */
const received: string[] = [];

const json = (res: ServerResponse, body: unknown, status = 200) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const list = (data: unknown[]) => (res: ServerResponse) => json(res, { data, links: { next: null } });
const u = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const rels = (data: unknown) => ({ data, links: { next: null } });
const target = (id: string, type: string) => ({ id, type });

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const path = url.pathname.replace(/^\/v2/, '');
    received.push(`${path}${url.search}`);
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end();
    const answer = routes[path];
    if (answer) return answer(res, url);
    json(res, { data: [], links: { next: null } });
  });
  base = `${await listen(server)}/v2`;
  await writeFile(tokenFile, TOKEN, { mode: 0o600 });
});

beforeEach(() => {
  routes = {};
  received.length = 0;
});

afterAll(async () => {
  await closeServer(server);
  await rm(tokenFile, { force: true });
  await rm(exportFile, { force: true });
});

const client = (limits: Partial<typeof SOURCE_LIMITS> = {}) => new SourceClient(base, TOKEN, fetch, { ...SOURCE_LIMITS, ...limits });

describe('import productboard: the source client', () => {
  it('holds a source to 60 s a request, 15 minutes of 429 waits a request and 64 MiB a body', () => {
    expect(SOURCE_LIMITS).toEqual({ timeoutMs: 60_000, maxWaitMs: 900_000, maxBodyBytes: 64 * 1024 * 1024 });
  });

  it('a Retry-After past the cap (seconds or an HTTP date) stops at once, naming the request and the wait asked for; nothing is waited', async () => {
    let calls = 0;
    routes['/teams'] = (res) => (++calls === 1 ? res.writeHead(429, { 'retry-after': '4000000' }).end() : json(res, { data: [] }));
    routes['/members'] = (res) => res.writeHead(429, { 'retry-after': 'Fri, 31 Dec 2099 23:59:59 GMT' }).end();
    const c = client();
    const started = Date.now();
    await expect(c.get('/teams')).rejects.toThrow(
      'GET /teams answered 429 asking to wait 46 days (Retry-After: 4000000): more than the 15 minutes the import waits for one request. Run the same command later: it continues where it stopped',
    );
    await expect(c.get('/members')).rejects.toThrow(
      /^GET \/members answered 429 asking to wait \d+ days \(Retry-After: Fri, 31 Dec 2099 23:59:59 GMT\): more than the 15 minutes the import waits for one request\./,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(c.stats).toEqual({ requests: 2, throttled: 2, waitedMs: 0 });
  });

  it('429s are waited out, at least a second each, until one request has waited the cap: then it stops', async () => {
    routes['/teams'] = (res) => res.writeHead(429, { 'retry-after': '0' }).end();
    const c = client({ maxWaitMs: 2000 });
    const started = Date.now();
    await expect(c.get('/teams')).rejects.toThrow(
      'GET /teams answered 429 asking to wait 1 s (Retry-After: 0), after 2 s waited already: more than the 2 s the import waits for one request. Run the same command later: it continues where it stopped',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1950);
    expect(c.stats).toEqual({ requests: 3, throttled: 3, waitedMs: 2000 });
  });

  it('a body that is not JSON is refused naming the request and what it was', async () => {
    routes['/teams'] = (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>\n\u001b[2J');
    await expect(client().get('/teams?x=1')).rejects.toThrow('GET /teams?x=1 answered 200 with a body that is not JSON (text/html): <html>login</html>');
  });

  it('a body over the bound is refused unread, whether its length is declared or not', async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    routes['/streamed'] = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const pump = () => {
        while (sent < 40 && !res.destroyed) if ((sent++, !res.write(chunk))) return void res.once('drain', pump);
        if (!res.destroyed) res.end('{}');
      };
      pump();
    };
    routes['/declared'] = (res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) }).end();
    const c = client({ maxBodyBytes: 1024 * 1024 });
    await expect(c.get('/streamed')).rejects.toThrow(
      'GET /streamed answered 200 with a body larger than 1 MiB: not read (a page of the source is far smaller)',
    );
    await expect(c.get('/declared')).rejects.toThrow(
      'GET /declared answered 200 with a body larger than 1 MiB: not read (a page of the source is far smaller)',
    );
    expect(c.stats.requests).toBe(2);
  });

  it('a request unanswered within the timeout, or whose body stops coming, is tried again, as a 5xx is', async () => {
    let calls = 0;
    routes['/silent'] = (res) => void (++calls === 1 || json(res, { data: ['silent'] }));
    routes['/halfway'] = (res) =>
      ++calls === 3 ? res.writeHead(200, { 'content-type': 'application/json' }).write('{"data": [') : json(res, { data: ['halfway'] });
    const c = client({ timeoutMs: 300 });
    expect(await c.get('/silent')).toEqual({ data: ['silent'] });
    expect(await c.get('/halfway')).toEqual({ data: ['halfway'] });
    // Two attempts each, the second after the first backoff (500 ms).
    expect(c.stats).toEqual({ requests: 4, throttled: 0, waitedMs: 1000 });
  });

  it('a page without its data list stops the list, naming the request', async () => {
    routes['/teams'] = (res) => json(res, { teams: [] });
    const read = async () => {
      for await (const page of client().pages('/teams')) void page;
    };
    await expect(read()).rejects.toThrow('GET /teams answered 200 with no `data` list: not a page of a list');
  });

  it('the CLI says it on one line, exit code 2', async () => {
    routes['/members'] = (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
    const run = await runCli(['import', 'productboard', '--source', base, '--source-token-file', tokenFile, '--name', 'Not JSON']);
    expect([run.code, run.stderr.trim().split('\n').at(-1)]).toEqual([
      2,
      'import productboard: GET /members?includeDisabled=true answered 200 with a body that is not JSON (text/html): <html>login</html>',
    ]);
  }, 60_000);
});

describe('import productboard: what the source lists', () => {
  it('a record listed again (on a later page, or the same one; a relation given twice) is left out, the first kept, and counted: the counts are what was written', async () => {
    const [T1, T2, M1, TAG1, P1, RG, F1, R, N1, N2] = [u(1), u(2), u(3), u(4), u(5), u(6), u(7), u(8), u(9), u(10)];
    /** A list of two pages: the first, then the rest at `?pageCursor=1`. */
    const twoPages = (first: unknown[], rest: unknown[]) => (res: ServerResponse, url: URL) =>
      url.searchParams.get('pageCursor') === '1'
        ? json(res, { data: rest, links: { next: null } })
        : json(res, { data: first, links: { next: `${base}${url.pathname.slice(3)}?pageCursor=1` } });
    routes['/teams'] = twoPages(
      [{ id: T1, type: 'team', fields: { name: 'Payments', handle: 'payments' } }],
      [
        { id: T1, type: 'team', fields: { name: 'Payments (second copy)', handle: 'payments2' } },
        { id: T2, type: 'team', fields: { name: 'Growth', handle: 'growth' } },
      ],
    );
    routes['/members'] = list([
      { id: M1, type: 'member', fields: { name: 'Ann', email: 'ann@acme.example', role: 'admin' } },
      { id: M1, type: 'member', fields: { name: 'Ann again', email: 'ann2@acme.example', role: 'viewer' } },
    ]);
    routes['/entities/fields/tags/values'] = list([
      { id: TAG1, fields: { name: 'wallets', color: 'green' } },
      { id: TAG1, fields: { name: 'wallets again', color: 'red' } },
    ]);
    // The first copy gives its link twice: one relation.
    const feature = (name: string) => ({
      id: F1,
      type: 'feature',
      fields: { name },
      relationships: rels([
        { type: 'parent', target: target(P1, 'product') },
        { type: 'link', target: target(R, 'release') },
        { type: 'link', target: target(R, 'release') },
      ]),
    });
    routes['/entities'] = twoPages(
      [
        { id: P1, type: 'product', fields: { name: 'Checkout' }, relationships: rels([]) },
        { id: RG, type: 'releaseGroup', fields: { name: '2025' }, relationships: rels([]) },
        { id: R, type: 'release', fields: { name: 'Q3' }, relationships: rels([{ type: 'parent', target: target(RG, 'releaseGroup') }]) },
        feature('Apple Pay'),
      ],
      [{ id: P1, type: 'product', fields: { name: 'Checkout (second copy)' }, relationships: rels([]) }, feature('Apple Pay (second copy)')],
    );
    const note = (id: string, name: string, importance: string) => ({
      id,
      type: 'textNote',
      fields: { name },
      relationships: rels([{ type: 'link', target: target(F1, 'feature'), importance }]),
    });
    routes['/notes'] = twoPages([note(N1, 'First', 'critical')], [note(N1, 'First (second copy)', 'nice to have'), note(N2, 'Second', 'important')]);
    const result = await importProductboard({ source: base, tokenFile, name: 'Listed twice' });
    expect(result.counts).toEqual({ team: 2, member: 1, customField: 0, tagValue: 1, entity: 4, relation: 1, note: 2 });
    expect(result.skipped).toEqual({
      'teams the source listed more than once (the first kept)': 1,
      'members the source listed more than once (the first kept)': 1,
      'tag values the source listed more than once (the first kept)': 1,
      'entities the source listed more than once (the first kept)': 2,
      'relations the source listed more than once (the first kept)': 1,
      'notes the source listed more than once (the first kept)': 1,
    });
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    expect([
      (await getTeam(result.id, id(T1)))?.name,
      (await getMember(result.id, id(M1)))?.email,
      (await getEntity(result.id, id(P1)))?.fields.name,
      (await getEntity(result.id, id(F1)))?.fields.name,
      (await getNote(result.id, id(N1)))?.fields.name,
    ]).toEqual(['Payments', 'ann@acme.example', 'Checkout', 'Apple Pay', 'First']);
    // N1 and N2 link the feature, both anonymous: 1 each (the second copy's link is not in).
    expect((await getEntity(result.id, id(F1)))?.total).toBe(2);
    expect(await verifyWorkspace(result.id, false)).toMatchObject({ mismatches: 0 });
    expect((await exportWorkspace(result.id, exportFile)).counts).toEqual({ ...result.counts, comment: 0, webhook: 0 });
  }, 60_000);

  it('list items that are no records (null, a number, a list) and relationships that are none are left out and counted; the import completes', async () => {
    const [T1, M1, TAG1, P1, P2, N1] = [u(21), u(22), u(23), u(24), u(25), u(26)];
    routes['/teams'] = list([null, { id: T1, type: 'team', fields: { name: 'Payments', handle: 'payments' } }]);
    routes['/members'] = list([null, 7, { id: M1, type: 'member', fields: { name: 'Ann', email: 'ann@acme.example', role: 'admin' } }]);
    routes['/entities/fields/tags/values'] = list([null, { id: TAG1, fields: { name: 'wallets', color: 'green' } }]);
    routes['/entities/configurations'] = list([null]);
    routes['/entities'] = list([
      null,
      'str',
      [],
      { id: P1, type: 'product', fields: { name: 'Checkout' }, relationships: rels([null, 5, { type: 'parent' }]) },
      { id: P2, type: 'product', fields: { name: 'Wallets' }, relationships: rels({ 0: { type: 'parent', target: target(P1, 'product') } }) },
    ]);
    routes['/notes'] = list([
      null,
      {
        id: N1,
        type: 'textNote',
        fields: { name: 'Hello' },
        relationships: rels([null, { type: 'link', target: null }, { type: 'link', target: target(P1, 'product') }]),
      },
    ]);
    const result = await importProductboard({ source: base, tokenFile, name: 'Not records' });
    expect(result.counts).toEqual({ team: 1, member: 1, customField: 0, tagValue: 1, entity: 2, relation: 0, note: 1 });
    expect(result.skipped).toEqual({
      'items of the teams list that are not records (left out)': 1,
      'items of the members list that are not records (left out)': 2,
      'tag values without an id or a name': 1,
      'configurations that are not records (left out)': 1,
      'items of the entities list that are not records (left out)': 3,
      'items of the notes list that are not records (left out)': 1,
      'relationships that are not records with a target (left out)': 5,
      'relationships given as something else than a list (none read)': 1,
      'note links without an importance (imported as unknown)': 1,
    });
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    expect((await getEntity(result.id, id(P2)))?.parentId).toBeUndefined();
    expect((await getEntity(result.id, id(P1)))?.total).toBe(1);
  }, 60_000);

  it('records without a usable id (none, empty, blank, a number, over 255 characters) are left out and counted, never imported as one', async () => {
    const [T1, P1, N1] = [u(31), u(32), u(33)];
    routes['/teams'] = list([
      { type: 'team', fields: { name: 'No id', handle: 'noid' } },
      { id: T1, type: 'team', fields: { name: 'Payments', handle: 'payments' } },
    ]);
    const product = (name: string, id?: unknown) => ({ ...(id === undefined ? {} : { id }), type: 'product', fields: { name }, relationships: rels([]) });
    routes['/entities'] = list([
      product('No id'),
      product('Also no id'),
      product('Empty', ''),
      product('Blank', ' '),
      product('Number', 12345),
      product('Long', 'x'.repeat(256)),
      product('Checkout', P1),
    ]);
    routes['/notes'] = list([
      { type: 'textNote', fields: { name: 'No id' }, relationships: rels([]) },
      { id: N1, type: 'textNote', fields: { name: 'Hello' }, relationships: rels([]) },
    ]);
    const result = await importProductboard({ source: base, tokenFile, name: 'Without ids', adminEmail: 'admin@example.com' });
    expect(result.counts).toEqual({ team: 1, member: 0, customField: 0, tagValue: 0, entity: 1, relation: 0, note: 1 });
    expect(result.skipped).toEqual({
      'teams without an id (none, not a string, blank or over 255 characters: left out)': 1,
      'entities without an id (none, not a string, blank or over 255 characters: left out)': 6,
      'notes without an id (none, not a string, blank or over 255 characters: left out)': 1,
    });
    expect(await getEntity(result.id, uuidV5(result.id, `${base}\nundefined`))).toBeUndefined();
  }, 60_000);

  it('a date that is no ISO 8601 date-time is counted and read as absent; a link the API would not take is left out of the metadata, counted', async () => {
    const [P1, P2, N1] = [u(41), u(42), u(43)];
    const long = `https://acme.example/${'a'.repeat(5000)}`;
    routes['/entities'] = list([
      { id: P1, type: 'product', fields: { name: 'Checkout' }, relationships: rels([]), links: { html: long }, createdAt: 'yesterday', updatedAt: 12 },
      {
        id: P2,
        type: 'product',
        fields: { name: 'Wallets' },
        relationships: rels([]),
        links: { html: 'https://acme.example/p2' },
        createdAt: '2025-03-01T12:00:00+02:00',
        updatedAt: '2025-02-30T10:00:00Z',
      },
    ]);
    routes['/notes'] = list([
      { id: N1, type: 'textNote', fields: { name: 'Hello' }, relationships: rels([]), createdAt: '2025-03-01', updatedAt: '2025-03-02T09:30:00.000Z' },
    ]);
    const before = new Date().toISOString();
    const result = await importProductboard({ source: base, tokenFile, name: 'Dates and links', adminEmail: 'admin@example.com' });
    expect(result.skipped).toEqual({
      'entities whose createdAt is not an ISO 8601 date-time (imported as if they had none)': 1,
      'entities whose updatedAt is not an ISO 8601 date-time (imported as if they had none)': 2,
      'entities with a link the API would not take as metadata.source.url (imported without it): must be at most 1024 characters long': 1,
      'notes whose createdAt is not an ISO 8601 date-time (imported as if they had none)': 1,
    });
    expect(result.counts).toMatchObject({ entity: 2, note: 1 });
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    const [p1, p2, n1] = [await getEntity(result.id, id(P1)), await getEntity(result.id, id(P2)), await getNote(result.id, id(N1))];
    // No date of its own: the run's start, as a record the source gives none.
    expect(p1!.createdAt >= before && p1!.createdAt <= new Date().toISOString() && p1!.updatedAt === p1!.createdAt).toBe(true);
    expect(p1!.metadata).toEqual({ source: { system: 'productboard', recordId: P1 } });
    expect([p2!.createdAt, p2!.updatedAt, p2!.metadata]).toEqual([
      '2025-03-01T10:00:00.000Z',
      '2025-03-01T10:00:00.000Z',
      { source: { system: 'productboard', recordId: P2, url: 'https://acme.example/p2' } },
    ]);
    expect([n1!.createdAt, n1!.updatedAt]).toEqual(['2025-03-02T09:30:00.000Z', '2025-03-02T09:30:00.000Z']);
  }, 60_000);
});

describe('import productboard: a run stopped in the notes and run again', () => {
  const [M1, P1, F1, N1, N2, N3] = [u(51), u(52), u(53), u(54), u(55), u(56)];
  /** The notes' list, one note a page, N1 listed twice; the page cursors `{generation}:{offset}`. */
  const NOTES = [
    { id: N1, type: 'textNote', fields: { name: 'One' }, relationships: rels([{ type: 'link', target: target(F1, 'feature') }]) },
    { id: N2, type: 'textNote', fields: { name: 'Two' }, relationships: rels([{ type: 'link', target: target(F1, 'feature'), importance: 'critical' }]) },
    { id: N1, type: 'textNote', fields: { name: 'One again' }, relationships: rels([]) },
    { id: N3, type: 'textNote', fields: { name: 'Three' }, relationships: rels([{ type: 'link', target: target(F1, 'feature'), importance: 'important' }]) },
  ];
  /** The cursors the source takes (an older one answers 400, as an expired cursor does), and one it refuses with 403 to stop a run there. */
  let generation = 'a';
  let stopAt: string | undefined;
  const COUNTS = { team: 0, member: 1, customField: 0, tagValue: 0, entity: 2, relation: 0, note: 3 };
  const SKIPPED = { 'note links without an importance (imported as unknown)': 1, 'notes the source listed more than once (the first kept)': 1 };
  let uninterrupted: ImportResult;

  beforeEach(async () => {
    routes['/members'] = list([{ id: M1, type: 'member', fields: { name: 'Ann', email: 'ann@acme.example', role: 'admin' } }]);
    routes['/entities'] = list([
      { id: P1, type: 'product', fields: { name: 'Checkout' }, relationships: rels([]) },
      { id: F1, type: 'feature', fields: { name: 'Apple Pay' }, relationships: rels([{ type: 'parent', target: target(P1, 'product') }]) },
    ]);
    routes['/notes'] = (res, url) => {
      const cursor = url.searchParams.get('pageCursor');
      if (cursor !== null && cursor === stopAt) return json(res, { errors: [{ detail: 'stopped here' }] }, 403);
      if (cursor !== null && !cursor.startsWith(`${generation}:`)) return json(res, { errors: [{ detail: 'cursor expired' }] }, 400);
      const at = cursor === null ? 0 : Number(cursor.split(':')[1]);
      const next = at + 1 < NOTES.length ? `${base}/notes?pageCursor=${generation}:${at + 1}` : null;
      json(res, { data: [NOTES[at]], links: { next } });
    };
    [generation, stopAt] = ['a', undefined];
    uninterrupted ??= await importProductboard({ source: base, tokenFile, name: 'Cursor, uninterrupted' });
  });

  const runOf = async (name: string) => (await readRun<any>(runKeyOf('import productboard', base, createHash('sha256').update(TOKEN).digest('hex'), name)))!;

  it('uninterrupted, each note once, the repeat counted', () => {
    expect([uninterrupted.counts, uninterrupted.skipped]).toEqual([COUNTS, SKIPPED]);
  });

  it('the source refusing the cursor the stopped run saved: the list is read again from its start and counted once', async () => {
    stopAt = 'a:2';
    await expect(importProductboard({ source: base, tokenFile, name: 'Cursor refused' })).rejects.toThrow(
      'GET /notes?pageCursor=a:2 answered 403: stopped here',
    );
    expect((await runOf('Cursor refused')).checkpoint).toMatchObject({ phase: 5, next: `${base}/notes?pageCursor=a:2` });
    [generation, stopAt] = ['b', undefined];
    const result = await importProductboard({ source: base, tokenFile, name: 'Cursor refused' });
    expect(received).toContain('/notes?pageCursor=a:2');
    expect(result).toMatchObject({ resumed: true, counts: COUNTS, skipped: SKIPPED });
    expect(await verifyWorkspace(result.id, false)).toMatchObject({ mismatches: 0 });
  }, 60_000);

  it('stopped, then abandoned: what it wrote is deleted without asking the source, and the name begins again into a new workspace', async () => {
    const name = 'Cursor refused, abandoned';
    stopAt = 'a:2';
    await expect(importProductboard({ source: base, tokenFile, name })).rejects.toThrow(/answered 403/);
    const ws = (await runOf(name)).workspaceId;
    const itemsIn = async (w: string) =>
      (await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.partition(w) } })).length;
    const written = await itemsIn(ws);
    expect(written).toBeGreaterThan(0);
    const asked = received.length;
    expect(await abandonImport({ source: base, tokenFile, name })).toEqual({ id: ws, name, abandoned: true, deleted: written });
    expect(received.length).toBe(asked);
    expect(await itemsIn(ws)).toBe(0);
    stopAt = undefined;
    const result = await importProductboard({ source: base, tokenFile, name });
    expect(result).toMatchObject({ resumed: false, counts: COUNTS, skipped: SKIPPED });
    expect(result.id).not.toBe(ws);
    await expect(abandonImport({ source: base, tokenFile, name })).rejects.toThrow(
      `The import from ${base} as "${name}" is complete: workspace ${result.id} is reachable and in use, and is not abandoned.`,
    );
  }, 60_000);

  it('stopped again while reading the list again, before where the first reading got: run again, it reads the list from its start once more, each note counted once', async () => {
    stopAt = 'a:3';
    await expect(importProductboard({ source: base, tokenFile, name: 'Cursor refused, twice' })).rejects.toThrow(/answered 403/);
    [generation, stopAt] = ['b', 'b:1'];
    await expect(importProductboard({ source: base, tokenFile, name: 'Cursor refused, twice' })).rejects.toThrow(/answered 403/);
    expect((await runOf('Cursor refused, twice')).checkpoint).toMatchObject({ phase: 5, next: `${base}/notes?pageCursor=b:1`, restarted: true });
    stopAt = undefined;
    const result = await importProductboard({ source: base, tokenFile, name: 'Cursor refused, twice' });
    expect(result).toMatchObject({ resumed: true, counts: COUNTS, skipped: SKIPPED });
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    expect((await getNote(result.id, id(N1)))?.fields.name).toBe('One');
  }, 60_000);

  it('killed while a page was being written, part of it in (a crash: its first BatchWriteItem lands, every later call of the process fails): run again, what that page lets in is told from a repeat', async () => {
    // After N1 and N2, a page of 13 notes that each link the feature: 26 items, so two BatchWriteItems
    // (25 items a call), the first with all 13 notes and 12 of their links, the second the last link.
    const PAGE = Array.from({ length: 13 }, (_, i) => ({
      id: u(60 + i),
      type: 'textNote',
      fields: { name: `Paged ${i + 1}` },
      relationships: rels([{ type: 'link', target: target(F1, 'feature'), importance: 'important' }]),
    }));
    const PAGES = [[NOTES[0]], [NOTES[1]], PAGE];
    routes['/notes'] = (res, url) => {
      const at = Number(url.searchParams.get('pageCursor') ?? 0);
      json(res, { data: PAGES[at], links: { next: at + 1 < PAGES.length ? `${base}/notes?pageCursor=${at + 1}` : null } });
    };
    const whole = await importProductboard({ source: base, tokenFile, name: 'A page of 13, uninterrupted' });
    expect([whole.counts, whole.skipped]).toEqual([{ ...COUNTS, note: 15 }, { 'note links without an importance (imported as unknown)': 1 }]);

    const name = 'Killed in a write';
    // Only the page's second write is of links alone; it is refused, and with it every later call.
    const crash = crashAt(
      ({ operation, input }) =>
        operation === 'BatchWriteItem' &&
        Object.values(input.RequestItems as Record<string, Array<{ PutRequest?: { Item: { kind: string } } }>>)
          .flat()
          .every((w) => w.PutRequest?.Item.kind === 'link'),
      { before: true },
    );
    try {
      await expect(importProductboard({ source: base, tokenFile, name })).rejects.toThrow('injected crash: before BatchWriteItem');
    } finally {
      heal();
    }
    expect(crash.crashed).toBe(true);
    const run = await runOf(name);
    const ws = run.workspaceId;
    const mapped = (sourceId: string) => uuidV5(ws, `${base}\n${sourceId}`);
    // What the crash left: the run at the page, which said what it lets in; all 13 notes in (the first
    // write was on its way when the process went down), the last one's link not.
    expect(run.checkpoint).toEqual({
      phase: 5,
      orphansCounted: true,
      base: expect.any(Object),
      next: `${base}/notes?pageCursor=2`,
      adding: PAGE.map((n) => mapped(n.id)),
    });
    await expect.poll(async () => (await presentIds(ws, 'note')).size).toBe(15);
    expect(await presentIds(ws, 'note')).toEqual(new Set([N1, N2, ...PAGE.map((n) => n.id)].map(mapped)));
    const last = mapped(PAGE[12]!.id);
    expect((await getItem({ TableName: tableName(), Key: keys.link(ws, last, mapped(F1)), ConsistentRead: true })).Item).toBeUndefined();

    const result = await importProductboard({ source: base, tokenFile, name });
    expect(result).toMatchObject({ resumed: true, counts: whole.counts, skipped: whole.skipped });
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    expect((await getNote(result.id, id(PAGE[12]!.id)))?.fields.name).toBe('Paged 13');
    expect((await getItem({ TableName: tableName(), Key: keys.link(result.id, id(PAGE[12]!.id), id(F1)), ConsistentRead: true })).Item).toMatchObject({
      importance: 'important',
    });
    // N1, N2 and the page's 13 notes link the feature, all anonymous: 1 each.
    expect((await getEntity(result.id, id(F1)))?.total).toBe(15);
    expect(await verifyWorkspace(result.id, false)).toMatchObject({ mismatches: 0 });
  }, 60_000);
});
