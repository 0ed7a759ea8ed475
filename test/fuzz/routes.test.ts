// Fuzz: fast-check builds request bodies for every body-taking route of lib/routes.ts and query
// strings for every GET route, over HTTP against the real local gateway and DynamoDB Local. Each
// body starts from the route's real shape (real ids, valid values) and is mutated: arbitrary JSON
// values, built-in property names as keys (`__proto__`, `constructor`, `toString`, ...), lone
// surrogates and odd Unicode, huge numbers, deep nesting within the body limit, repeated keys.
// The only allowed answers are 2xx or a 4xx envelope (the token endpoints: their RFC 6749-style
// error; the authorization and member pages: an HTML page or a redirect; the member pages are read
// with a page session, their forms sent with the cookie their CSRF token is bound to); at least half
// of the requests must get past parsing and validation into the handler's work, and `score verify`
// finds no drift afterwards.
// The run's seed is printed at the start; replay with FC_SEED=<that seed> (random without it; the
// seed fast-check prints with a failure is the run's plus the route's index in ROUTES). FC_FUZZ_RUNS
// overrides the per-route count; FUZZ_DUMP=1 prints every write and the stored workspace (printed
// anyway when verify finds drift).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELECT_COLORS } from '#lib/domain/field-values.ts';
import { MEMBER_ROLE_FILTERS } from '#lib/domain/schemas/member.ts';
import { PAGE_PRE_SESSION_COOKIE, PAGE_SESSION_COOKIE } from '#lib/http/cookies.ts';
import { ERROR_TABLE, type ErrorCode } from '#lib/http/errors.ts';
import { MAX_JSON_BODY_BYTES } from '#lib/http/middleware/body.ts';
import { ROUTES, type Route } from '#lib/routes.ts';
import * as keys from '#lib/store/keys.ts';
import { queryAll } from '#lib/store/query.ts';
import { fieldCommands } from '../../local/admin/fields.ts';
import { CHALLENGE, hidden, newCodeClient, PASSWORD, ScriptedBrowser, VERIFIER, withPassword, type CodeClient } from '../authcode/support.ts';
import { newClient, rsaKeyPair, type TestClient } from '../oauth/support.ts';
import { signInToPages } from '../pages/support.ts';
import { client } from '../score/helpers.ts';
import { verifyWorkspace } from '../score/system.ts';
import { call, newWorkspace, startApp, type CallResult, type TestApp, type TestWorkspace } from '../support/app.ts';
import { startDns, type TestDns } from '../support/dns.ts';

const RUNS = Number(process.env.FC_FUZZ_RUNS ?? 90);
/** The run's seed: route i's property runs with SEED + i, so one number replays the whole run and routes draw apart. */
const SEED = process.env.FC_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FC_SEED);
const seedOf = (route: Route) => (SEED + ROUTES.indexOf(route)) | 0;

// ---- JSON with keys a plain object cannot hold safely -------------------------------------------

/** A JSON value; objects are key/value lists, so `__proto__` and repeated keys survive serialisation. */
type J = null | boolean | number | string | J[] | { obj: Array<[string, J]> } | { raw: string };
const obj = (o: Record<string, J>): J => ({ obj: Object.entries(o) });

function serialise(v: J): string {
  if (Array.isArray(v)) return `[${v.map(serialise).join(',')}]`;
  if (v !== null && typeof v === 'object' && 'raw' in v) return v.raw;
  if (v !== null && typeof v === 'object') return `{${v.obj.map(([k, x]) => `${JSON.stringify(k)}:${serialise(x)}`).join(',')}}`;
  // Infinity/NaN cannot be JSON: write an out-of-range literal instead (it parses as Infinity).
  if (typeof v === 'number' && !Number.isFinite(v)) return '1e400';
  return JSON.stringify(v);
}

const BUILT_IN_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'prototype',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
  'toJSON',
  'then',
];
const ODD_STRINGS = [
  '\ud800', // lone high surrogate
  'a\udc00b', // lone low surrogate
  '\udbff\udfff', // the last code point, as a valid pair
  '\u0000',
  '\u202eevil', // right-to-left override
  '\ufeffbom',
  'e\u0301', // combining accent
  '   ',
  '',
  '\t\n',
  '𝕏'.repeat(64),
  'x'.repeat(300),
  '"quoted" \\ back',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '${jndi:ldap://x}',
  '../../etc/passwd',
  '%00%ff',
];
const oddString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_STRINGS, ...BUILT_IN_NAMES) },
);
const key = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...BUILT_IN_NAMES) }, { weight: 1, arbitrary: oddString });
const hugeNumber = fc.constantFrom(1e308, -1e308, Infinity, Number.MAX_SAFE_INTEGER + 2, -0, 5e-324, 0.1 + 0.2, 2 ** 63);
const leaf: fc.Arbitrary<J> = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), hugeNumber, oddString);
const { json } = fc.letrec<{ json: J }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('json'), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie('json')), { maxLength: 3 }).map((obj) => ({ obj })),
  ),
}));
/** `{"a":` and `}` are 6 bytes: this deep a nest stays inside the body limit with the rest of a body. */
const MAX_NESTING = Math.floor(MAX_JSON_BODY_BYTES / 8);
/** Nesting far deeper than any real shape, kept as text (a recursive walk of it would overflow the test's stack). */
const deep = fc.tuple(fc.integer({ min: 50, max: MAX_NESTING }), fc.boolean()).map(([depth, arrays]): J => ({
  raw: arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
}));

