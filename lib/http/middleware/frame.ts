// Outermost middleware: request id, logger and budget on the way in; JSON serialisation on the
// way out; and the one place any error becomes a response (lib/http/error-map.ts says which).
import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { config } from '../../config.ts';
import { log as rootLog, type Logger } from '../../log.ts';
import type { Route } from '../../routes.ts';
import { TokenError } from '../../auth/token-errors.ts';
import { apiErrorOf, errorReply } from '../error-map.ts';
import { ApiError } from '../errors.ts';
import { headerMap, Query, type ApiRequest, type ApiResponse, type ApiResult } from '../request.ts';

export type ApiContext = Context & { api: ApiRequest };

/** Lambda's own margin: answer before the function itself is killed. */
const LAMBDA_MARGIN_MS = 500;

function decodeParams(raw: Record<string, string | undefined> | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    if (value === undefined) continue;
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      throw new ApiError('request.invalid', `Path parameter '${name}' is not valid percent-encoding.`, { source: { parameter: name } });
    }
  }
  return out;
}

export function serialize(requestId: string, result: ApiResult, extraHeaders: Record<string, string> = {}): ApiResponse {
  const headers: Record<string, string> = {
    'Cache-Control': 'no-store',
    ...extraHeaders,
    ...result.headers,
    'X-Request-Id': requestId,
  };
  if (result.body === undefined) return { statusCode: result.status, headers, body: '' };
  headers['Content-Type'] ??= 'application/json';
  return { statusCode: result.status, headers, body: JSON.stringify(result.body) };
}

/** One line per failed request; the token endpoint logs its own refusals (with the failed check). */
function logFailure(logger: Logger, err: unknown): void {
  if (err instanceof TokenError) return;
  const known = apiErrorOf(err);
  // None of ours is our fault: the cause goes to the log, never to the client.
  if (!known) logger.error('unexpected error', { error: err });
  else if (known.status >= 500) logger.error('request failed', { code: known.code, error: err });
  else logger.info('request rejected', { code: known.code, status: known.status });
}

export function frame(route: Route): MiddlewareObj<APIGatewayProxyEvent, ApiResponse, Error, ApiContext> {
  return {
    before: (request) => {
      const { event, context } = request;
      const requestId = event.requestContext?.requestId || randomUUID();
      const logger = rootLog.child({ requestId, operationId: route.operationId });
      const api: ApiRequest = {
        event,
        context,
        route,
        requestId,
        params: {},
        query: new Query(event),
        headers: headerMap(event),
        principal: undefined,
        body: undefined,
        rawBody: undefined,
        log: logger,
        responseHeaders: {},
      };
      context.api = api;
      // The request budget (408) counts from arrival; Lambda's own remaining time still bounds it.
      const deadline = Date.now() + config.requestTimeoutMs;
      const lambdaRemaining = context.getRemainingTimeInMillis?.bind(context);
      context.getRemainingTimeInMillis = () =>
        Math.max(1, Math.min(deadline - Date.now(), lambdaRemaining ? lambdaRemaining() - LAMBDA_MARGIN_MS : Infinity));
      api.params = decodeParams(event.pathParameters);
    },
    after: (request) => {
      const api = request.context.api;
      request.response = serialize(api.requestId, request.response as unknown as ApiResult, api.responseHeaders);
    },
    onError: (request) => {
      const err = request.error;
      const api = request.context.api as ApiRequest | undefined;
      const requestId = api?.requestId ?? request.event.requestContext?.requestId ?? randomUUID();
      const logger = api?.log ?? rootLog.child({ requestId, operationId: route.operationId });
      const extra = api?.responseHeaders ?? {};
      logFailure(logger, err);
      const reply = errorReply(err, requestId);
      request.response = serialize(requestId, { status: reply.statusCode, body: reply.body, headers: reply.headers }, extra);
    },
  };
}
