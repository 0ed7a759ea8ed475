// admin import productboard sends the source token to the source only, and reads each list to its
// end once: two real local servers, the source and another host. A `links.next` or a redirect
// naming the other host stops the import with the link named, and the other host receives nothing;
// a next link naming a page already read stops it instead of looping, with nothing of that list
// counted. A note's link to an entity the source did not list, or a second link to one entity, is
// skipped and reported, and the import completes. So is what the API would not take: a record (a
// tag value's name over its limit, a team's handle, a second record of a name the API keeps to one)
// with each reference to it (an entity's tags and teams, a member's teams; an owner naming a member
// without an e-mail is left unset), and a value (a custom number past its bounds, a conversation's
// part given twice). An entity without a name the API would take, or under a parent not imported, is
// left out with what is under it (a customer that needs no parent keeps itself, without it), and so
// is a relation to what was left out: the workspace holds no reference a read cannot follow. The
// export of what was imported restores; a run that stopped and is run again counts each once.
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uuidV5 } from '#lib/domain/uuid-v5.ts';
import { getEntity } from '#lib/store/entities.ts';
import { getMember } from '#lib/store/members.ts';
import { readRun, runKeyOf } from '#lib/store/move/runs.ts';
import { getNote } from '#lib/store/notes.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { runCli } from './kill.ts';
import { closeServer, listen } from '../../bench/local-stack.ts';
import { exportWorkspace } from '../../local/move/export.ts';
import { importProductboard } from '../../local/move/import-productboard.ts';
import { restoreWorkspace } from '../../local/move/restore.ts';

const TOKEN = 'pb-secret-token';
const tokenFile = join(tmpdir(), `move-source-links-token-${process.pid}`);
const exportFile = join(tmpdir(), `move-source-limits-${process.pid}.jsonl.gz`);
let source: Server;
let other: Server;
let base = '';
let otherBase = '';
/** What each list answers beyond an empty last page, by path under /v2. */
let special: Record<string, (res: ServerResponse) => void> = {};
const sourceRequests: string[] = [];
const otherRequests: Array<{ url: string; authorization: string | undefined }> = [];

const json = (res: ServerResponse, body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

beforeAll(async () => {
  source = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname.replace(/^\/v2/, '');
    sourceRequests.push(path);
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end();
    const answer = special[path];
    if (answer) return answer(res);
    json(res, { data: [], links: { next: null } });
  });
  other = createServer((req, res) => {
    otherRequests.push({ url: req.url!, authorization: req.headers.authorization });
    json(res, { data: [], links: { next: null } });
  });
  base = `${await listen(source)}/v2`;
  otherBase = `${await listen(other)}/v2`;
  await writeFile(tokenFile, TOKEN, { mode: 0o600 });
});

beforeEach(() => {
  special = {};
  sourceRequests.length = 0;
  otherRequests.length = 0;
});

afterAll(async () => {
  await closeServer(source);
  await closeServer(other);
  await rm(tokenFile, { force: true });
  await rm(exportFile, { force: true });
});

const args = (name: string) => ['import', 'productboard', '--source', base, '--source-token-file', tokenFile, '--name', name];
/** The refusal: the last line the CLI wrote to stderr (progress lines come before it). */
const lastLine = (stderr: string) => stderr.trim().split('\n').at(-1);
const runOf = (name: string) => readRun(runKeyOf('import productboard', base, createHash('sha256').update(TOKEN).digest('hex'), name));

