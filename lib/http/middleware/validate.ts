// The request through its operation's schemas (lib/http/operation.ts), after the body is parsed and
// before the core runs: path parameters, query parameters, then the JSON body. A refusal is the
// domain's InvalidInput, which lib/http/error-map.ts renders like any other. The core receives the
// schemas' outputs as `req.input`.
import type * as z from 'zod/mini';
import { clip } from '../../domain/clip.ts';
import { InvalidInput, parameter } from '../../domain/errors.ts';
import { isIfMatchValue } from '../../domain/etag.ts';
import { IDEMPOTENCY_HEADER } from '../../domain/idempotency.ts';
import { parseInput, rawJsonProblem } from '../../domain/input.ts';
import { NoParameters } from '../../domain/schemas/common.ts';
import type { Route } from '../../routes.ts';
import type { Operation, Schema } from '../operation.ts';
import type { ApiMiddleware, Query } from '../request.ts';

/** The schema inside optional/nullable/default wrappers: what one parameter's values must be. */
function innermost(schema: Schema): z.core.$ZodType {
  let s: z.core.$ZodType = schema;
  for (;;) {
    const def = s._zod.def as z.core.$ZodTypeDef & { innerType?: z.core.$ZodType };
    if (!def.innerType || !['optional', 'nullable', 'default', 'prefault'].includes(def.type)) return s;
    s = def.innerType;
  }
}

/** The parameters an object schema declares, each with the schema of its value. */
export function declaredParameters(schema: Schema | undefined): Map<string, z.core.$ZodType> {
  const shape = (schema?._zod.def as { shape?: Record<string, z.core.$ZodType> } | undefined)?.shape ?? {};
  return new Map(Object.entries(shape).map(([name, s]) => [name, innermost(s as Schema)]));
}

/**
 * A parameter's text as the value its schema takes: an integer or boolean parameter is read as one
 * (OpenAPI's form style); text that is neither stays text, for the schema to refuse.
 */
function fromText(schema: z.core.$ZodType, text: string): unknown {
  const type = schema._zod.def.type;
  if (type === 'number' && /^-?\d{1,15}$/.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/**
 * The query as its schema reads it: a repeatable (array) parameter as the list of its values, any
 * other as its one value. A parameter the schema does not declare is passed on (the strict schema
 * names it); one given more often than its schema allows is refused here. The object has no
 * prototype: a parameter named `__proto__` is a key like any other.
 */
function queryObject(query: Query, declared: ReadonlyMap<string, z.core.$ZodType>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const name of query.names()) {
    const values = query.all(name);
    const schema = declared.get(name);
    if (schema?._zod.def.type === 'array') {
      const item = innermost((schema._zod.def as z.core.$ZodArrayDef).element as Schema);
      out[name] = values.map((v) => fromText(item, v));
    } else if (values.length > 1 && schema) {
      throw new InvalidInput(`Query parameter '${name}' is given ${values.length} times; it takes one value.`, parameter(name));
    } else {
      out[name] = schema ? fromText(schema, values[0]!) : values[0];
    }
  }
  return out;
}

/** A copy without a prototype, so that a key named `__proto__` stays a key. */
function plain(values: Readonly<Record<string, string>>): Record<string, unknown> {
  return Object.assign(Object.create(null) as Record<string, unknown>, values);
}

/** The preconditions of a change (RFC 9110 §13.1): a server that takes one must evaluate it before it changes anything. */
const CHANGE_PRECONDITIONS = ['If-Match', 'If-None-Match', 'If-Unmodified-Since'] as const;

/**
 * A change's preconditions that its route does not honour are refused, never ignored: the client
 * would take the change for a conditional one (RFC 9110 §13.1.1). Reads may ignore them, as a cache
 * may; so may the searches, POSTs that only read (`table: 'read'`), as they ignore an Idempotency-Key.
 */
function refuseUnhonoured(headers: ReadonlyMap<string, string>, route: Route, operation: Operation): void {
  if (route.method === 'GET' || route.method === 'OPTIONS' || route.table === 'read') return;
  const ifMatch = headers.get('if-match');
  if (ifMatch !== undefined && operation.headers?.ifMatch && !isIfMatchValue(ifMatch)) {
    throw new InvalidInput(
      `If-Match must be * or entity tags in double quotes, as the ETag header gives them ("2026-01-31T12:00:00.000Z"); got '${clip(ifMatch)}'.`,
      parameter('If-Match'),
    );
  }
  for (const name of CHANGE_PRECONDITIONS) {
    if (!headers.has(name.toLowerCase()) || (name === 'If-Match' && operation.headers?.ifMatch)) continue;
    const instead = operation.headers?.ifMatch ? ' It honours If-Match, with the ETag that GET answers.' : '';
    throw new InvalidInput(
      `${route.method} ${route.path} does not honour ${name}, so the change would not be conditional on it; send the request without ${name}.${instead}`,
      parameter(name),
    );
  }
  // Only creates take an Idempotency-Key. On another change it would promise what the route does
  // not do (answer a repeat from the first answer); POSTs that speak their own protocol (OAuth, MCP,
  // the pages) are left to ignore it, as any header they do not define.
  if (route.method !== 'POST' && !operation.headers?.idempotencyKey && headers.has(IDEMPOTENCY_HEADER.toLowerCase())) {
    throw new InvalidInput(
      `${route.method} ${route.path} does not take ${IDEMPOTENCY_HEADER} (only creates do), so a repeat would not be answered from the first; send the request without it.`,
      parameter(IDEMPOTENCY_HEADER),
    );
  }
}

export function validate(operation: Operation, route: Route): ApiMiddleware {
  const querySchema = operation.query ?? NoParameters;
  const queryDeclared = declaredParameters(querySchema);
  const queryNames = [...queryDeclared.keys()];
  return {
    before: (request) => {
      const api = request.context.api;
      refuseUnhonoured(api.headers, route, operation);
      const bad = api.undecodableParam;
      if (bad !== undefined) throw new InvalidInput(`Path parameter '${bad}' is not valid percent-encoding.`, parameter(bad));
      const params = operation.params ? parseInput(operation.params, plain(api.params), 'path') : {};
      const query = operation.queryReadByCore ? {} : parseInput(querySchema, queryObject(api.query, queryDeclared), 'query', queryNames);
      let body: unknown;
      if (route.body === 'json' && operation.body) {
        const problem = rawJsonProblem(api.body);
        if (problem) throw problem;
        body = parseInput(operation.body, api.body, 'body');
      }
      api.input = { params, query, body };
    },
  };
}