/** One change to a valid body: at the node a seed path reaches, replace it, add a key, drop a key. */
type Mutation = { kind: 'replace'; value: J } | { kind: 'addKey'; key: string; value: J } | { kind: 'dropKey' } | { kind: 'oddString'; value: string };
const mutation = fc.record({
  path: fc.array(fc.nat(), { maxLength: 5 }),
  change: fc.oneof<fc.Arbitrary<Mutation>[]>(
    fc.record({ kind: fc.constant('replace' as const), value: fc.oneof({ weight: 6, arbitrary: json }, { weight: 1, arbitrary: deep }) }),
    fc.record({ kind: fc.constant('addKey' as const), key, value: json }),
    fc.record({ kind: fc.constant('dropKey' as const) }),
    fc.record({ kind: fc.constant('oddString' as const), value: oddString }),
  ),
});
const clone = (v: J): J =>
  Array.isArray(v) ? v.map(clone) : v !== null && typeof v === 'object' && 'obj' in v ? { obj: v.obj.map(([k, x]) => [k, clone(x)]) } : v;
const isObj = (v: J): v is { obj: Array<[string, J]> } => v !== null && typeof v === 'object' && 'obj' in v;
type Located = { parent: J[] | { obj: Array<[string, J]> } | undefined; index: number; node: J };

function locate(root: J, path: readonly number[]): Located {
  let at: Located = { parent: undefined, index: 0, node: root };
  for (const step of path) {
    const n = at.node;
    if (Array.isArray(n) && n.length) at = { parent: n, index: step % n.length, node: n[step % n.length]! };
    else if (isObj(n) && n.obj.length) at = { parent: n, index: step % n.obj.length, node: n.obj[step % n.obj.length]![1] };
    else break;
  }
  return at;
}

function mutate(root: J, { path, change }: { path: number[]; change: Mutation }): J {
  const copy = clone(root);
  const at = locate(copy, path);
  const put = (value: J) => {
    if (!at.parent) return value;
    if (Array.isArray(at.parent)) at.parent[at.index] = value;
    else at.parent.obj[at.index]![1] = value;
    return copy;
  };
  switch (change.kind) {
    case 'replace':
      return put(change.value);
    case 'oddString':
      return put(change.value);
    case 'addKey':
      if (isObj(at.node)) at.node.obj.push([change.key, change.value]);
      else return put({ obj: [[change.key, change.value]] });
      return copy;
    case 'dropKey':
      if (at.parent && !Array.isArray(at.parent)) at.parent.obj.splice(at.index, 1);
      else if (Array.isArray(at.parent)) at.parent.splice(at.index, 1);
      return copy;
  }
}

// ---- The workspace the requests act on ----------------------------------------------------------

interface World {
  ws: TestWorkspace;
  oauth: TestClient;
  /** A confidential authorization-code application. */
  code: CodeClient;
  webhooks: string[];
  products: string[];
  components: string[];
  features: string[];
  companies: string[];
  users: string[];
  notes: string[];
  /** Planning entities (an initiative, a release) linked to features: the demand read's targets. */
  planning: string[];
  /** A custom select field of features, and the values of it and of the tags field. */
  selectField: string;
  values: { tags: string[]; select: string[] };
  teams: Array<{ id: string; name: string; handle: string }>;
  /** The admin and a maker, by id and e-mail (team memberships, member pages). */
  members: Array<{ id: string; email: string }>;
  /**
   * Cookies of the member pages: a page session (its pages render), a pre-session with its sign-in
   * form's CSRF token, and a second session with its sign-out form's token (the first stays signed in).
   */
  pages: { session: string; preSession: string; signInCsrf: string; signOutSession: string; signOutCsrf: string };
  /** Another workspace's entity and note: any route given them must answer 404. */
  foreign: { entity: string; note: string };
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
/** Path parameter values that are not the real thing. */
const HOSTILE_SEGMENTS = ['nope', '%2e%2e', '%00', '%ED%A0%80', '%FF', '__proto__', 'constructor', UNKNOWN_ID, 'a'.repeat(200)];

/** A request the fuzzer sends; `form` bodies go to the token endpoint. */
interface Sent {
  route: Route;
  path: string;
  body?: string;
  contentType?: string;
  /** The Cookie header (the member pages). */
  cookie?: string;
}

const text = fc.oneof(
  { weight: 8, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim().length > 0) },
  { weight: 1, arbitrary: oddString },
);
const importance = fc.constantFrom('not important', 'important', 'critical', 'unknown');
const teamHandle = fc.stringMatching(/^[a-z0-9]{1,12}$/);

