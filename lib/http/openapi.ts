// The OpenAPI 3.1 document of the whole API, generated from the route table (one source of truth
// for paths, methods, scopes and bodies) and the service specification's error table (lib/http/errors.ts).
import { z } from 'zod';
import { ERROR_TABLE, type ErrorCode } from './errors.ts';
import { authorizationOperations, oauth2SecurityScheme } from './openapi-authorization.ts';
import { CreateWebhookBody, WebhookListResponse, WebhookNotificationBody, WebhookReferenceResponse, WebhookResponse } from '../domain/webhooks.ts';
import { PREFLIGHT_PATH, ROUTES, type Route } from '../routes.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A zod schema as a JSON Schema (2020-12, OpenAPI 3.1's dialect) to embed. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io });
  return rest;
}

/** Webhook subscriptions: bodies and answers from lib/domain/webhooks.ts, and the notification POST as a callback. */
const WEBHOOK_SCHEMAS = {
  CreateWebhookBody: jsonSchema(CreateWebhookBody, 'input'),
  WebhookReferenceResponse: jsonSchema(WebhookReferenceResponse, 'output'),
  WebhookResponse: jsonSchema(WebhookResponse, 'output'),
  WebhookListResponse: jsonSchema(WebhookListResponse, 'output'),
  WebhookNotificationBody: jsonSchema(WebhookNotificationBody, 'output'),
};

const json = (schema: string, description: string) => ({ description, content: { 'application/json': { schema: ref(schema) } } });

const NOTIFICATION_CALLBACK = {
  webhookNotification: {
    '{$request.body#/data/fields/notification/url}': {
      post: {
        summary: 'The notification POSTed for each subscribed event (docs/events.md)',
        parameters: [
          { name: 'webhook-id', in: 'header', required: true, schema: { type: 'string', pattern: '^msg_[0-9a-f]{32}$' }, description: 'The event id: the same on every attempt' },
          { name: 'webhook-timestamp', in: 'header', required: true, schema: { type: 'string' }, description: 'Seconds since the epoch, of this attempt' },
          { name: 'webhook-signature', in: 'header', required: true, schema: { type: 'string' }, description: 'Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body">' },
          { name: 'authorization', in: 'header', required: false, schema: { type: 'string' }, description: 'The value given at creation in notification.headers.authorization' },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookNotificationBody') } } },
        responses: { '2XX': { description: 'Received (any other answer is retried; 410 Gone pauses the subscription)' } },
      },
    },
  },
};

const WEBHOOK_OPERATIONS: Record<string, { body?: string; success?: [string, string]; query?: string[]; callbacks?: unknown }> = {
  createWebhook: { body: 'CreateWebhookBody', success: ['WebhookReferenceResponse', 'The subscription; its signing secret is shown only here'], callbacks: NOTIFICATION_CALLBACK },
  listWebhooks: { success: ['WebhookListResponse', 'The subscriptions the caller sees, oldest first'], query: ['pageCursor', 'limit'] },
  getWebhook: { success: ['WebhookResponse', 'The subscription'] },
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

const tagOf = (route: Route) =>
  route.path.startsWith('/v2/notes') ? 'Notes' : route.path.startsWith('/v2/webhooks') ? 'Webhooks' : route.path.startsWith('/v2/') ? 'Entities' : route.path.startsWith('/oauth2/') ? 'Server-to-server' : 'Authorization code flow';

function operation(route: Route) {
  const own = authorizationOperations()[route.operationId];
  if (own) return { operationId: route.operationId, summary: route.summary, tags: [tagOf(route)], security: [], ...own };
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: m[1] === 'id' || m[1] === 'entityId' || m[1] === 'targetId' || m[1] === 'keyId' || m[1] === 'webhookId' ? { type: 'string', format: 'uuid' } : { type: 'string' },
  }));
  const security =
    route.auth === 'none' ? [] : route.auth === 'admin' ? [{ BearerAuth: [] }] : [{ BearerAuth: [] }, { OAuth2: [route.auth] }];
  const op: Record<string, unknown> = {
    operationId: route.operationId,
    summary: route.summary,
    tags: [tagOf(route)],
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
  const webhook = WEBHOOK_OPERATIONS[route.operationId];
  if (webhook?.body) op.requestBody = { required: true, content: { 'application/json': { schema: ref(webhook.body) } } };
  if (webhook?.success) (op.responses as Record<string, unknown>)[success] = json(...webhook.success);
  if (webhook?.query) {
    const query = webhook.query.map((name) => ({ name, in: 'query', required: false, schema: name === 'limit' ? { type: 'integer', minimum: 1, maximum: 100 } : { type: 'string' } }));
    op.parameters = [...params, ...query];
  }
  if (webhook?.callbacks) op.callbacks = webhook.callbacks;
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
  // The CORS preflight is the browsers' business, not an operation of the API.
  for (const route of ROUTES as readonly Route[]) {
    if (route.path !== PREFLIGHT_PATH) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Product management API', version: '2.0.0', description: 'Generated from lib/routes.ts by `npm run openapi`.' },
    servers: [{ url: 'http://localhost:3000', description: 'Local ({app_url}; {base_url} is {app_url}/v2)' }],
    paths,
    components: {
      securitySchemes: {
        BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        OAuth2: oauth2SecurityScheme(),
        OAuthClientBasic: { type: 'http', scheme: 'basic', description: 'client_secret_basic of a confidential authorization-code client (RFC 6749 §2.3.1)' },
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
        ...WEBHOOK_SCHEMAS,
      },
    },
  };
}
