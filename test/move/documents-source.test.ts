// admin import productboard from a second source shaped by Productboard's own documents, not by this
// service: a small server whose every answer is validated against Productboard's OpenAPI schemas
// (test/compat/validate.ts, no patch of ours), with pages of two records ending in `links.next: null`,
// notes newest first, links without an importance, types and fields this service has not, and a 429
// with Retry-After on every fourth request. The import succeeds, waits as told, and reports by kind
// and count what it could not import.
import { rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidV5 } from '#lib/domain/uuid-v5.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { readWorkspace } from './read-workspace.ts';
import { listen, closeServer } from '../../bench/local-stack.ts';
import { importProductboard } from '../../local/move/import-productboard.ts';
import { validateResponse } from '../compat/validate.ts';
import { startApp, type TestApp } from '../support/app.ts';

const u = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const RELEASE_GROUP = u(15);
const [ADMIN, HELPER, PRODUCT, FEATURE, RELEASE, COMPANY, USER, N1, N2, N3, EFFORT, HEALTH, TEAM, TAG] = Array.from({ length: 14 }, (_, i) => u(i + 1)) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const T = (minute: number) => `2025-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

let base = '';
const links = (kind: string, id: string) => ({ self: `${base}/${kind}/${id}`, html: `https://acme.productboard.com/${kind}/${id}` });
const ref = (id: string, type: string) => ({ id, type, links: links('entities', id) });
const rels = (data: unknown[]) => ({ data, links: { next: null } });

const members = () => [
  {
    id: ADMIN,
    type: 'member',
    fields: {
      name: 'Ann Admin',
      username: 'ann',
      email: 'ann@acme.example',
      role: 'admin',
      disabled: false,
      invitationPending: false,
      teams: [{ id: TEAM, name: 'Payments', links: { self: `${base}/teams/${TEAM}` } }],
    },
    links: links('members', ADMIN),
  },
  {
    id: HELPER,
    type: 'member',
    fields: { name: 'Hal Helper', username: 'hal', email: 'hal@acme.example', role: 'contributor', disabled: true, invitationPending: false },
    links: links('members', HELPER),
  },
];
const entities = () => [
  { id: PRODUCT, type: 'product', fields: { name: 'Checkout' }, relationships: rels([]), links: links('entities', PRODUCT), createdAt: T(1), updatedAt: T(1) },
  {
    id: FEATURE,
    type: 'feature',
    fields: {
      name: 'Apple Pay',
      status: { id: u(90), name: 'Planned' },
      owner: { id: ADMIN, email: 'ann@acme.example' },
      tags: [{ id: TAG, name: 'wallets' }],
      teams: [{ id: TEAM, name: 'Payments' }],
      [EFFORT]: 3,
      [HEALTH]: { status: 'onTrack' },
    },
    relationships: rels([
      { type: 'parent', target: ref(PRODUCT, 'product') },
      { type: 'link', target: ref(RELEASE, 'release') },
    ]),
    links: links('entities', FEATURE),
    createdAt: T(2),
    updatedAt: T(3),
  },
  // A release sits in a release group: one without a parent would be left out with what refers to it.
  {
    id: RELEASE_GROUP,
    type: 'releaseGroup',
    fields: { name: '2025' },
    relationships: rels([]),
    links: links('entities', RELEASE_GROUP),
    createdAt: T(2),
    updatedAt: T(2),
  },
  {
    id: RELEASE,
    type: 'release',
    fields: { name: 'Q3', status: { id: u(91), name: 'In progress' } },
    relationships: rels([{ type: 'parent', target: ref(RELEASE_GROUP, 'releaseGroup') }]),
    links: links('entities', RELEASE),
    createdAt: T(2),
    updatedAt: T(2),
  },
  {
    id: COMPANY,
    type: 'company',
    fields: { name: 'Acme', domain: 'acme.example' },
    relationships: rels([]),
    links: links('entities', COMPANY),
    createdAt: T(4),
    updatedAt: T(4),
  },
  {
    id: USER,
    type: 'user',
    fields: { name: 'Uma User', email: 'uma@acme.example' },
    relationships: rels([{ type: 'parent', target: ref(COMPANY, 'company') }]),
    links: links('entities', USER),
    createdAt: T(5),
    updatedAt: T(5),
  },
];
const notes = () => [
  // Newest first, as Productboard lists notes.
  {
    id: N3,
    type: 'textNote',
    fields: { name: 'Anonymous', content: '<p>anon</p>' },
    relationships: rels([
      { type: 'link', target: ref(FEATURE, 'feature') },
      { type: 'link', target: ref(RELEASE, 'release') },
    ]),
    links: links('notes', N3),
    createdAt: T(9),
    updatedAt: T(9),
  },
  {
    id: N2,
    type: 'textNote',
    fields: { name: 'Later', content: '<p>later</p>' },
    relationships: rels([
      { type: 'customer', target: ref(COMPANY, 'company') },
      { type: 'link', target: ref(FEATURE, 'feature') },
    ]),
    links: links('notes', N2),
    createdAt: T(7),
    updatedAt: T(8),
  },
  {
    id: N1,
    type: 'textNote',
    fields: { name: 'Earlier', content: '<p>earlier</p>' },
    relationships: rels([
      { type: 'customer', target: ref(COMPANY, 'company') },
      { type: 'link', target: ref(FEATURE, 'feature') },
    ]),
    links: links('notes', N1),
    createdAt: T(6),
    updatedAt: T(6),
  },
];
const configurations = (types: string[]) =>
  types.map((type) => ({
    type,
    fields: {
      name: { id: 'name', name: 'Name', path: '/fields/name', schema: { type: 'string' } },
      ...(type === 'feature'
        ? {
            [EFFORT]: { id: EFFORT, name: 'Effort', path: `/fields/${EFFORT}`, schema: { type: 'number' } },
            [HEALTH]: { id: HEALTH, name: 'Health', path: `/fields/${HEALTH}`, schema: { type: 'object' } },
          }
        : {}),
    },
    links: { self: `${base}/entities/configurations/${type}` },
  }));