/** The real shape of each body-taking route's request, drawn from the world. */
function validBody(route: Route, w: World): fc.Arbitrary<{ params: Record<string, string>; body: J }> {
  const one = (ids: readonly string[]) => fc.constantFrom(...ids);
  const data = (d: Record<string, J>) => obj({ data: obj(d) });
  const parentRel = (id: string): J => [obj({ type: 'parent', target: obj({ id }) })];
  switch (route.operationId) {
    case 'createEntity':
      return fc
        .oneof(
          fc.tuple(fc.constant('product'), fc.constant(undefined)),
          fc.tuple(fc.constant('component'), one(w.products)),
          fc.tuple(fc.constant('feature'), one([...w.products, ...w.components])),
          fc.tuple(fc.constant('subfeature'), one(w.features)),
          fc.tuple(fc.constant('company'), fc.constant(undefined)),
        )
        .chain(([type, parent]) =>
          fc.record({ name: text, description: fc.option(text, { nil: undefined }) }).map(({ name, description }) => ({
            params: {},
            body: data({ type, fields: obj({ name, ...(description ? { description } : {}) }), ...(parent ? { relationships: parentRel(parent) } : {}) }),
          })),
        );
    case 'updateEntity':
      return fc
        .record({ id: one([...w.products, ...w.components, ...w.features, ...w.companies]), name: text, archived: fc.boolean() })
        .map(({ id, name, archived }) => ({
          params: { id },
          body: data({ fields: obj({ name, ...(archived ? { archived: false } : {}) }) }),
        }));
    case 'searchEntities':
      return fc
        .record({
          types: fc.subarray(['product', 'component', 'feature', 'company', 'user'], { minLength: 1 }),
          archived: fc.option(fc.boolean(), { nil: undefined }),
        })
        .map(({ types, archived }) => ({
          params: {},
          body: data({ types, ...(archived === undefined ? {} : { archived }) }),
        }));
    case 'searchNotes':
      return fc
        .record({
          link: fc.option(one([...w.features, w.foreign.entity]), { nil: undefined }),
          customer: fc.option(one(w.companies), { nil: undefined }),
          archived: fc.option(fc.boolean(), { nil: undefined }),
          query: fc.option(text, { nil: undefined }),
        })
        .map(({ link, customer, archived, query }) => ({
          params: {},
          body: data({
            ...(query === undefined ? {} : { search: obj({ query }) }),
            filter: obj({
              ...(link === undefined && customer === undefined
                ? {}
                : { relationships: obj({ ...(link ? { link: [obj({ id: link })] } : {}), ...(customer ? { customer: obj({ id: customer }) } : {}) }) }),
              ...(archived === undefined ? {} : { fields: obj({ archived }) }),
            }),
          }),
        }));
    case 'setEntityParent':
      return fc
        .record({ id: one(w.components), parent: one([...w.products, ...w.components]) })
        .map(({ id, parent }) => ({ params: { id }, body: data({ target: obj({ id: parent }) }) }));
    case 'createEntityRelationship':
      return fc
        .record({
          id: one(w.features),
          type: fc.constantFrom('link', 'isBlockedBy', 'isBlocking', undefined),
          target: one([...w.features, ...w.components, ...w.products]),
        })
        .map(({ id, type, target }) => ({ params: { id }, body: data({ ...(type ? { type } : {}), target: obj({ id: target }) }) }));
    case 'createNote':
      return fc
        .record({
          name: text,
          content: fc.option(text, { nil: undefined }),
          customer: fc.option(one([...w.companies, ...w.users]), { nil: undefined }),
          links: fc.uniqueArray(one([...w.products, ...w.components, ...w.features]), { maxLength: 2 }),
          importance,
        })
        .map(({ name, content, customer, links, importance: imp }) => {
          const relationships: J[] = [];
          if (customer) relationships.push(obj({ type: 'customer', target: obj({ id: customer }) }));
          for (const id of links) relationships.push(obj({ type: 'link', target: obj({ id }), importance: imp }));
          return { params: {}, body: data({ type: 'textNote', fields: obj({ name, ...(content ? { content } : {}) }), relationships }) };
        });
    case 'updateNote':
      return fc.record({ id: one(w.notes), name: text }).map(({ id, name }) => ({ params: { id }, body: data({ fields: obj({ name }) }) }));
    case 'createNoteRelationship':
      return fc
        .record({ id: one(w.notes), link: fc.boolean(), entity: one([...w.features, ...w.components]), customer: one(w.companies), importance })
        .map(({ id, link, entity, customer, importance: imp }) => ({
          params: { id },
          body: link ? data({ type: 'link', target: obj({ id: entity }), importance: imp }) : data({ type: 'customer', target: obj({ id: customer }) }),
        }));
    case 'setNoteLink':
      return fc
        .record({ id: one(w.notes), entityId: one([...w.features, ...w.products]), importance })
        .map(({ id, entityId, importance: imp }) => ({ params: { id, entityId }, body: data({ importance: imp }) }));
    case 'setNoteCustomer':
      return fc
        .record({ id: one(w.notes), customer: one([...w.companies, ...w.users]) })
        .map(({ id, customer }) => ({ params: { id }, body: data({ target: obj({ id: customer }) }) }));
    case 'createApplication':
      return fc
        .record({ name: text, scopes: fc.subarray(['entities:read', 'write:entities', 'notes:read', 'notes:write'], { minLength: 1 }) })
        .map(({ name, scopes }) => ({
          params: {},
          body: obj({ name, scopes, defaultScopes: [scopes[0]!] }),
        }));
    case 'createWebhook':
      return fc
        .record({
          name: text,
          events: fc.subarray(['feature.created', 'feature.updated', 'note.created', 'customer-score.updated'], { minLength: 1 }),
          auth: fc.option(text, { nil: undefined }),
        })
        .map(({ name, events, auth }) => ({
          params: {},
          body: data({
            fields: obj({
              name,
              events: events.map((eventType) => obj({ eventType })),
              notification: obj({ url: WEBHOOK_URL, version: 1, ...(auth ? { headers: obj({ authorization: `Bearer ${auth}` }) } : {}) }),
            }),
          }),
        }));
    case 'mcp':
      // JSON-RPC messages of the Model Context Protocol: a listing, a tool call, a notification.
      return fc
        .oneof(
          fc.constant(obj({ jsonrpc: '2.0', id: 1, method: 'tools/list' })),
          one(w.products).map((id) =>
            obj({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: obj({ name: 'get_customer_score', arguments: obj({ entityId: id }) }) }),
          ),
          one(w.products).map((id) =>
            obj({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: obj({ name: 'rank_by_customer_score', arguments: obj({ parentId: id, limit: 5 }) }) }),
          ),
          fc.constant(obj({ jsonrpc: '2.0', method: 'notifications/initialized' })),
        )
        .map((body) => ({ params: {}, body }));
    case 'createEntityFieldValue':
      return fc
        .record({ id: fc.constantFrom('tags', w.selectField, 'status'), name: text, color: fc.option(fc.constantFrom(...SELECT_COLORS), { nil: undefined }) })
        .map(({ id, name, color }) => ({ params: { id }, body: data({ fields: obj({ name, ...(color ? { color } : {}) }) }) }));
    case 'updateEntityFieldValue':
      return fc
        .record({
          field: fc.oneof(fc.tuple(fc.constant('tags'), one(w.values.tags)), fc.tuple(fc.constant(w.selectField), one(w.values.select))),
          name: fc.option(text, { nil: undefined }),
          color: fc.constantFrom(...SELECT_COLORS),
        })
        .map(({ field: [id, valueId], name, color }) => ({ params: { id, valueId }, body: data({ fields: obj(name === undefined ? { color } : { name }) }) }));
    case 'createNoteComment':
      return fc.record({ id: one(w.notes), content: text }).map(({ id, content }) => ({ params: { id }, body: data({ content }) }));
    case 'searchMembers':
      return fc
        .record({
          ids: fc.option(
            fc.subarray(
              w.members.map((m) => m.id),
              { minLength: 1 },
            ),
            { nil: undefined },
          ),
          emails: fc.option(
            fc.subarray(
              w.members.map((m) => m.email),
              { minLength: 1 },
            ),
            { nil: undefined },
          ),
          role: fc.option(fc.constantFrom(...MEMBER_ROLE_FILTERS), { nil: undefined }),
          disabled: fc.option(fc.boolean(), { nil: undefined }),
          query: fc.option(fc.constantFrom('admin', 'maker', 'EXAMPLE'), { nil: undefined }),
          includeDisabled: fc.option(fc.boolean(), { nil: undefined }),
        })
        .map(({ ids, emails, role, disabled, query, includeDisabled }) => {
          const fields = { ...(emails ? { email: emails } : {}), ...(role ? { role } : {}), ...(disabled === undefined ? {} : { disabled }) };
          return {
            params: {},
            body: data({
              filter: obj({ ...(ids ? { id: ids } : {}), ...(Object.keys(fields).length ? { fields: obj(fields) } : {}) }),
              ...(query === undefined ? {} : { search: obj({ query }) }),
              ...(includeDisabled === undefined ? {} : { return: obj({ includeDisabled }) }),
            }),
          };
        });
    case 'createTeam':
      return fc.record({ name: text, handle: teamHandle, description: fc.option(text, { nil: undefined }) }).map(({ name, handle, description }) => ({
        params: {},
        body: data({ fields: obj({ name, handle, ...(description === undefined ? {} : { description }) }) }),
      }));
    case 'searchTeams':
      return fc
        .record({
          ids: fc.option(
            fc.subarray(
              w.teams.map((t) => t.id),
              { minLength: 1 },
            ),
            { nil: undefined },
          ),
          name: fc.option(fc.constantFrom(...w.teams.map((t) => t.name.toUpperCase())), { nil: undefined }),
          handles: fc.option(
            fc.subarray(
              w.teams.map((t) => t.handle),
              { minLength: 1 },
            ),
            { nil: undefined },
          ),
          query: fc.option(fc.constantFrom('team', 'fuzz', 'z'), { nil: undefined }),
        })
        .map(({ ids, name, handles, query }) => {
          const fields = { ...(name ? { name } : {}), ...(handles ? { handle: handles } : {}) };
          return {
            params: {},
            body: data({
              filter: obj({ ...(ids ? { id: ids } : {}), ...(Object.keys(fields).length ? { fields: obj(fields) } : {}) }),
              ...(query === undefined ? {} : { search: obj({ query }) }),
            }),
          };
        });
    case 'updateTeam': {
      const ref = fc.oneof(...w.members.map((m) => fc.constantFrom(obj({ id: m.id }), obj({ email: m.email }))));
      const membersPatch = fc.oneof(
        fc
          .record({ op: fc.constantFrom('addItems', 'removeItems', 'set'), value: fc.array(ref, { maxLength: 3 }) })
          .map(({ op, value }) => obj({ op, path: 'members', value })),
        fc.constant(obj({ op: 'clear', path: 'members' })),
      );
      return fc
        .record({
          id: one(w.teams.map((t) => t.id)),
          name: fc.option(text, { nil: undefined }),
          handle: fc.option(teamHandle, { nil: undefined }),
          description: fc.option(fc.option(text, { nil: null }), { nil: undefined }),
          patch: fc.option(fc.array(membersPatch, { minLength: 1, maxLength: 3 }), { nil: undefined }),
        })
        .map(({ id, name, handle, description, patch }) => {
          const fields = {
            ...(name === undefined ? {} : { name }),
            ...(handle === undefined ? {} : { handle }),
            ...(description === undefined ? {} : { description }),
          };
          // A body that changes nothing is refused before the handler: give the members a patch then.
          const members = patch ?? (Object.keys(fields).length ? undefined : [obj({ op: 'clear', path: 'members' })]);
          return { params: { id }, body: data({ ...(Object.keys(fields).length ? { fields: obj(fields) } : {}), ...(members ? { patch: members } : {}) }) };
        });
    }
    case 'registerClient':
      return fc.constant({
        params: {},
        body: obj({ client_name: 'Fuzz client', redirect_uris: ['https://client.example.com/callback'], token_endpoint_auth_method: 'none' }),
      });
    case 'addApplicationKey':
      return one(PUBLIC_KEYS).map((publicKey) => ({ params: { clientId: w.oauth.clientId }, body: obj({ publicKey }) }));
    default:
      throw new Error(`no body shape for ${route.operationId}: add one when a route takes a body`);
  }
}

