// The OpenAPI 3.1 document of the whole API, generated (at build time: `npm run openapi`) from the
// route table and each operation's declaration (lib/http/operation.ts), which its handler module
// passes to api(). Schemas become JSON Schema with zod's own converter; a schema with a metadata
// id becomes a named component, everything else is written where it is used. Error responses are
// derived from the route: its auth, its body, its path parameters, and the codes the declaration adds.
import * as z from 'zod/mini';
import { ERROR_TABLE, type ErrorCode } from './errors.ts';
import { addressed, LOCAL_APP_URL } from './openapi-urls.ts';
import type { Callback, Operation, RefusalStatus, Schema, SuccessStatus } from './operation.ts';
import { errorResponse } from '../domain/schemas/errors.ts';
import * as RESPONSE_SCHEMAS from '../domain/schemas/response-schemas.ts';
import type { ResponseBody } from '../domain/schemas/responses.ts';
import { PREFLIGHT_PATH, type Route } from '../routes.ts';

export interface DocumentedOperation {
  route: Route;
  operation: Operation;
}

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const COMPONENT = '#/components/schemas/';
const componentRef = (id: string) => ({ $ref: `${COMPONENT}${id}` });

const SUCCESS_DESCRIPTIONS: Record<SuccessStatus, string> = {
  200: 'Success',
  201: 'Created',
  202: 'Accepted; no body',
  204: 'Done; no body',
  303: 'See Other: the Location header is the answer',
};

/** The error codes a route can answer, derived from what it is. */
function errorCodesOf({ route, operation }: DocumentedOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  // Anything may time out, fail, be throttled, or send more than the gateway's payload or header
  // limit: the gateway answers 429, 413 and 431 itself, for every route.
  codes.add('request.timeout').add('rate.limitExceeded').add('internal.serverError').add('request.tooLarge').add('request.headersTooLarge');
  if (route.auth !== 'none') codes.add('auth.invalid').add('auth.accessDenied');
  // A browser's Origin it refuses (lib/http/middleware/cors.ts).
  if (route.refusesForeignOrigins) codes.add('auth.accessDenied');
  // A parameter it does not define, a bad path or query parameter, a body its schema refuses.
  // (The token endpoints answer their own bodies instead: operation.refusal; pages are pages.)
  if (!operation.refusal && !operation.pages) codes.add('request.invalid');
  if (route.body === 'json') codes.add('request.malformed');
  if (route.path.includes('{')) codes.add('resource.notFound');
  if (operation.headers?.ifMatch) codes.add('request.preconditionFailed');
  for (const code of operation.errors ?? []) codes.add(code);
  return [...codes];
}

/** Component names a schema id may take (OpenAPI's pattern for component keys). */
const COMPONENT_NAME = /^[a-zA-Z0-9._-]+$/;

/** Every `$ref` to a component inside a JSON value. */
function refsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT)) out.add(v.slice(COMPONENT.length));
      else refsIn(v, out);
    }
  }
  return out;
}

/**
 * JSON Schema for the document's schemas, through one registry: every schema with a metadata id
 * (lib/domain/schemas/*) and every root an operation names. Roots without an id get a synthetic
 * one and are written inline where used; named schemas become components. Each schema is
 * converted on the side it is used on: request schemas as their input, responses as their output.
 */
class SchemaSet {
  private readonly registry = z.registry<{ id: string }>();
  private readonly synthetic = new Set<string>();
  private converted: Record<Io, Record<string, Json>> | undefined;
  private readonly used: Record<Io, Set<string>> = { input: new Set(), output: new Set() };
  private readonly outputRoots = new Set<string>();

  constructor(extra: Record<string, Schema>) {
    for (const [id, schema] of z.globalRegistry._idmap) this.registry.add(schema, { id });
    for (const [id, schema] of Object.entries(extra)) this.registry.add(schema, { id });
  }

  /** The id a root schema is known by (its own, or a synthetic one for an inline root). */
  idOf(schema: Schema, fallback: string): string {
    const known = this.registry.get(schema)?.id;
    if (known) return known;
    this.registry.add(schema, { id: fallback });
    this.synthetic.add(fallback);
    return fallback;
  }

