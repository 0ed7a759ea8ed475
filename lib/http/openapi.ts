// The OpenAPI 3.1 document of the whole API, generated from the route table (one source of truth
// for paths, methods, scopes and bodies) and the service specification's error table (lib/http/errors.ts).
import { ERROR_TABLE, type ErrorCode } from './errors.ts';
import { SCOPES } from '../domain/scopes.ts';
import { ROUTES, type Route } from '../routes.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const SCOPE_MEANING: Record<string, string> = {
  'entities:read': 'Read entities',
  'write:entities': 'Create and modify entities',
  'entities:delete': 'Delete entities',
  'notes:read': 'Read notes',
  'notes:write': 'Create and modify notes and their relationships',
  'notes:delete': 'Delete notes',
};

function errorResponses(route: Route): Record<string, unknown> {
  const codes: ErrorCode[] = ['request.invalid', 'resource.notFound', 'request.timeout', 'rate.limitExceeded', 'internal.serverError'];
  if (route.auth !== 'none') codes.push('auth.invalid', 'auth.accessDenied');
  if (route.body === 'json') codes.push('request.malformed', 'request.tooLarge');
  if (route.operationId === 'createNoteRelationship') codes.push('conflict.uniqueViolation');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) byStatus.set(ERROR_TABLE[c].status, [...(byStatus.get(ERROR_TABLE[c].status) ?? []), c]);
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, cs]) => [
      String(status),
      { description: cs.map((c) => `${c}: ${ERROR_TABLE[c].title}`).join('; '), content: { 'application/json': { schema: ref('ErrorResponse') } } },
    ]),
  );
}

function operation(route: Route) {
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: m[1] === 'id' || m[1] === 'entityId' || m[1] === 'targetId' || m[1] === 'keyId' ? { type: 'string', format: 'uuid' } : { type: 'string' },
  }));
  const security =
    route.auth === 'none' ? [] : route.auth === 'admin' ? [{ BearerAuth: [] }] : [{ BearerAuth: [] }, { OAuth2: [route.auth] }];
  const op: Record<string, unknown> = {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.path.startsWith('/v2/notes') ? 'Notes' : route.path.startsWith('/v2/') ? 'Entities' : 'Server-to-server'],
    security,
    ...(params.length ? { parameters: params } : {}),
    responses: errorResponses(route),
  };
  const success = route.method === 'DELETE' ? '204' : route.method === 'POST' && !/search|token/.test(route.path) ? '201' : '200';
  (op.responses as Record<string, unknown>)[success] =
    success === '204' ? { description: 'Done' } : { description: 'Success', content: { 'application/json': { schema: { type: 'object' } } } };
  if (route.operationId === 'getCustomerScore') {
    (op.responses as Record<string, unknown>)['200'] = { description: 'The customer score (beta)', content: { 'application/json': { schema: ref('CustomerScoreResponse') } } };
  }
  if (route.body === 'json') op.requestBody = { required: true, content: { 'application/json': { schema: { type: 'object' } } } };
  if (route.body === 'form') {
    op.requestBody = { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('JwtBearerGrant') } } };
    op.responses = {
      '200': { description: 'An access token valid 300 seconds', content: { 'application/json': { schema: ref('TokenResponse') } } },
      '400': { description: 'Invalid request or assertion', content: { 'application/json': { schema: ref('OAuthError') } } },
    };
  }
  return op;
}

export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES as readonly Route[]) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: { title: 'Product management API', version: '2.0.0', description: 'Generated from lib/routes.ts by `npm run openapi`.' },
    servers: [{ url: 'http://localhost:3000', description: 'Local ({app_url}; {base_url} is {app_url}/v2)' }],
    paths,
    components: {
      securitySchemes: {
        BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        OAuth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: '/oauth/authorize',
              tokenUrl: '/oauth/token',
              scopes: Object.fromEntries(SCOPES.map((s) => [s, SCOPE_MEANING[s]])),
            },
          },
        },
      },
      schemas: {
        ErrorResponse: {
          type: 'object',
          required: ['id', 'errors'],
          properties: {
            id: { type: 'string' },
            errors: { type: 'array', minItems: 1, items: ref('Error') },
          },
        },
        Error: {
          type: 'object',
          required: ['code', 'title', 'detail'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERROR_TABLE) },
            title: { type: 'string', maxLength: 255 },
            detail: { type: 'string', maxLength: 1000 },
            source: { type: 'object', properties: { pointer: { type: 'string' }, parameter: { type: 'string' } } },
          },
        },
        CustomerScoreResponse: {
          type: 'object',
          required: ['data'],
          properties: {
            data: {
              type: 'object',
              required: ['id', 'type', 'fields', 'links'],
              properties: {
                id: { type: 'string', format: 'uuid' },
                type: { const: 'customerScore' },
                fields: { type: 'object', required: ['score'], properties: { score: { type: 'integer', minimum: 0 } } },
                links: { type: 'object', required: ['self'], properties: { self: { type: 'string', format: 'uri' } } },
              },
            },
          },
        },
        JwtBearerGrant: {
          type: 'object',
          required: ['grant_type', 'assertion'],
          properties: { grant_type: { const: 'urn:ietf:params:oauth:grant-type:jwt-bearer' }, assertion: { type: 'string' } },
        },
        TokenResponse: {
          type: 'object',
          required: ['access_token', 'token_type', 'expires_in', 'scope'],
          properties: {
            access_token: { type: 'string' },
            token_type: { const: 'Bearer' },
            expires_in: { const: 300 },
            scope: { type: 'string' },
          },
        },
        OAuthError: {
          type: 'object',
          required: ['error', 'error_description'],
          properties: { error: { type: 'string' }, error_description: { type: 'string' } },
        },
      },
    },
  };
}