let PUBLIC_KEYS: string[] = [];
/** A receiver the fuzz's own resolver (below) places on a public address: nothing is ever sent to it. */
const WEBHOOK_URL = 'https://hooks.example.com/fuzz';

/** A path parameter: mostly the real value, sometimes another workspace's, unknown or hostile. */
function pathParam(real: string, w: World): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(real) },
    { weight: 1, arbitrary: fc.constantFrom(w.foreign.entity, w.foreign.note, ...HOSTILE_SEGMENTS) },
  );
}

function bodyRequest(route: Route, w: World): fc.Arbitrary<Sent> {
  if (route.operationId === 'issueToken') return tokenRequest(route, w);
  if (route.body === 'form') return formRequest(route, w);
  return validBody(route, w).chain(({ params, body }) =>
    fc
      .record({
        params: fc.record(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, pathParam(v, w)]))),
        mutations: fc.oneof(
          { weight: 2, arbitrary: fc.constant([] as Array<{ path: number[]; change: Mutation }>) },
          { weight: 1, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 2 }) },
        ),
      })
      .map(({ params: p, mutations }) => ({
        route,
        path: route.path.replace(/\{(\w+)\}/g, (_m, name: string) => p[name] ?? name),
        body: serialise(mutations.reduce(mutate, body)),
        contentType: 'application/json',
      })),
  );
}