  private convert(): Record<Io, Record<string, Json>> {
    // Every schema is converted on both sides. A request schema's output may be unrepresentable (a
    // transform): the output pass lets that be, and checkOutputs() proves no response is such a schema.
    const run = (io: Io) => {
      const unrepresentable = io === 'input' ? 'throw' : 'any';
      const override = (ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: z.core.JSONSchema.BaseSchema }) => this.discriminate(ctx);
      const { schemas } = z.toJSONSchema(this.registry, {
        io,
        target: 'draft-2020-12',
        unrepresentable,
        cycles: 'ref',
        uri: (id) => `${COMPONENT}${id}`,
        override,
      });
      const out: Record<string, Json> = {};
      for (const [id, s] of Object.entries(schemas)) {
        const { $id: _id, $schema: _schema, ...rest } = s as Json;
        out[id] = rest;
      }
      return out;
    };
    return (this.converted ??= { input: run('input'), output: run('output') });
  }

  /**
   * A discriminated union whose branches are named schemas says which property picks the branch
   * and which value names which schema (OpenAPI's discriminator): clients and validators then read
   * one branch, not all of them.
   */
  private discriminate(ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: z.core.JSONSchema.BaseSchema }): void {
    const def = ctx.zodSchema._zod.def as { type: string; discriminator?: string; options?: z.core.$ZodType[] };
    if (def.type !== 'union' || !def.discriminator || !def.options) return;
    const mapping: Record<string, string> = {};
    for (const option of def.options) {
      const id = this.registry.get(option)?.id;
      const values = option._zod.propValues?.[def.discriminator];
      if (!id || !values) return;
      for (const v of values) mapping[String(v)] = `${COMPONENT}${id}`;
    }
    ctx.jsonSchema.discriminator = { propertyName: def.discriminator, mapping };
  }

  /** Marks a named schema as used on one side (components every operation refers to by name). */
  useNamed(id: string, io: Io): void {
    if (!this.registry._idmap.has(id)) throw new Error(`No schema named '${id}'`);
    this.used[io].add(id);
  }

  /** A response schema must convert as it is (no transform in it); its JSON Schema would otherwise say nothing. */
  private checkOutput(id: string): void {
    try {
      z.toJSONSchema(this.registry._idmap.get(id)!, { io: 'output', unrepresentable: 'throw', cycles: 'ref' });
    } catch (err) {
      throw new Error(`Schema '${id}' is used in a response but cannot be written as JSON Schema: ${(err as Error).message}`);
    }
  }

  /** A root as used on one side: a $ref to a named schema, or the synthetic root written out. */
  use(schema: Schema, fallback: string, io: Io): Json {
    const id = this.idOf(schema, fallback);
    if (io === 'output') this.outputRoots.add(id);
    if (!this.synthetic.has(id)) {
      this.used[io].add(id);
      return componentRef(id);
    }
    const json = this.convert()[io][id]!;
    for (const r of refsIn(json)) this.used[io].add(r);
    return json;
  }

  /** The named schemas the document refers to, each from the side it is used on; one used on both must read the same. */
  components(): Record<string, Json> {
    const converted = this.convert();
    const sides: Record<Io, Set<string>> = { input: new Set(), output: new Set() };
    for (const io of ['input', 'output'] as const) {
      const todo = [...this.used[io]];
      for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
        if (sides[io].has(id)) continue;
        sides[io].add(id);
        todo.push(...refsIn(converted[io][id]));
      }
    }
    for (const id of [...sides.output, ...this.outputRoots]) this.checkOutput(id);
    const out: Record<string, Json> = {};
    for (const id of [...new Set([...sides.input, ...sides.output])].sort()) {
      if (!COMPONENT_NAME.test(id)) throw new Error(`Schema id '${id}' is not a valid component name`);
      const input = sides.input.has(id) ? converted.input[id] : undefined;
      const output = sides.output.has(id) ? converted.output[id] : undefined;
      if (input && output && JSON.stringify(input) !== JSON.stringify(output)) {
        throw new Error(`Schema '${id}' is used in requests and responses but reads differently as input and output; give each side its own schema`);
      }
      out[id] = (input ?? output)!;
    }
    return out;
  }
}

const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);