describe('import productboard: links the source gives', () => {
  it('a links.next on another host stops the import, naming the link; the other host receives no request', async () => {
    const foreign = `${otherBase}/entities/configurations?pageCursor=2`;
    special['/entities/configurations'] = (res) => json(res, { data: [], links: { next: foreign } });
    const run = await runCli(args('Foreign next'));
    expect(run.code).toBe(2);
    expect(lastLine(run.stderr)).toBe(
      `import productboard: The source gave the link ${foreign}, which is not under --source ${base}: not followed (the source token is sent to the source only)`,
    );
    expect(otherRequests).toEqual([]);
  }, 60_000);

  it('a next link outside the source path, or a redirect to another host, is refused the same way', async () => {
    const outside = `${base.replace(/\/v2$/, '')}/admin/secrets`;
    special['/entities/configurations'] = (res) => json(res, { data: [], links: { next: outside } });
    const a = await runCli(args('Outside the path'));
    expect(lastLine(a.stderr)).toBe(
      `import productboard: The source gave the link ${outside}, which is not under --source ${base}: not followed (the source token is sent to the source only)`,
    );
    expect(sourceRequests).not.toContain('/admin/secrets');
    special = { '/notes/configurations': (res) => res.writeHead(302, { location: `${otherBase}/notes/configurations` }).end() };
    const b = await runCli(args('Redirected'));
    expect(b.code).toBe(2);
    expect(lastLine(b.stderr)).toBe(
      `import productboard: The source gave the link ${otherBase}/notes/configurations, which is not under --source ${base}: not followed (the source token is sent to the source only)`,
    );
    expect(otherRequests).toEqual([]);
  }, 60_000);

  it('a next link naming a page already read stops the import instead of looping; nothing of that list is counted', async () => {
    const team = { id: '00000000-0000-4000-8000-000000000001', type: 'team', fields: { name: 'Payments', handle: 'payments' } };
    special['/teams'] = (res) => json(res, { data: [team], links: { next: '/teams' } });
    const run = await runCli(args('Looping teams'));
    expect(run.code).toBe(2);
    expect(lastLine(run.stderr)).toBe(
      "import productboard: The source's list /teams gave as its next page /teams, a page it already gave: the list does not end; nothing more of it was read",
    );
    // Once by the scope check, once as the list's first page.
    expect(sourceRequests.filter((p) => p === '/teams')).toHaveLength(2);
    expect((await runOf('Looping teams'))?.counts.team).toBeUndefined();
  }, 60_000);

  it('note links to entities the source did not list, and a second link to one entity, are skipped and reported; the import completes', async () => {
    const u = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const [PRODUCT, FEATURE, UNLISTED, COMPANY, N1, N2] = [u(11), u(12), u(13), u(14), u(15), u(16)];
    const target = (id: string, type: string) => ({ id, type });
    const rels = (data: unknown[]) => ({ data, links: { next: null } });
    special['/entities'] = (res) =>
      json(res, {
        data: [
          { id: PRODUCT, type: 'product', fields: { name: 'Checkout' }, relationships: rels([]) },
          { id: FEATURE, type: 'feature', fields: { name: 'Apple Pay' }, relationships: rels([{ type: 'parent', target: target(PRODUCT, 'product') }]) },
        ],
        links: { next: null },
      });
    special['/notes'] = (res) =>
      json(res, {
        data: [
          {
            id: N1,
            type: 'textNote',
            fields: { name: 'Twice' },
            relationships: rels([
              { type: 'link', target: target(FEATURE, 'feature'), importance: 'critical' },
              { type: 'link', target: target(FEATURE, 'feature'), importance: 'important' },
            ]),
          },
          {
            id: N2,
            type: 'textNote',
            fields: { name: 'Unlisted' },
            relationships: rels([
              { type: 'customer', target: target(COMPANY, 'company') },
              { type: 'link', target: target(UNLISTED, 'feature'), importance: 'critical' },
              { type: 'link', target: target(FEATURE, 'feature'), importance: 'nice to have' },
            ]),
          },
        ],
        links: { next: null },
      });
    const result = await importProductboard({ source: base, tokenFile, name: 'Unlisted targets', adminEmail: 'admin@example.com' });
    expect(result.counts).toMatchObject({ entity: 2, note: 2 });
    expect(result.skipped).toEqual({
      'note links to entities not imported': 1,
      'note links repeated to one entity (the first kept)': 1,
      'note customers the source did not list (imported without its customer)': 1,
    });
    // Both notes anonymous: 1 each on the feature, and so on the product.
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    expect([(await getEntity(result.id, id(FEATURE)))?.total, (await getEntity(result.id, id(PRODUCT)))?.total]).toEqual([2, 2]);
    expect(await verifyWorkspace(result.id, false)).toMatchObject({ mismatches: 0 });
  }, 60_000);
  it('an entity under a parent not imported is left out with its subtree, a relation to one left out is dropped, a user keeps itself without its unlisted company; reported, the export restores, a stopped run counts each once', async () => {
    const u = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const [P1, C1, F1, P2, F2, F3, UNLISTED, CO, U1, N1, P0, C0] = [u(41), u(42), u(43), u(44), u(45), u(46), u(47), u(48), u(49), u(50), u(51), u(52)];
    const target = (id: string, type: string) => ({ id, type });
    const rels = (data: unknown[]) => ({ data, links: { next: null } });
    const parent = (id: string, type: string) => ({ type: 'parent', target: target(id, type) });
    special['/entities'] = (res) =>
      json(res, {
        data: [
          // P1 is not listed, and P0's name is over the API's limit: what is under either has no parent here.
          { id: P0, type: 'product', fields: { name: 'x'.repeat(300) }, relationships: rels([]) },
          { id: C0, type: 'component', fields: { name: 'Cards' }, relationships: rels([parent(P0, 'product')]) },
          { id: C1, type: 'component', fields: { name: 'Wallets' }, relationships: rels([parent(P1, 'product')]) },
          { id: F1, type: 'feature', fields: { name: 'Apple Pay' }, relationships: rels([parent(C1, 'component')]) },
          { id: P2, type: 'product', fields: { name: 'Checkout' }, relationships: rels([]) },
          {
            id: F2,
            type: 'feature',
            fields: { name: 'Cards' },
            relationships: rels([
              parent(P2, 'product'),
              { type: 'isBlocking', target: target(F1, 'feature') },
              { type: 'link', target: target(UNLISTED, 'feature') },
            ]),
          },
          {
            id: F3,
            type: 'feature',
            fields: { name: 'Receipts' },
            relationships: rels([parent(P2, 'product'), { type: 'isBlocking', target: target(F2, 'feature') }]),
          },
          { id: U1, type: 'user', fields: { name: 'Dana', email: 'dana@acme.example' }, relationships: rels([parent(CO, 'company')]) },
        ],
        links: { next: null },
      });
    const notes = (res: ServerResponse) =>
      json(res, {
        data: [
          {
            id: N1,
            type: 'textNote',
            fields: { name: 'Wallets and receipts' },
            relationships: rels([
              { type: 'customer', target: target(U1, 'user') },
              { type: 'link', target: target(F1, 'feature'), importance: 'critical' },
              { type: 'link', target: target(F3, 'feature'), importance: 'important' },
            ]),
          },
        ],
        links: { next: null },
      });
    // The notes' list refused once after the check of the token: the run stops once the entities are in.
    let calls = 0;
    special['/notes'] = (res) => (++calls === 2 ? res.writeHead(400).end() : notes(res));
    await expect(importProductboard({ source: base, tokenFile, name: 'Orphans', adminEmail: 'admin@example.com' })).rejects.toThrow(/\/notes answered 400/);
    const result = await importProductboard({ source: base, tokenFile, name: 'Orphans', adminEmail: 'admin@example.com' });
    expect(result).toMatchObject({ resumed: true, counts: { entity: 4, relation: 1, note: 1 } });
    expect(result.skipped).toEqual({
      'entities without a name the API would take (left out)': 1,
      'entities under a parent not imported (left out, with what is under them)': 3,
      'parents not imported, of entities that need none (left unset)': 1,
      'relations to entities not imported': 2,
      'note links to entities not imported': 1,
    });
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    expect(await Promise.all([P0, C0, C1, F1].map((e) => getEntity(result.id, id(e))))).toEqual([undefined, undefined, undefined, undefined]);
    const user = await getEntity(result.id, id(U1));
    expect([user?.fields.name, user?.parentId]).toEqual(['Dana', undefined]);
    // The note with its customer, its one link imported: importance 2 on F3 and the product.
    expect((await getNote(result.id, id(N1)))?.customer?.id).toBe(id(U1));
    expect([(await getEntity(result.id, id(F3)))?.total, (await getEntity(result.id, id(P2)))?.total]).toEqual([2, 2]);
    expect(await verifyWorkspace(result.id, false)).toMatchObject({ mismatches: 0 });
    const exported = await exportWorkspace(result.id, exportFile);
    expect(exported.counts).toMatchObject({ entity: 4, relation: 1, note: 1 });
    expect((await restoreWorkspace(exportFile, { name: 'Orphans, restored' })).counts).toEqual(exported.counts);
  }, 60_000);
  it('entities past the depth cap or in a cycle of parents are left out with what is under them; the rest restores', async () => {
    const u = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const rels = (data: unknown[]) => ({ data, links: { next: null } });
    const entity = (id: string, type: string, parent?: [string, string]) => ({
      id,
      type,
      fields: { name: `${type} ${id.slice(-2)}` },
      relationships: rels(parent ? [{ type: 'parent', target: { id: parent[0], type: parent[1] } }] : []),
    });
    // A product, 8 components each in the one before (the 8th is 9 levels deep), a feature in the 8th; two components in each other.
    const chain = Array.from({ length: 8 }, (_, i) => u(61 + i));
    const [PRODUCT, FEATURE, A, B] = [u(60), u(69), u(70), u(71)];
    special['/entities'] = (res) =>
      json(res, {
        data: [
          entity(PRODUCT, 'product'),
          ...chain.map((id, i) => entity(id, 'component', i === 0 ? [PRODUCT, 'product'] : [chain[i - 1]!, 'component'])),
          entity(FEATURE, 'feature', [chain[7]!, 'component']),
          entity(A, 'component', [B, 'component']),
          entity(B, 'component', [A, 'component']),
        ],
        links: { next: null },
      });
    const result = await importProductboard({ source: base, tokenFile, name: 'Too deep', adminEmail: 'admin@example.com' });
    expect(result.counts).toMatchObject({ entity: 8, relation: 0 });
    expect(result.skipped).toEqual({
      'entities deeper than 8 levels (left out, with what is under them)': 1,
      'entities under a parent not imported (left out, with what is under them)': 1,
      'entities whose parents lead back to themselves (left out, with what is under them)': 2,
    });
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    expect([await getEntity(result.id, id(chain[6]!)).then((e) => e?.parentId), await getEntity(result.id, id(chain[7]!))]).toEqual([id(chain[5]!), undefined]);
    const exported = await exportWorkspace(result.id, exportFile);
    expect((await restoreWorkspace(exportFile, { name: 'Too deep, restored' })).counts).toEqual(exported.counts);
  }, 60_000);
});