const mismatches: string[] = [];
const seen: Array<{ path: string; at: number; status: number }> = [];
let server: Server;
let app: TestApp;
const tokenFile = join(tmpdir(), `move-documents-token-${process.pid}`);

function page(list: unknown[], url: URL): { data: unknown[]; links: { next: string | null } } {
  const from = Number(url.searchParams.get('pageCursor') ?? 0);
  const next = new URL(url.toString());
  next.searchParams.set('pageCursor', String(from + 2));
  return { data: list.slice(from, from + 2), links: { next: from + 2 < list.length ? `${base}${next.pathname.slice(3)}${next.search}` : null } };
}

beforeAll(async () => {
  app = await startApp();
  let requests = 0;
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const path = url.pathname.replace(/^\/v2/, '');
    if (++requests % 4 === 0) {
      seen.push({ path, at: Date.now(), status: 429 });
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
        .end(JSON.stringify({ id: 'r', errors: [{ code: 'rate.limitExceeded', title: 'Rate limit exceeded', detail: 'slow down' }] }));
      return;
    }
    seen.push({ path, at: Date.now(), status: 200 });
    let operationId: string;
    let body: unknown;
    if (req.headers.authorization !== 'Bearer pb-token') {
      res.writeHead(401).end();
      return;
    }
    if (path === '/members') [operationId, body] = ['listMembers', page(members(), url)];
    // teams.yaml's listTeams, written by hand: test/compat reads the four documents without it, so this answer is not validated.
    else if (path === '/teams')
      [operationId, body] = [
        '',
        {
          data: [
            {
              id: TEAM,
              type: 'team',
              fields: { name: 'Payments', handle: 'payments', description: 'Checkout and wallets' },
              links: { self: `${base}/teams/${TEAM}` },
              createdAt: T(0),
              updatedAt: T(1),
            },
          ],
          links: { next: null },
        },
      ];
    else if (path === '/entities/fields/tags/values')
      [operationId, body] = ['listEntityFieldValues', { data: [{ id: TAG, fields: { name: 'wallets', color: 'green' } }], links: { next: null } }];
    else if (path === '/entities/configurations')
      [operationId, body] = ['listEntityConfigurations', { data: configurations(['product', 'feature', 'release', 'company', 'user']), links: { next: null } }];
    else if (path === '/notes/configurations') [operationId, body] = ['listNoteConfigurations', { data: configurations(['textNote']), links: { next: null } }];
    else if (path === '/entities') {
      const types = url.searchParams.getAll('type[]');
      [operationId, body] = [
        'listEntities',
        page(
          entities().filter((e) => !types.length || types.includes(e.type)),
          url,
        ),
      ];
    } else if (path === '/notes') [operationId, body] = ['listNotes', page(notes(), url)];
    else {
      res.writeHead(404).end();
      return;
    }
    if (operationId) {
      const v = validateResponse(operationId, 200, body, []);
      mismatches.push(...v.mismatches.map((m) => `${operationId}: ${m}`));
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  base = `${await listen(server)}/v2`;
  await writeFile(tokenFile, 'pb-token');
});

afterAll(async () => {
  await closeServer(server);
  await app?.close();
  await rm(tokenFile, { force: true });
});

describe("import productboard from a source shaped by Productboard's documents", () => {
  it('imports what this service holds, waits out every 429 for its Retry-After, and reports by kind and count what it could not import', async () => {
    const result = await importProductboard({ source: base, tokenFile, name: 'From the documents' });
    expect(mismatches).toEqual([]);
    expect(result.counts).toEqual({ team: 1, member: 2, customField: 1, tagValue: 1, entity: 6, relation: 1, note: 3 });
    expect(result.skipped).toEqual({
      'contributor members (imported as viewers)': 1,
      'custom field of a kind this service has not (Health on feature)': 1,
      'values of custom fields of a kind this service has not': 1,
      'note links to a release': 1,
      'note links without an importance (imported as unknown)': 3,
    });
    expect(result.source.throttled).toBeGreaterThan(2);
    // Each 429 was followed by the same request no sooner than its Retry-After (1 s) later.
    for (const [i, r] of seen.entries()) {
      if (r.status !== 429) continue;
      const retry = seen.slice(i + 1).find((s) => s.path === r.path);
      expect(retry!.at - r.at).toBeGreaterThanOrEqual(950);
    }
    const id = (sourceId: string) => uuidV5(result.id, `${base}\n${sourceId}`);
    const read = await readWorkspace(app.baseUrl, result.token.token);
    expect(result.admin.email).toBe('ann@acme.example');
    expect(
      Object.values(read.members)
        .map((m: any) => [m.fields.email, m.fields.role, m.fields.disabled])
        .sort(),
    ).toEqual([
      ['ann@acme.example', 'admin', false],
      ['hal@acme.example', 'viewer', true],
    ]);
    expect(read.entities[id(FEATURE)]).toMatchObject({
      type: 'feature',
      fields: { name: 'Apple Pay', status: { name: 'Planned' }, owner: { id: id(ADMIN), email: 'ann@acme.example' }, [id(EFFORT)]: 3 },
      metadata: { source: { system: 'productboard', recordId: FEATURE, url: `https://acme.productboard.com/entities/${FEATURE}` } },
      createdAt: T(2),
      updatedAt: T(3),
    });
    expect(read.entities[id(FEATURE)]).toMatchObject({ fields: { tags: [{ id: id(TAG), name: 'wallets' }], teams: [{ id: id(TEAM), name: 'Payments' }] } });
    // A release in its group, with its type's status (matched by name) and its link to the feature.
    expect(read.entities[id(RELEASE)]).toMatchObject({ type: 'release', fields: { name: 'Q3', status: { name: 'In progress' } }, createdAt: T(2) });
    expect(read.relationships[id(RELEASE)]).toEqual([
      expect.objectContaining({ type: 'parent', target: expect.objectContaining({ id: id(RELEASE_GROUP), type: 'releaseGroup' }) }),
      expect.objectContaining({ type: 'link', target: expect.objectContaining({ id: id(FEATURE), type: 'feature' }) }),
    ]);
    expect(read.teams).toEqual({
      [id(TEAM)]: expect.objectContaining({
        fields: { name: 'Payments', handle: 'payments', description: 'Checkout and wallets', avatarUrl: null },
        createdAt: T(0),
        updatedAt: T(1),
      }),
    });
    expect(read.teamMembers[id(TEAM)]).toEqual([expect.objectContaining({ id: id(ADMIN) })]);
    expect(read.tagValues).toEqual([{ id: id(TAG), fields: { name: 'wallets', color: 'green' } }]);
    expect(read.noteRelationships[id(N3)]).toEqual([
      { type: 'link', importance: 'unknown', target: expect.objectContaining({ id: id(FEATURE), type: 'feature' }) },
    ]);
    // Acme's latest rating of Apple Pay is N2's (updated last: "unknown", 1), N3 is anonymous (1).
    expect(read.scores).toEqual({ [id(PRODUCT)]: 2, [id(FEATURE)]: 2 });
    expect(await verifyWorkspace(result.id, false)).toMatchObject({ mismatches: 0 });
  }, 120_000);
});