function statusesOf(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_TABLE[code].status, [...(byStatus.get(ERROR_TABLE[code].status) ?? []), code]);
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The error envelope narrowed to the codes one status carries, one component per status. */
function errorSchemas(): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [status, codes] of statusesOf(Object.keys(ERROR_TABLE) as ErrorCode[])) out[`Error${status}`] = errorResponse(codes);
  return out;
}

const REQUEST_ID = { $ref: '#/components/headers/X-Request-Id' };

/** The schema a declaration names (lib/domain/schemas/responses.ts). */
const schemaOf = (body: ResponseBody | null | undefined): Schema | undefined => (body ? RESPONSE_SCHEMAS[body.responseSchema] : undefined);

/** Each schema an operation names, with the name it has when it has no id of its own. */
function rootsOf(route: Route, operation: Operation): Array<[string, Schema]> {
  const id = route.operationId;
  const roots: Array<[string, Schema | null | undefined]> = [
    [`${id}.path`, operation.params],
    [`${id}.query`, operation.query],
    [`${pascal(id)}Body`, operation.body],
    [`${pascal(id)}Form`, operation.form],
    [`${pascal(id)}Refusal`, schemaOf(operation.refusal)],
    [`${pascal(id)}Notification`, schemaOf(operation.callback?.body)],
    ...Object.entries(operation.responses).map(([status, body]): [string, Schema | undefined] => [`${pascal(id)}${status}`, schemaOf(body)]),
  ];
  return roots.filter((r): r is [string, Schema] => !!r[1]);
}

/** Path and query parameters from their object schemas (written inline: their properties become parameters). */
function parameters(set: SchemaSet, { route, operation }: DocumentedOperation): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [
    ['path', operation.params],
    ['query', operation.query],
  ] as const) {
    if (!schema) continue;
    const json = set.use(schema, `${route.operationId}.${where}`, 'input');
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries((json.properties as Record<string, Json> | undefined) ?? {})) {
      const { description, ...value } = prop;
      const repeated = value.type === 'array';
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: value,
        ...(repeated ? { style: 'form', explode: true } : {}),
      });
    }
  }
  if (operation.headers?.idempotencyKey) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes the request safe to retry: for 24 hours from its first use, a retry with the same key, path and body answers the first result (same status and body, with the header Idempotent-Replayed: true) without a second write, and the same key with another path or body is 400; after that the key names a new request. A replayed application omits its client secret (shown in the first answer only).',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
    });
  }
  if (operation.headers?.ifMatch) {
    out.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'The ETag of the version the change was made against (or *); another current version answers 412 request.preconditionFailed.',
      schema: { type: 'string' },
    });
  }
  if (route.refusesForeignOrigins) {
    out.push({
      name: 'Origin',
      in: 'header',
      required: false,
      description:
        "Sent by browsers. When present it must name an origin, and with a token the origin of one of its application's redirect URIs (an API token: none); otherwise 403 auth.accessDenied, and nothing is done. Clients outside a browser send none.",
      schema: { type: 'string' },
    });
  }
  return out;
}

/** The request budget's counters, on every response of an authenticated route once its token is known (lib/http/middleware/rate-limit.ts). */
const RATE_LIMIT_HEADERS = Object.fromEntries(
  ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((h) => [h, { $ref: `#/components/headers/${h}` }]),
);
const ETAG = { description: 'The version of the resource, for If-Match', schema: { type: 'string' } };