let jtis = 0;

/** Form encoding of any string, byte by byte (its UTF-8 bytes read as Latin-1, so odd strings stay odd on the wire). */
const enc = (s: string) =>
  Buffer.from(s)
    .toString('latin1')
    .replace(/[^A-Za-z0-9._~-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);

/** The token endpoint's form: a real assertion or a mutated one, extra and repeated fields, odd values. */
function tokenRequest(route: Route, w: World): fc.Arbitrary<Sent> {
  const claim = fc.oneof(json, oddString);
  return fc
    .record({
      overrides: fc.dictionary(
        fc.constantFrom('iss', 'sub', 'aud', 'exp', 'iat', 'jti', 'scope', 'nbf'),
        claim.map((v) => JSON.parse(serialise(v))),
        { maxKeys: 2 },
      ),
      mutate: fc.nat(3),
      extra: fc.array(fc.tuple(fc.oneof(key, fc.constantFrom('grant_type', 'assertion', 'scope')), oddString), { maxLength: 2 }),
    })
    .map(({ overrides, mutate: m, extra }) => {
      const assertion = m === 0 ? w.oauth.assertion(overrides) : m === 1 ? w.oauth.assertion({ jti: `fuzz-${Date.now()}-${++jtis}` }) : w.oauth.assertion();
      const pairs: Array<[string, string]> = [['grant_type', 'urn:ietf:params:oauth:grant-type:jwt-bearer'], ['assertion', assertion], ...extra];
      return { route, path: route.path, body: pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&'), contentType: 'application/x-www-form-urlencoded' };
    });
}

/** The authorization code flow's forms: their real fields, then dropped, repeated, extra and odd ones. */
function formRequest(route: Route, w: World): fc.Arbitrary<Sent> {
  const request = `response_type=code&client_id=${w.code.clientId}&redirect_uri=${encodeURIComponent(w.code.redirectUri)}&code_challenge=${CHALLENGE}&code_challenge_method=S256&state=s`;
  const client: Array<[string, string]> = [
    ['client_id', w.code.clientId],
    ['client_secret', w.code.clientSecret ?? ''],
  ];
  const base: Record<string, Array<[string, string]>> = {
    signIn: [
      ['csrf_token', 'x'.repeat(43)],
      ['request', request],
      ['email', 'fuzz-member@example.com'],
      ['password', 'correct horse battery staple'],
    ],
    consent: [
      ['csrf_token', 'x'.repeat(43)],
      ['request', request],
      ['decision', 'allow'],
    ],
    oauthToken: [['grant_type', 'authorization_code'], ['code', 'c'.repeat(43)], ['redirect_uri', w.code.redirectUri], ['code_verifier', VERIFIER], ...client],
    revokeToken: [['token', 't'.repeat(43)], ['token_type_hint', 'refresh_token'], ...client],
    pageSignIn: [
      ['csrf_token', w.pages.signInCsrf],
      ['next', `/entities/${w.features[0]}`],
      ['workspace', w.ws.workspaceId],
      ['email', w.ws.admin.email],
      ['password', PASSWORD],
    ],
    pageSignOut: [['csrf_token', w.pages.signOutCsrf]],
  };
  // The member pages' forms come with the cookie their CSRF token is bound to.
  const cookies: Record<string, string> = {
    pageSignIn: `${PAGE_PRE_SESSION_COOKIE}=${w.pages.preSession}`,
    pageSignOut: `${PAGE_SESSION_COOKIE}=${w.pages.signOutSession}`,
  };
  const cookie = cookies[route.operationId];
  const fields = base[route.operationId];
  if (!fields) throw new Error(`no form shape for ${route.operationId}: add one when a route takes a form`);
  return fc
    .record({
      drop: fc.option(fc.nat(fields.length - 1), { nil: undefined }),
      odd: fc.option(fc.tuple(fc.nat(fields.length - 1), oddString), { nil: undefined }),
      extra: fc.array(fc.tuple(fc.oneof(key, fc.constantFrom(...fields.map(([k]) => k))), oddString), { maxLength: 2 }),
    })
    .map(({ drop, odd, extra }) => {
      const pairs = fields.filter((_f, i) => i !== drop).map(([k, v], i): [string, string] => (odd && odd[0] === i ? [k, odd[1]] : [k, v]));
      return {
        route,
        path: route.path,
        body: [...pairs, ...extra].map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&'),
        contentType: 'application/x-www-form-urlencoded',
        ...(cookie ? { cookie } : {}),
      };
    });
}

// ---- Query strings ------------------------------------------------------------------------------

/** Each GET route's query parameters and their valid values (the handlers in functions/ read these), already percent-encoded. */
const QUERY = (w: World): Record<string, Record<string, readonly string[]>> => ({
  listEntities: { 'type[]': ['product', 'feature', 'company'], type: ['component'], 'fields[]': ['name', 'description', 'owner'], limit: ['1', '10', '100'] },
  getEntity: { 'fields[]': ['name', 'status', 'timeframe'] },
  listNotes: { 'fields[]': ['name', 'content'], fields: ['tags', 'owner'], limit: ['1', '50'] },
  getNote: { 'fields[]': ['name'], fields: ['content'] },
  listEntityRelationships: { type: ['parent', 'child', 'link'], limit: ['5'] },
  listNoteRelationships: { type: ['link', 'customer'], limit: ['5'] },
  listEntityConfigurations: { 'type[]': ['product', 'feature'], type: ['company'] },
  getEntityConfiguration: {},
  listNoteConfigurations: { 'type[]': ['textNote'], type: ['textNote'] },
  getNoteConfiguration: {},
  getCustomerScore: {},
  listApplications: { limit: ['1', '20'] },
  getApplication: {},
  listWebhooks: { limit: ['1', '100'] },
  listMembers: {
    query: ['admin', 'EXAMPLE'],
    'roles[]': ['admin', 'viewer', 'contributor'],
    includeDisabled: ['true', 'false'],
    includeInvitationPending: ['false'],
    limit: ['1', '100'],
  },
  getMember: {},
  getWebhook: {},
  getAuthorizationServerMetadata: {},
  getOpenApiDocument: {},
  getProtectedResourceMetadata: {},
  getMcpResourceMetadata: {},
  mcpGet: {},
  authorize: {
    response_type: ['code'],
    scope: ['entities:read', 'entities:read%20notes:read'],
    state: ['abc'],
    code_challenge: [CHALLENGE],
    code_challenge_method: ['S256', 'plain'],
    redirect_uri: [encodeURIComponent('https://client.example.com/callback')],
  },
  getCustomerDemand: {},
  listEntityFieldValues: { 'assignedEntityType[]': ['feature', 'product', 'subfeature'], limit: ['1', '10'] },
  listNoteComments: { limit: ['1', '5'] },
  listTeams: {
    name: w.teams.map((t) => encodeURIComponent(t.name.toUpperCase())),
    handle: w.teams.map((t) => t.handle),
    query: ['team', 'FUZZ'],
    limit: ['1', '20'],
  },
  getTeam: {},
  listTeamMembers: { limit: ['1', '10'] },
  homePage: {},
  // The list cursors are opaque: the ones here are not the page's own (its 400 page), `children=all` is real.
  entityPage: { children: ['all'], notes: ['abc'], after: ['abc'] },
  notePage: {},
  memberPage: { entities: ['abc'], notes: ['abc'] },
  teamPage: { members: ['abc'] },
  pageSignInPage: { next: [encodeURIComponent(`/entities/${w.features[0]}`), '%2F'], workspace: [w.ws.workspaceId], signed_out: ['1'] },
});
/** Raw (already percent-encoded) values no valid parameter takes. */
const RAW_ODD = [
  '%ED%A0%80',
  '%FF%FE',
  '%00',
  '%',
  '%zz',
  '-1',
  '0',
  '1e3',
  '99999999999999999999',
  '%5B%5D',
  '__proto__',
  'constructor',
  '%E2%80%AE',
  'x'.repeat(500),
];
const rawString = fc.oneof(
  fc.constantFrom(...RAW_ODD),
  oddString.map((s) =>
    Buffer.from(s)
      .toString('latin1')
      .replace(/[^A-Za-z0-9._~-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`),
  ),
);

function queryRequest(route: Route, w: World): fc.Arbitrary<Sent> {
  const params = QUERY(w)[route.operationId];
  if (!params) throw new Error(`no query parameters listed for ${route.operationId}: add them`);
  const names = Object.keys(params);
  const valid = names.length
    ? fc.constantFrom(...names).chain((n) => fc.constantFrom(...params[n]!).map((v) => [encodeURIComponent(n), v] as [string, string]))
    : fc.constant(undefined);
  const odd = fc.tuple(fc.oneof(fc.constantFrom(...names.map(encodeURIComponent), 'pageCursor', 'limit'), rawString), rawString);
  const ids: Array<[RegExp, string[]]> = [
    [/^\/v2\/entities\/fields\//, ['tags', 'status', w.selectField]],
    [/^\/v2\/entities\/\{id\}\/demand/, w.planning],
    [/^\/(v2\/)?notes/, w.notes],
    [/^\/(v2\/)?members/, w.members.map((m) => m.id)],
    [/^\/(v2\/)?teams/, w.teams.map((t) => t.id)],
    [/^/, [...w.products, ...w.features]],
  ];
  const pathValues: Record<string, string[]> = {
    id: ids.find(([prefix]) => prefix.test(route.path))![1],
    type: route.path.startsWith('/v2/notes') ? ['textNote'] : ['product', 'company'],
    clientId: [w.oauth.clientId],
    webhookId: w.webhooks,
  };
  return fc
    .record({
      valid: fc.array(valid, { maxLength: 3 }),
      odd: fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(odd, { minLength: 1, maxLength: 2 }) }),
      params: fc.record(
        Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map(([, n]) => [n!, fc.constantFrom(...pathValues[n!]!).chain((v) => pathParam(v, w))])),
      ),
    })
    .map(({ valid: v, odd: o, params: p }) => {
      // The authorization endpoint always gets the application it is asked for, so most requests reach its rules.
      const own: Array<[string, string]> = route.operationId === 'authorize' ? [['client_id', w.code.clientId]] : [];
      const pairs = [...own, ...v.filter((x): x is [string, string] => x !== undefined), ...o];
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => p[name] ?? name);
      // The member pages are read signed in (signed out they only redirect); their sign-in page signed out.
      const signedIn = route.response === 'html' && route.operationId !== 'authorize' && route.operationId !== 'pageSignInPage';
      return {
        route,
        path: pairs.length ? `${path}?${pairs.map(([k, x]) => `${k}=${x}`).join('&')}` : path,
        ...(signedIn ? { cookie: `${PAGE_SESSION_COOKIE}=${w.pages.session}` } : {}),
      };
    });
}

// ---- Answers ------------------------------------------------------------------------------------

/** The endpoints that answer RFC 6749 §5.2 errors instead of the envelope. */
/** Routes whose refusals are RFC 6749's (RFC 7591's) {error, error_description}. */
const TOKEN_ENDPOINTS = new Set(['issueToken', 'oauthToken', 'revokeToken', 'registerClient']);

/** Codes raised by parsing and validation, before a handler does its work. */
const BEFORE_THE_HANDLER = new Set<ErrorCode>(['request.malformed', 'request.invalid', 'request.tooLarge']);

/** Asserts the answer is a 2xx or a well-formed 4xx, and says whether the request got into the handler. */
function judge(sent: Sent, res: CallResult): boolean {
  const context = `${sent.route.method} ${sent.path} ${sent.body?.slice(0, 500) ?? ''} → ${res.status} ${res.text.slice(0, 500)}`;
  expect(res.status, context).toBeLessThan(500);
  if (res.status < 300) return true;
  if (sent.route.response === 'html') {
    // The pages answer a page, or a redirect: back to the application with the error in its query,
    // or (the member pages) to another of these pages.
    if (res.status < 400) {
      expect([302, 303], context).toContain(res.status);
      const location = res.headers.get('location') ?? '';
      expect(location.startsWith('https://') || location.startsWith(`${app.url}/`), `${context} (Location: ${location})`).toBe(true);
      return true;
    }
    expect(res.headers.get('content-type'), context).toMatch(/^text\/html/);
    expect(res.text, context).not.toMatch(/\n\s+at |\.ts:\d+/);
    // The error page of a refusal by parsing or validation is titled as the envelope's error would be.
    return ![...BEFORE_THE_HANDLER].some((code) => res.status === ERROR_TABLE[code].status && res.text.includes(`<h1>${ERROR_TABLE[code].title}</h1>`));
  }
  expect(res.status, context).toBeGreaterThanOrEqual(400);
  expect(res.headers.get('content-type'), context).toMatch(/^application\/json/);
  if (TOKEN_ENDPOINTS.has(sent.route.operationId)) {
    expect(Object.keys(res.json ?? {}).sort(), context).toEqual(['error', 'error_description']);
    return res.json.error !== 'invalid_request';
  }
  const id = res.headers.get('x-request-id');
  expect(id, context).toMatch(/^[0-9a-f-]{36}$/);
  const error = res.json?.errors?.[0];
  expect(Object.keys(ERROR_TABLE), context).toContain(error?.code);
  const code = error.code as ErrorCode;
  expect(res.json, context).toEqual({
    id,
    errors: [{ code, title: ERROR_TABLE[code].title, detail: expect.any(String), ...(error.source ? { source: error.source } : {}) }],
  });
  expect(res.status, context).toBe(ERROR_TABLE[code].status);
  expect(error.detail, context).not.toMatch(/\n\s+at |\.ts:\d+/);
  return !BEFORE_THE_HANDLER.has(code);
}

// ---- The test -----------------------------------------------------------------------------------

let app: TestApp;
let w: World;
let dns: TestDns | undefined;
beforeAll(async () => {
  console.log(`fuzz: seed ${SEED}, ${RUNS} requests per body-taking route (replay with FC_SEED=${SEED})`);
  app = await startApp();
  const ws = await newWorkspace();
  const c = client(app, ws.token);
  const products = [await c.entity('product', undefined, { tags: [{ name: 'Mobile' }, { name: 'Web' }] }), await c.entity('product')];
  const components = [await c.entity('component', products[0]), await c.entity('component', products[1])];
  const features = [await c.entity('feature', components[0]), await c.entity('feature', products[1])];
  const companies = [await c.entity('company'), await c.entity('company')];
  const users = [await c.entity('user', undefined, { email: 'fuzz-user@example.com' })];
  const notes = [await c.note({ customer: companies[0], links: [[features[0]!, 'critical']] }), await c.note({ links: [[components[1]!]] })];
  const other = await newWorkspace();
  const o = client(app, other.token);
  const foreignEntity = await o.entity('product');
  const foreign = { entity: foreignEntity, note: await o.note({ links: [[foreignEntity]] }) };
  await c.ok('POST', `/notes/${notes[0]}/comments`, { data: { content: 'Seen this at Acme too' } });
  const planning = [await c.entity('initiative'), await c.entity('release', await c.entity('releaseGroup'))];
  for (const [from, to] of [
    [planning[0]!, features[0]!],
    [planning[1]!, features[1]!],
    [planning[1]!, components[0]!],
  ])
    await c.ok('POST', `/entities/${from}/relationships`, { data: { type: 'link', target: { id: to } } });
  const selectField = (
    (await fieldCommands
      .find((f) => f.name === 'field add')!
      .run({ workspace: ws.workspaceId, 'entity-type': 'feature', name: 'Horizon', kind: 'select', options: 'Now,Next,Later' })) as { id: string }
  ).id;
  const valueIds = async (field: string) => ((await c.ok('GET', `/entities/fields/${field}/values`)).json.data as Array<{ id: string }>).map((v) => v.id);
  const values = { tags: await valueIds('tags'), select: await valueIds(selectField) };
  const maker = (await ws.member({ role: 'maker' })).member;
  const members = [ws.admin, maker].map(({ id, email }) => ({ id, email }));
  const teams = [];
  for (const [name, handle] of [
    ['Fuzz Team', 'fuzzteam'],
    ['Platform', 'platform'],
  ] as const) {
    teams.push({ id: (await c.ok('POST', '/teams', { data: { fields: { name, handle } } })).json.data.id as string, name, handle });
  }
  await c.ok('PATCH', `/teams/${teams[0]!.id}`, { data: { patch: [{ op: 'addItems', path: 'members', value: [{ id: maker.id }] }] } });
  await withPassword(ws.admin);
  const signedIn = async () => {
    const browser = new ScriptedBrowser(app);
    expect((await signInToPages(browser, ws.workspaceId, ws.admin.email)).status).toBe(303);
    return browser.cookies.get(PAGE_SESSION_COOKIE)!;
  };
  const session = await signedIn();
  const signOutSession = await signedIn();
  const home = await call(app, 'GET', '/', { headers: { cookie: `${PAGE_SESSION_COOKIE}=${signOutSession}` } });
  expect(home.status, home.text).toBe(200);
  const signInBrowser = new ScriptedBrowser(app);
  const signInPage = await signInBrowser.send('GET', '/sign-in');
  expect(signInPage.status, signInPage.text).toBe(200);
  const pages = {
    session,
    preSession: signInBrowser.cookies.get(PAGE_PRE_SESSION_COOKIE)!,
    signInCsrf: hidden(signInPage.text, 'csrf_token'),
    signOutSession,
    signOutCsrf: hidden(home.text, 'csrf_token'),
  };
  PUBLIC_KEYS = [rsaKeyPair().publicPem, rsaKeyPair().publicPem];
  // Webhook destinations are resolved before they are accepted: this one resolves to a public
  // address, every other name to nothing (test/support/dns.ts).
  dns = await startDns({ 'hooks.example.com': ['93.184.216.34'] });
  const hook = await call(app, 'POST', '/v2/webhooks', {
    token: ws.token,
    body: { data: { fields: { name: 'Fuzz', events: [{ eventType: 'feature.updated' }], notification: { url: WEBHOOK_URL, version: 1 } } } },
  });
  expect(hook.status, hook.text).toBe(201);
  w = {
    ws,
    oauth: await newClient(app, ws),
    code: await newCodeClient(app, ws),
    webhooks: [hook.json.data.id],
    products,
    components,
    features,
    companies,
    users,
    notes,
    planning,
    selectField,
    values,
    teams,
    members,
    pages,
    foreign,
  };
});
afterAll(async () => {
  await dns?.close();
  await app.close();
});

describe('fuzz: every route over HTTP', () => {
  const tally = {
    sent: 0,
    reached: 0,
    byRoute: new Map<string, { sent: number; reached: number; statuses: Record<number, number> }>(),
    writes: [] as string[],
  };
  const send = async (sent: Sent) => {
    // The client resolves dot segments (`%2e%2e` too) before sending: the contract check must judge the path that goes out.
    const target = new URL(sent.path, app.url);
    const res = await call(app, sent.route.method, `${target.pathname}${target.search}`, {
      token: w.ws.token,
      redirect: 'manual',
      headers: {
        ...(sent.cookie ? { cookie: sent.cookie } : {}),
        ...(sent.body === undefined
          ? {}
          : { 'content-type': sent.contentType!, ...(sent.route.operationId === 'mcp' ? { accept: 'application/json, text/event-stream' } : {}) }),
      },
      ...(sent.body === undefined ? {} : { body: sent.body }),
    });
    const reached = judge(sent, res);
    if (sent.route.method !== 'GET')
      tally.writes.push(
        `${sent.route.method} ${sent.path} → ${res.status}${res.status < 300 || res.status >= 408 ? ` ${sent.body?.slice(0, 300)} ⇒ ${res.text.slice(0, 200)}` : ''}`,
      );
    const r = tally.byRoute.get(sent.route.operationId) ?? { sent: 0, reached: 0, statuses: {} };
    r.sent++;
    r.statuses[res.status] = (r.statuses[res.status] ?? 0) + 1;
    if (reached) r.reached++;
    tally.byRoute.set(sent.route.operationId, r);
  };

  const bodyRoutes = ROUTES.filter((r) => r.body);
  const queryRoutes = ROUTES.filter((r) => r.method === 'GET');

  it.each(bodyRoutes.map((r) => [r.operationId, r] as const))(
    '%s: mutated bodies → 2xx or a 4xx envelope, never 5xx',
    async (_id, route) => {
      await fc.assert(fc.asyncProperty(bodyRequest(route, w), send), { numRuns: RUNS, seed: seedOf(route) });
    },
    180_000,
  );

  it.each(queryRoutes.map((r) => [r.operationId, r] as const))(
    '%s: mutated query strings → 2xx or a 4xx envelope, never 5xx',
    async (_id, route) => {
      await fc.assert(fc.asyncProperty(queryRequest(route, w), send), { numRuns: Math.ceil(RUNS / 3), seed: seedOf(route) });
    },
    120_000,
  );

  it('≥ 1 000 body requests across the body-taking routes, at least half of all requests reached the handler, and score verify finds 0 mismatches', async () => {
    const rows = [...tally.byRoute];
    const bodySent = rows.filter(([id]) => bodyRoutes.some((r) => r.operationId === id)).reduce((n, [, r]) => n + r.sent, 0);
    const sent = rows.reduce((n, [, r]) => n + r.sent, 0);
    const reached = rows.reduce((n, [, r]) => n + r.reached, 0);
    console.log(`fuzz: ${sent} requests (${bodySent} with bodies), ${reached} reached the handler (${Math.round((100 * reached) / sent)} %)`);
    const report = await verifyWorkspace(w.ws.workspaceId);
    // Drift is rare enough that the failing run must say what happened: every write and the workspace as stored.
    if (report.mismatches > 0 || process.env.FUZZ_DUMP)
      console.log(`fuzz writes:\n${tally.writes.join('\n')}\n\nstored:\n${await storedState(w.ws.workspaceId)}`);
    if (process.env.FC_STATS === '1') console.table(Object.fromEntries(rows.map(([id, r]) => [id, { sent: r.sent, reached: r.reached, ...r.statuses }])));
    expect(rows.map(([id]) => id).sort()).toEqual([...new Set([...bodyRoutes, ...queryRoutes].map((r) => r.operationId))].sort());
    if (!process.env.FC_FUZZ_RUNS) expect(bodySent).toBeGreaterThanOrEqual(1_000);
    expect(reached / sent).toBeGreaterThanOrEqual(0.5);
    for (const [id, r] of rows) expect(r.reached, `${id}: no request got into the handler`).toBeGreaterThan(0);
    expect(report).toMatchObject({ mismatches: 0 });
  });
});

/** The items the score is made of (entities, notes, links, ratings), one line each, for a failure's log. */
async function storedState(ws: string): Promise<string> {
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.partition(ws) }, ConsistentRead: true });
  const { entity, note, link, rating } = keys.kindPrefix;
  const fields = [
    'id',
    'type',
    'parentId',
    'own',
    'total',
    'deleting',
    'customer',
    'noteId',
    'entityId',
    'importance',
    'customerId',
    'setAt',
    'rev',
    'entries',
    'weight',
    'ver',
    'updatedAt',
  ];
  return items
    .filter((it) => [entity, note, link, rating].some((p) => String(it.sk).startsWith(p)))
    .map((it) => `${String(it.sk)} ${JSON.stringify(Object.fromEntries(fields.filter((f) => it[f] !== undefined).map((f) => [f, it[f]])))}`)
    .join('\n');
}
