// Outermost middleware: request id, logger and budget on the way in; JSON serialisation on the
// way out; and the one place any error becomes a response (the spec's envelope, or a renderer
// the error brings, such as the token endpoint's OAuth body).
import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { config } from '../../config.ts';
import { log as rootLog } from '../../log.ts';
import type { Route } from '../../routes.ts';
import { EDGE_DETAILS, errorEnvelope } from '../envelope.ts';
import { ApiError } from '../errors.ts';
import { headerMap, Query, type ApiRequest, type ApiResponse, type ApiResult } from '../request.ts';

/** An error that knows its own HTTP rendering (e.g. OAuth token endpoint errors). */
export interface RenderableError {
  toResult(requestId: string): ApiResult;
}
const isRenderable = (e: unknown): e is RenderableError =>
  typeof e === 'object' && e !== null && typeof (e as Partial<RenderableError>).toResult === 'function';

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
      if (isRenderable(err)) {
        request.response = serialize(requestId, err.toResult(requestId), extra);
        return;
      }
      if (err instanceof ApiError) {
        if (err.status >= 500) logger.error('request failed', { code: err.code, error: err });
        else logger.info('request rejected', { code: err.code, status: err.status });
        const body = errorEnvelope(requestId, err.code, err.detail, err.source);
        request.response = serialize(requestId, { status: err.status, body, headers: err.headers ?? {} }, extra);
        return;
      }
      // Anything else is our fault: log the cause, tell the client nothing internal.
      logger.error('unexpected error', { error: err });
      const body = errorEnvelope(requestId, 'internal.serverError', EDGE_DETAILS['internal.serverError']);
      request.response = serialize(requestId, { status: 500, body }, extra);
    },
  };
}