function operationObject(set: SchemaSet, doc: DocumentedOperation): Json {
  const { route, operation } = doc;
  const id = route.operationId;
  const responses: Record<string, Json> = {};
  for (const [status, body] of Object.entries<ResponseBody | null>(operation.responses)) {
    const schema = schemaOf(body);
    responses[status] = {
      description: SUCCESS_DESCRIPTIONS[Number(status) as SuccessStatus],
      headers: { 'X-Request-Id': REQUEST_ID, ...(route.auth !== 'none' ? RATE_LIMIT_HEADERS : {}), ...(operation.headers?.etag ? { ETag: ETAG } : {}) },
      ...(schema ? { content: { 'application/json': { schema: set.use(schema, `${pascal(id)}${status}`, 'output') } } } : {}),
    };
  }
  for (const [status, codes] of statusesOf(errorCodesOf(doc))) {
    responses[String(status)] = {
      description: codes.map((c) => `${c}: ${ERROR_TABLE[c].title}`).join('; '),
      headers: {
        'X-Request-Id': REQUEST_ID,
        // A 401 answers before any budget is known (the token is what names it).
        ...(route.auth !== 'none' && status !== 401 ? RATE_LIMIT_HEADERS : {}),
        ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
      },
      content: { 'application/json': { schema: componentRef(`Error${status}`) } },
    };
  }
  if (operation.refusal) {
    for (const status of operation.refusalStatuses ?? [400]) {
      const refusal = set.use(schemaOf(operation.refusal)!, `${pascal(id)}Refusal`, 'output');
      // The gateway's own throttling still answers the envelope (errorCodesOf): a 429 may be either.
      const gateway = status === 429 ? responses['429'] : undefined;
      responses[String(status)] = {
        description: gateway ? `${REFUSAL_DESCRIPTIONS[status]}; the gateway's own throttling: ${String(gateway.description)}` : REFUSAL_DESCRIPTIONS[status],
        headers: {
          'X-Request-Id': REQUEST_ID,
          ...(status === 401 ? { 'x-amzn-Remapped-WWW-Authenticate': CHALLENGE } : {}),
          ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
        },
        content: { 'application/json': { schema: gateway ? { oneOf: [refusal, componentRef('Error429')] } : refusal } },
      };
    }
  }
  for (const [status, description] of Object.entries(operation.pages ?? {})) {
    responses[status] = { description, headers: { 'X-Request-Id': REQUEST_ID }, content: { 'text/html': { schema: { type: 'string' } } } };
  }
  const params = parameters(set, doc);
  const callbacks = operation.callback ? callbackObject(set, id, operation.callback) : undefined;
  return {
    operationId: id,
    summary: route.summary,
    ...descriptionOf(route, operation),
    tags: [tagOf(route)],
    security: securityOf(route, operation),
    ...(params.length ? { parameters: params } : {}),
    ...(operation.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: set.use(operation.body, `${pascal(id)}Body`, 'input') } } } }
      : {}),
    ...(operation.form
      ? { requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: set.use(operation.form, `${pascal(id)}Form`, 'input') } } } }
      : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
    ...(callbacks ? { callbacks } : {}),
  };
}

/** An operation's description: what it adds to Productboard's API, and who may call an admin route (OpenAPI has no roles). */
function descriptionOf(route: Route, operation: Operation): Json {
  const parts = [...(operation.extension ? [operation.extension] : []), ...(route.auth === 'admin' ? [ADMIN_ONLY] : [])];
  return { ...(parts.length ? { description: parts.join('\n\n') } : {}), ...(operation.extension ? { 'x-extension': true } : {}) };
}

const ADMIN_ONLY =
  'Needs an API token of an admin member of the workspace: any other token, an access token of an application included, is refused with 403 auth.accessDenied.';

/** The 401's challenge: API Gateway's REST API passes a function's WWW-Authenticate on under this name (local/gateway.ts renames it too). */
const CHALLENGE = {
  description: 'The WWW-Authenticate challenge the function sent, renamed by API Gateway',
  schema: { type: 'string' },
};

const REFUSAL_DESCRIPTIONS: Record<RefusalStatus, string> = {
  400: 'The request is refused: RFC 6749 error codes, with those of the service specification',
  401: 'invalid_client (RFC 6749 5.2), with the Basic challenge',
  403: 'Refused',
  429: "slow_down: the client's or the source address's request budget is spent",
};

/**
 * Who may call: nobody needs a token on a public route — the token endpoints of the authorization
 * code flow take a confidential client's HTTP Basic credentials (or the client in the form).
 */
function securityOf(route: Route, operation: Operation): Json[] {
  if (route.auth === 'admin') return [{ BearerAuth: [] }];
  // Any token of the resource; each MCP tool requires its REST route's scope.
  if (route.auth === 'bearer') return [{ BearerAuth: [] }, { OAuth2: [] }];
  if (route.auth !== 'none') return [{ BearerAuth: [] }, { OAuth2: [route.auth] }];
  return operation.refusalStatuses?.includes(401) ? [{}, { OAuthClientBasic: [] }] : [];
}