describe('import productboard: what the API would not take', () => {
  const u = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const [T1, T2, T3] = [u(21), u(22), u(23)];
  const [M1, M2, M3, M4] = [u(24), u(25), u(26), u(27)];
  const [TAG1, TAG2, TAG3] = [u(28), u(29), u(30)];
  const [EFFORT, EFFORT2] = [u(31), u(32)];
  const [PRODUCT, F1, F2, N1] = [u(33), u(34), u(35), u(36)];
  const list = (data: unknown[]) => (res: ServerResponse) => json(res, { data, links: { next: null } });
  const rels = (data: unknown[]) => ({ data, links: { next: null } });

  it('a custom field value or a note content the API would not store is skipped and reported; the rest of the record is imported and the export restores', async () => {
    special['/entities/configurations'] = list([{ type: 'feature', fields: { [EFFORT]: { id: EFFORT, name: 'Effort', schema: { type: 'number' } } } }]);
    special['/entities'] = list([
      { id: PRODUCT, type: 'product', fields: { name: 'Checkout' }, relationships: rels([]) },
      {
        id: F1,
        type: 'feature',
        fields: { name: 'Apple Pay', [EFFORT]: 1e300 },
        relationships: rels([{ type: 'parent', target: { id: PRODUCT, type: 'product' } }]),
      },
    ]);
    // A conversation's parts are told apart by their externalId: a write takes each once.
    const part = (content: string) => ({ externalId: 'm1', authorType: 'customer', content, timestamp: '2025-03-01T10:00:00Z' });
    special['/notes'] = list([
      {
        id: N1,
        type: 'conversationNote',
        fields: { name: 'Chat', content: [part('Hi'), part('Again')] },
        relationships: rels([{ type: 'link', target: { id: F1, type: 'feature' }, importance: 'critical' }]),
      },
    ]);
    const result = await importProductboard({ source: base, tokenFile, name: 'Values over the limits', adminEmail: 'admin@example.com' });
    expect(result.counts).toMatchObject({ customField: 1, entity: 2, note: 1 });
    expect(result.skipped).toEqual({
      'values of number custom fields of a feature in a shape the kind cannot hold': 1,
      'content of a conversationNote in a shape this service does not store': 1,
    });
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    expect((await getEntity(result.id, id(F1)))?.fields).toEqual({ name: 'Apple Pay' });
    expect((await getNote(result.id, id(N1)))?.fields).toEqual({ name: 'Chat' });
    const exported = await exportWorkspace(result.id, exportFile);
    expect((await restoreWorkspace(exportFile, { name: 'Values over the limits, restored' })).counts).toEqual(exported.counts);
  }, 60_000);

  /** The source: besides what the API takes, a team's bad handle, a tag value's name over 255 characters, a member without an e-mail, second ones of unique names, and references to all of them. */
  const overTheLimits = () => {
    special['/teams'] = list([
      { id: T1, type: 'team', fields: { name: 'Payments', handle: 'payments' } },
      { id: T2, type: 'team', fields: { name: 'Growth', handle: 'Growth Team' } },
      { id: T3, type: 'team', fields: { name: 'PAYMENTS', handle: 'payments2' } },
    ]);
    special['/members'] = list([
      { id: M1, type: 'member', fields: { name: 'Ann', email: 'ann@acme.example', role: 'admin', teams: [{ id: T1 }, { id: T2 }] } },
      { id: M2, type: 'member', fields: { name: 'No Mail', role: 'maker' } },
      { id: M3, type: 'member', fields: { name: 'Ann again', email: 'ANN@acme.example', role: 'maker' } },
      { id: M4, type: 'member', fields: { name: 'Odd', email: 'not an e-mail', role: 'viewer' } },
    ]);
    special['/entities/fields/tags/values'] = list([
      { id: TAG1, fields: { name: 'wallets', color: 'green' } },
      { id: TAG2, fields: { name: 'x'.repeat(300), color: 'red' } },
      { id: TAG3, fields: { name: 'Wallets', color: 'blue' } },
    ]);
    special['/entities/configurations'] = list([
      {
        type: 'feature',
        fields: {
          [EFFORT]: { id: EFFORT, name: 'Effort', schema: { type: 'number' } },
          [EFFORT2]: { id: EFFORT2, name: 'effort', schema: { type: 'number' } },
        },
      },
    ]);
    const tags = [TAG1, TAG2, TAG3].map((id) => ({ id, name: id === TAG2 ? 'x'.repeat(300) : 'wallets' }));
    const teams = [T1, T2, T3].map((id) => ({ id, name: id === T2 ? 'Growth' : 'Payments' }));
    special['/entities'] = list([
      { id: PRODUCT, type: 'product', fields: { name: 'Checkout' }, relationships: rels([]) },
      {
        id: F1,
        type: 'feature',
        fields: { name: 'Apple Pay', owner: { id: M2, email: 'nomail@acme.example' }, tags, teams, [EFFORT]: 3, [EFFORT2]: 5 },
        relationships: rels([{ type: 'parent', target: { id: PRODUCT, type: 'product' } }]),
      },
      {
        id: F2,
        type: 'feature',
        fields: { name: 'Google Pay', owner: { id: M1, email: 'ann@acme.example' } },
        relationships: rels([{ type: 'parent', target: { id: PRODUCT, type: 'product' } }]),
      },
    ]);
    special['/notes'] = list([
      {
        id: N1,
        type: 'textNote',
        fields: { name: 'Wallets, please', owner: { id: M3, email: 'ANN@acme.example' }, creator: { id: M1, email: 'ann@acme.example' } },
        relationships: rels([{ type: 'link', target: { id: F1, type: 'feature' }, importance: 'critical' }]),
      },
    ]);
  };
  const SKIPPED = {
    "teams the API would not take: '/handle' must be lowercase letters and digits only": 1,
    'teams with the name of one imported before': 1,
    'members without an e-mail or a role': 1,
    'members with the e-mail of one imported before': 1,
    "members the API would not take: '/email' must be an e-mail address": 1,
    'team memberships of a team not imported (left off the member)': 1,
    'custom fields with the name of one imported before': 1,
    "tag values the API would not take: '/name' must be at most 255 characters long": 1,
    'tag values with the name of one imported before': 1,
    'owners naming no imported member (left unset)': 2,
    'entity tags naming a tag value not imported (left off the entity)': 2,
    'entity teams naming a team not imported (left off the entity)': 2,
    'values of custom fields not imported': 1,
  };
  const COUNTS = { team: 1, member: 1, customField: 1, tagValue: 1, entity: 3, relation: 0, note: 1 };

  it('an over-long tag name, a member without an e-mail and what refers to them are skipped and reported; the import completes and its export restores', async () => {
    overTheLimits();
    const result = await importProductboard({ source: base, tokenFile, name: 'Over the limits' });
    expect(result.counts).toEqual(COUNTS);
    expect(result.skipped).toEqual(SKIPPED);
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    expect((await getEntity(result.id, id(F1)))?.fields).toEqual({
      name: 'Apple Pay',
      tags: [{ id: id(TAG1), name: 'wallets' }],
      teams: [{ id: id(T1), name: 'Payments' }],
      [id(EFFORT)]: 3,
    });
    expect((await getEntity(result.id, id(F2)))?.fields).toEqual({ name: 'Google Pay', owner: { id: id(M1), email: 'ann@acme.example' } });
    expect((await getNote(result.id, id(N1)))?.fields).toEqual({ name: 'Wallets, please', creator: { id: id(M1), email: 'ann@acme.example' } });
    expect((await getMember(result.id, id(M1)))?.teamIds).toEqual([id(T1)]);
    expect(await verifyWorkspace(result.id, false)).toMatchObject({ mismatches: 0 });
    // What it imported, exported, is a file restore takes.
    const exported = await exportWorkspace(result.id, exportFile);
    const restored = await restoreWorkspace(exportFile, { name: 'Over the limits, restored' });
    expect(restored.counts).toEqual(exported.counts);
    expect(restored.counts).toMatchObject({ team: 1, member: 1, customField: 1, tagValue: 1, entity: 3, note: 1 });
    expect(restored.scores).toEqual({ checked: 3, mismatches: 0 });
  }, 60_000);

  it('a run that stopped in the notes and is run again knows what the first left out: each counted once, what was let in kept', async () => {
    overTheLimits();
    // The notes' list refused once after the check of the token: the run stops with everything before the notes written.
    const notes = special['/notes']!;
    let calls = 0;
    special['/notes'] = (res) => (++calls === 2 ? res.writeHead(400).end() : notes(res));
    await expect(importProductboard({ source: base, tokenFile, name: 'Over the limits, resumed' })).rejects.toThrow(/\/notes answered 400/);
    const result = await importProductboard({ source: base, tokenFile, name: 'Over the limits, resumed' });
    expect(result).toMatchObject({ resumed: true, counts: COUNTS, skipped: SKIPPED });
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    expect((await getNote(result.id, id(N1)))?.fields).toEqual({ name: 'Wallets, please', creator: { id: id(M1), email: 'ann@acme.example' } });
  }, 60_000);
});