function callbackObject(set: SchemaSet, id: string, callback: Callback): Json {
  const parameters = callback.headers.map(({ name, required, description, pattern }) => ({
    name,
    in: 'header',
    required,
    description,
    schema: { type: 'string', ...(pattern ? { pattern } : {}) },
  }));
  const post = {
    summary: callback.summary,
    parameters,
    requestBody: { required: true, content: { 'application/json': { schema: set.use(schemaOf(callback.body)!, `${pascal(id)}Notification`, 'output') } } },
    // The receiver is not asked for credentials of ours: it checks the signature (and its own authorization header).
    security: [],
    responses: { '2XX': { description: callback.answers['2XX'] }, '4XX': { description: callback.answers['4XX'] } },
  };
  return { [callback.name]: { [callback.url]: { post } } };
}

const TAGS = [
  { name: 'Entities', description: 'Product hierarchy entities and customers, their configurations and the customer score' },
  { name: 'Notes', description: 'Notes, their customer and their links to entities (customer importance)' },
  { name: 'Webhooks', description: 'Webhook subscriptions and the signed notifications they receive (docs/events.md)' },
  { name: 'Server-to-server', description: 'Applications, their public keys and the JWT bearer grant (RFC 7523)' },
  { name: 'Authorization code flow', description: 'Pages, token, revocation and metadata of the OAuth 2.0 authorization code flow (docs/oauth.md)' },
  { name: 'Member pages', description: 'Read-only HTML pages for signed-in members, where links.html points (README, "Pages")' },
  { name: 'Document', description: 'This OpenAPI document' },
];

function tagOf(route: Route): string {
  if (route.path.startsWith('/v2/notes')) return 'Notes';
  if (route.path.startsWith('/v2/entities')) return 'Entities';
  if (route.path.startsWith('/v2/webhooks')) return 'Webhooks';
  if (route.path.startsWith('/oauth2/')) return 'Server-to-server';
  if (route.path.startsWith('/oauth/') || route.path.startsWith('/.well-known/')) return 'Authorization code flow';
  if (route.response === 'html') return 'Member pages';
  return 'Document';
}

/** The document for the given operations (every row of lib/routes.ts with its handler's declaration). */
export function buildOpenApi(operations: readonly DocumentedOperation[], appUrl = LOCAL_APP_URL): Json {
  const errors = errorSchemas();
  const set = new SchemaSet(errors);
  // Every root is known before the first conversion, which converts them all at once.
  for (const { route, operation } of operations) for (const [role, schema] of rootsOf(route, operation)) set.idOf(schema, role);
  const paths: Record<string, Record<string, Json>> = {};
  // The CORS preflight is the browsers' business, not an operation of the API.
  for (const doc of operations.filter((o) => o.route.path !== PREFLIGHT_PATH))
    (paths[doc.route.path] ??= {})[doc.route.method.toLowerCase()] = operationObject(set, doc);
  // Each status's envelope, also for the gateway's own answers (unknown routes: Error404; payload limit: Error413).
  for (const name of Object.keys(errors)) set.useNamed(name, 'output');
  const { servers, securitySchemes } = addressed(appUrl);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Product management API',
      version: '2.0.0',
      summary: 'Product hierarchy, notes, the customer score (beta) and webhooks',
      description:
        'Generated by `npm run openapi` from lib/routes.ts and the operation each handler module declares. ' +
        'Every error is one envelope (Error400 … Error500: the codes each status carries); every response carries ' +
        'X-Request-Id, the envelope id. A path the gateway does not know answers 404 route.notFound (Error404), a method ' +
        'its path does not take 405 request.methodNotAllowed (Error405) with Allow listing those it takes, ' +
        'a body over its 10 MiB limit 413 request.tooLarge (Error413).',
    },
    servers,
    tags: TAGS,
    paths,
    components: {
      schemas: set.components(),
      headers: {
        'X-Request-Id': { description: 'Identifies the request; equals the error envelope id', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
        'X-RateLimit-Limit': { description: "Requests per second the credential owner's budget allows", schema: { type: 'integer', minimum: 1 } },
        'X-RateLimit-Remaining': { description: 'Requests left in the budget now', schema: { type: 'integer', minimum: 0 } },
        'X-RateLimit-Reset': { description: 'Seconds until the budget is full again', schema: { type: 'integer', minimum: 0 } },
      },
      securitySchemes,
    },
  };
}
